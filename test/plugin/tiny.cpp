/* The GCC plugin's test program (test/plugin/plugin.py, docs/plugin.md), in
 * the shape of a C++ application: a class whose one-line accessors sit in
 * every loop, small inline helpers, functions that call MPI, and kernels.
 * Built three ways: with the plugin at its default size limit, with the
 * plugin told to keep every hook (max-statements=0), and without hooktrace
 * (the reference output). */
/* The C API only: Open MPI's and MPICH's old C++ bindings need a library of
 * their own. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <cstdio>
#include <vector>

#define NOINLINE __attribute__((noinline))

class Grid {
public:
    explicit Grid(int n) : n_(n), v_(n, 1.0) {}
    double& at(int i) { return v_[i]; } /* tiny, with vector::operator[] */
    int size() const { return n_; }     /* tiny */
private:
    int n_;
    std::vector<double> v_;
};

static inline double twice(double x) { return 2.0 * x; } /* tiny */

/* Tiny and never inlined: still left out, its hooks go before inlining. */
extern "C" NOINLINE double plus_one(double x) { return x + 1.0; }

/* A loop: kept. */
NOINLINE double sum_grid(Grid& g)
{
    double s = 0.0;
    for (int i = 0; i < g.size(); i++)
        s += twice(g.at(i));
    return plus_one(s);
}

/* Straight-line but longer than the limit: kept. */
NOINLINE double polynomial(double x, double y)
{
    double a = x * y + 1.0, b = a * x - y, c = b * b + a, d = c * x - b * y;
    double e = d * d - c, f = e * a + d, g = f * b - e * c, h = g * g + f;
    return a + b + c + d + e + f + g + h;
}

/* As small as an accessor, but they call MPI: kept, so every message stays
 * attributed to the function that sent it. */
NOINLINE void send_one(double x, int to)
{
    MPI_Send(&x, 1, MPI_DOUBLE, to, 7, MPI_COMM_WORLD);
}

NOINLINE double receive_one(int from)
{
    double x;
    MPI_Recv(&x, 1, MPI_DOUBLE, from, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return x;
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    Grid grid(100);
    double total = 0.0;
    for (int round = 0; round < 3; round++) {
        double s = sum_grid(grid);
        if (rank == 0 && size > 1)
            send_one(s, 1);
        else if (rank == 1)
            total += receive_one(0);
    }
    for (int k = 0; k < 5; k++)
        total += polynomial(k, 0.5);
    /* One rank prints: the ranks' lines would interleave in any order. */
    if (rank == 0)
        std::printf("%.3f\n", total);
    MPI_Finalize();
    return 0;
}
