/* The plugin's second rule, instrumenting after inlining
 * (test/plugin/after_inlining.py, docs/plugin.md), on a program of the
 * shape it is for: element loops whose bodies call medium-size helpers
 * (more statements than the first rule's limit, no loop) that GCC inlines,
 * a kernel with a loop inlined into its driver, an exception thrown through
 * an inlined copy, a helper with a loop of 4 trips, and MPI calls in
 * out-of-line functions.  What is inlined
 * and what is not is fixed by attributes, so that it is the same at -O1,
 * -O2, -O3, under -flto and with -fopenmp.  Every helper is inlined at one
 * site. */
/* The C API only: Open MPI's and MPICH's old C++ bindings need a library of
 * their own. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <cstdio>
#include <stdexcept>

#define NOINLINE __attribute__((noinline, noclone))
#define ALWAYS_INLINE inline __attribute__((always_inline))

enum { ELEMENTS = 64, STEPS = 5 };

struct Element {
    double x, v, e, p;
};

/* Medium, no loop: inlined into the element loop. */
static ALWAYS_INLINE double stress(const Element& el, double dt)
{
    double a = el.x * dt + el.v, b = a * a - el.e, c = b * 0.5 + a;
    double d = c * c - b * el.p, f = d * 0.25 + c, g = f * a - d;
    if (g > 1e6)
        g = 1e6;
    if (g < -1e6)
        g = -1e6;
    double h = g * 0.125 + f, k = h - a * 0.5;
    return k * 1e-3;
}

static ALWAYS_INLINE void advance(Element& el, double force, double dt)
{
    double v = el.v + force * dt, x = el.x + v * dt;
    double e = el.e + 0.5 * v * v * dt, p = e * 0.4;
    if (p < 0.0)
        p = 0.0;
    if (x > 10.0)
        x = 10.0;
    el.v = v * 0.999;
    el.x = x;
    el.e = e * 0.999;
    el.p = p;
}

/* A loop of a few trips known at compile time: a helper, not a kernel. */
static ALWAYS_INLINE double corner_sum(const Element& el)
{
    const double w[4] = {el.x, el.v, el.e, el.p};
    double s = 0.0;
    for (int r = 0; r < 4; r++)
        s += w[r] * (r + 1);
    return s;
}

/* A kernel with a loop, inlined into its driver. */
static ALWAYS_INLINE double energy_kernel(const Element* el, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += el[i].e + el[i].p;
    return s;
}

/* Medium, no loop, throws: inlined into the function that catches. */
static ALWAYS_INLINE int checked_index(int i, int n)
{
    int j = i * 3 + 1, k = j % n, m = k * 2 - 1;
    if (m < 0)
        m = 0;
    if (i >= n)
        throw std::out_of_range("element index");
    int r = m + k - j % 7;
    r = r < 0 ? -r : r;
    return r % n;
}

/* Out of line, each with its hooks. */
NOINLINE void update_elements(Element* el, int n, double dt)
{
#ifdef _OPENMP
#pragma omp parallel for
#endif
    for (int i = 0; i < n; i++)
        advance(el[i], stress(el[i], dt) + 1e-6 * corner_sum(el[i]), dt);
}

NOINLINE double total_energy(const Element* el, int n)
{
    double local = energy_kernel(el, n), global = 0.0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return global;
}

NOINLINE void exchange(Element* el, int n, int rank, int size)
{
    int peer = (rank + 1) % size;
    double out = el[n - 1].x, in = 0.0;
    MPI_Sendrecv(&out, 1, MPI_DOUBLE, peer, 3, &in, 1, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    el[0].x = 0.5 * (el[0].x + in);
}

NOINLINE int lookup(int i, int n)
{
    try {
        return checked_index(i, n);
    } catch (const std::out_of_range&) {
        return -1;
    }
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    static Element el[ELEMENTS];
    for (int i = 0; i < ELEMENTS; i++)
        el[i] = Element{0.01 * i + rank, 0.1, 1.0, 0.4};
    double e = 0.0;
    long found = 0;
    for (int step = 0; step < STEPS; step++) {
        update_elements(el, ELEMENTS, 0.01);
        exchange(el, ELEMENTS, rank, size);
        e = total_energy(el, ELEMENTS);
        /* The last lookup throws through the inlined copy. */
        found += lookup(step == STEPS - 1 ? ELEMENTS : step, ELEMENTS);
    }
    if (rank == 0)
        std::printf("%.6f %ld\n", e, found);
    MPI_Finalize();
    return 0;
}
