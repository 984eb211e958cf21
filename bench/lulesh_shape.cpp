/* test/plugin/lulesh_shape.cpp at benchmark size, for bench/asbuilt_cost.py
 * (make bench-asbuilt): a LULESH-shaped MPI + OpenMP program with static
 * drivers called once per step (LeapFrog > LagrangeNodal, LagrangeElements,
 * TimeConstraint), static kernels that are `#pragma omp parallel for` loops
 * calling 10-15-statement inline helpers, a halo send called twice per step
 * and an Allreduce per step.  Nothing is forced in or out of line: GCC
 * inlines the drivers and kernels (static, called once) and the helpers as
 * it likes, and the profile of a hooktrace build must show the program as
 * written (docs/plugin.md, "Inlined copies").
 *
 * The same functions and call structure as the test's program; what
 * differs: the number of elements and steps are options (the arrays are
 * allocated), and it prints the timing and the checksum bench/benchlib.py
 * reads.  Runs with any number of ranks (a ring; 1 rank sends to itself).
 *
 * Usage: lulesh_shape [-n ELEMENTS] [-i STEPS]   (default -n 1000000 -i 100)
 * Output (rank 0): "lulesh_shape: ... elapsed_s=S" (the step loop, between
 * barriers), then "checksum=...", the same for every build at a given
 * number of ranks and threads. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#ifdef _OPENMP
#include <omp.h>
#endif

enum { HALO = 64 };

static int nelem;
static double *x, *v, *e, *f, *q;
static double send_buf[HALO], recv_buf[HALO];
static int rank, size;

/* The helpers: straight-line code called per element. */
static inline double stress_term(int i, double dt)
{
    double a = x[i] * dt + v[i], b = a * a - e[i], c = b * 0.5 + a;
    double d = c * c - b * 0.25, g = d * 0.25 + c;
    if (g > 1e6)
        g = 1e6;
    if (g < -1e6)
        g = -1e6;
    double h = g * 0.125 + a;
    return h * 1e-3 - d * 1e-6;
}

static inline void advance_node(int i, double dt)
{
    double nv = v[i] + f[i] * dt, nx = x[i] + nv * dt;
    double ne = e[i] + 0.5 * nv * nv * dt;
    if (ne < 0.0)
        ne = 0.0;
    if (nx > 10.0)
        nx = 10.0;
    v[i] = nv * 0.999;
    x[i] = nx;
    e[i] = ne * 0.999;
}

static inline double viscosity(int i)
{
    double dv = v[i] - (i > 0 ? v[i - 1] : 0.0), qq = dv * dv * 0.5;
    if (dv > 0.0)
        qq = 0.0;
    double lim = e[i] * 0.01;
    if (qq > lim)
        qq = lim;
    return qq + 1e-9 * x[i];
}

static inline double energy_of(int i)
{
    double k = 0.5 * v[i] * v[i], p = e[i] * 0.4 + q[i];
    if (p < 0.0)
        p = 0.0;
    double w = k + p * 1e-3;
    return w > 1e6 ? 1e6 : w;
}

/* The kernels. */
static void CalcForce(double dt)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < nelem; i++)
        f[i] = stress_term(i, dt);
}

static void CalcVelocity(double dt)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < nelem; i++)
        advance_node(i, dt);
}

static void CalcKinematics()
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < nelem; i++)
        q[i] = viscosity(i);
}

static double CalcEnergy()
{
    double sum = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
    for (int i = 0; i < nelem; i++)
        sum += energy_of(i);
    return sum;
}

/* The halo: a ring, one message each way per call. */
static void CommSend(int offset)
{
    for (int k = 0; k < HALO; k++)
        send_buf[k] = x[(offset + k) % nelem];
    MPI_Request req[2];
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Irecv(recv_buf, HALO, MPI_DOUBLE, prev, 7, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(send_buf, HALO, MPI_DOUBLE, next, 7, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    for (int k = 0; k < HALO; k++)
        x[k] = 0.5 * (x[k] + recv_buf[k]);
}

/* The drivers. */
static void LagrangeNodal(double dt)
{
    CalcForce(dt);
    CommSend(0);
    CalcVelocity(dt);
    CommSend(HALO);
}

static double LagrangeElements()
{
    CalcKinematics();
    return CalcEnergy() + CalcEnergy();
}

static double TimeConstraint(double energy)
{
    double local = energy, global = 0.0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return global;
}

static double LeapFrog(double dt)
{
    LagrangeNodal(dt);
    return TimeConstraint(LagrangeElements());
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int steps = 100;
    nelem = 1000000;
    for (int i = 1; i < argc; ++i) {
        if (i + 1 < argc && !std::strcmp(argv[i], "-n"))
            nelem = std::atoi(argv[++i]);
        else if (i + 1 < argc && !std::strcmp(argv[i], "-i"))
            steps = std::atoi(argv[++i]);
        else
            nelem = -1;
    }
    if (nelem < HALO * 2 || steps < 1) {
        if (rank == 0)
            std::fprintf(stderr, "usage: %s [-n ELEMENTS (>= %d)] [-i STEPS]\n", argv[0], HALO * 2);
        MPI_Finalize();
        return 2;
    }
    double *fields[] = {0, 0, 0, 0, 0};
    for (double *&p : fields)
        p = static_cast<double *>(std::calloc(nelem, sizeof(double)));
    x = fields[0], v = fields[1], e = fields[2], f = fields[3], q = fields[4];
    for (int i = 0; i < nelem; i++) {
        x[i] = 1e-4 * (i % 10000) + rank;
        v[i] = 0.1;
        e[i] = 1.0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    double energy = 0.0;
    for (int s = 0; s < steps; s++)
        energy = LeapFrog(1e-3);
    MPI_Barrier(MPI_COMM_WORLD);
    const double elapsed = MPI_Wtime() - t0;
    double xsum = 0.0;
    for (int i = 0; i < nelem; i++)
        xsum += x[i];
    double total = 0.0;
    MPI_Reduce(&xsum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
#ifdef _OPENMP
        const int threads = omp_get_max_threads();
#else
        const int threads = 1;
#endif
        std::printf("lulesh_shape: ranks=%d threads=%d elements=%d steps=%d elapsed_s=%.3f\n", size,
                    threads, nelem, steps, elapsed);
        // 12 digits: an OpenMP reduction's partial sums may meet in any order.
        std::printf("checksum=%.12g %.12g\n", energy, total);
    }
    for (double *p : fields)
        std::free(p);
    MPI_Finalize();
    return 0;
}
