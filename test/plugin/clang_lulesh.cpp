/* A LULESH-shaped program for hooktrace's LLVM plugin
 * (test/plugin/clang_lulesh.py, docs/clang.md): static drivers
 * called once a step (main > LeapFrog > LagrangeNodal > CalcForceForNodes
 * > CalcVolumeForceForElems, ...), static kernels that are OpenMP loops over
 * the elements, and the inline helpers those loops call per element:
 *   - leaf helpers of 10-15 statements (HourglassForce, ElemVolume,
 *     EnergyTerm) and one with a loop over the 8 nodes that clang unrolls
 *     (SumNodes): straight-line leaf code once inlined, so counted;
 *   - SmoothQ, with a loop over a number of neighbours known only at run
 *     time, and PressureCheck, which calls a function kept out of line
 *     (ReportNegative): their copies keep their hooks;
 *   - Neighbours, a one-line accessor: tiny, left out altogether.
 * CalcEnergyForElems runs twice a step.  argv: elements, steps.  Prints
 * checksums that do not depend on the number of threads (each element is
 * written by the one thread that owns it; the sums are serial).
 *
 * Built with -DCLANG_LULESH_MPI (test/plugin/clang_lulesh_mpi.py), each
 * step also exchanges a halo value with the neighbouring ranks, as
 * LULESH's CommRecv, CommSend and CommSBN do, and agrees on a time step
 * (TimeIncrement, an MPI_Allreduce): small static functions that clang
 * inlines, whose copies keep their hooks because their MPI calls stay
 * calls, so that each message is on the stack of the function that sent
 * it.  Rank 0 prints. */
#include <cstdio>
#include <cstdlib>
#include <vector>
#ifdef CLANG_LULESH_MPI
#include <mpi.h>
#endif

struct Domain {
    int numElem;
    std::vector<double> x, y, z; /* 8 nodes per element */
    std::vector<double> fx, xd, v, q, e, p;
    int neighbours;
    long negatives;
    int rank, ranks;
    double halo, dt;
#ifdef CLANG_LULESH_MPI
    MPI_Request request;
#endif
};

static inline int Neighbours(const Domain &d)
{
    return d.neighbours;
}

static inline double HourglassForce(const double *x, const double *y, double c)
{
    double h0 = x[0] - x[1] + x[2] - x[3];
    double h1 = x[4] - x[5] + x[6] - x[7];
    double h2 = y[0] + y[1] - y[2] - y[3];
    double h3 = y[4] + y[5] - y[6] - y[7];
    double g0 = h0 * h2 - h1 * h3;
    double g1 = h0 * h3 + h1 * h2;
    double g2 = g0 * c + g1 * (1.0 - c);
    double g3 = g1 * c - g0 * (1.0 - c);
    double s = g2 * g2 + g3 * g3;
    double t = (h0 + h1) * (h2 - h3);
    return 0.5 * s + 0.25 * t;
}

static inline double SumNodes(const double *x)
{
    static const double w[8] = {1, -1, 1, -1, 1, -1, 1, -1};
    double s = 0;
    for (int k = 0; k < 8; k++)
        s += w[k] * x[k];
    return s;
}

static inline double ElemVolume(const double *x, const double *y, const double *z)
{
    double dx61 = x[6] - x[1], dy61 = y[6] - y[1], dz61 = z[6] - z[1];
    double dx70 = x[7] - x[0], dy70 = y[7] - y[0], dz70 = z[7] - z[0];
    double dx63 = x[6] - x[3], dy63 = y[6] - y[3], dz63 = z[6] - z[3];
    double cx = dy61 * dz70 - dz61 * dy70;
    double cy = dz61 * dx70 - dx61 * dz70;
    double cz = dx61 * dy70 - dy61 * dx70;
    return (dx63 * cx + dy63 * cy + dz63 * cz) / 12.0;
}

static inline double EnergyTerm(double e, double p, double q, double v, double dv)
{
    double work = (p + q) * dv;
    double half = 0.5 * work;
    double en = e - half;
    double c1 = en * v + 1.0;
    double c2 = c1 * c1 * 1e-3;
    double lim = en < 0 ? -en : en;
    double r = lim * 1e-6 + c2;
    return en + r - half * 1e-3;
}

/* A loop over a number of neighbours only known at run time. */
static inline double SmoothQ(const double *v, int i, int n, int count)
{
    double s = 0;
    for (int k = 1; k <= count; k++)
        s += v[(i + k) % n] + v[(i + n - k) % n];
    return s / (2.0 * count);
}

__attribute__((noinline)) static void ReportNegative(long *negatives, double p)
{
    __atomic_fetch_add(negatives, 1, __ATOMIC_RELAXED);
    fprintf(stderr, "clang_lulesh: pressure %g\n", p);
}

/* Calls a function that stays a call. */
static inline double PressureCheck(double p, long *negatives)
{
    if (p < -1e30)
        ReportNegative(negatives, p);
    double r = p * 0.999 + 1e-9;
    return r > 1e30 ? 1e30 : r;
}

static void CalcVolumeForceForElems(Domain &d)
{
#pragma omp parallel for
    for (int i = 0; i < d.numElem; i++) {
        const double *x = &d.x[8 * i], *y = &d.y[8 * i];
        d.fx[i] = HourglassForce(x, y, 0.25) + SumNodes(x);
    }
}

static void CalcForceForNodes(Domain &d)
{
    CalcVolumeForceForElems(d);
}

static void CalcAccelerationForNodes(Domain &d)
{
#pragma omp parallel for
    for (int i = 0; i < d.numElem; i++) {
        d.xd[i] += 1e-3 * d.fx[i];
        for (int k = 0; k < 8; k++)
            d.x[8 * i + k] += 1e-6 * d.xd[i] * (k + 1);
    }
}

#ifdef CLANG_LULESH_MPI
static void CommRecv(Domain &d)
{
    MPI_Irecv(&d.halo, 1, MPI_DOUBLE, (d.rank + d.ranks - 1) % d.ranks, 7, MPI_COMM_WORLD, &d.request);
}

static void CommSend(Domain &d)
{
    MPI_Send(&d.fx[0], 1, MPI_DOUBLE, (d.rank + 1) % d.ranks, 7, MPI_COMM_WORLD);
}

static void CommSBN(Domain &d)
{
    MPI_Wait(&d.request, MPI_STATUS_IGNORE);
    d.xd[0] += 1e-3 * d.halo;
}

static void TimeIncrement(Domain &d)
{
    double mine = 1e-3 + 1e-6 * d.rank, least;
    MPI_Allreduce(&mine, &least, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    d.dt = least;
}
#endif

static void LagrangeNodal(Domain &d)
{
    CalcForceForNodes(d);
#ifdef CLANG_LULESH_MPI
    CommRecv(d);
    CommSend(d);
    CommSBN(d);
#endif
    CalcAccelerationForNodes(d);
}

static void CalcKinematicsForElems(Domain &d)
{
#pragma omp parallel for
    for (int i = 0; i < d.numElem; i++)
        d.v[i] = ElemVolume(&d.x[8 * i], &d.y[8 * i], &d.z[8 * i]);
}

static void CalcLagrangeElements(Domain &d)
{
    CalcKinematicsForElems(d);
}

static void CalcQForElems(Domain &d)
{
#pragma omp parallel for
    for (int i = 0; i < d.numElem; i++)
        d.q[i] = SmoothQ(d.v.data(), i, d.numElem, Neighbours(d));
}

static void CalcEnergyForElems(Domain &d, double dv)
{
#pragma omp parallel for
    for (int i = 0; i < d.numElem; i++) {
        d.e[i] = EnergyTerm(d.e[i], d.p[i], d.q[i], d.v[i], dv);
        d.p[i] = PressureCheck(d.p[i] + 1e-3 * d.e[i], &d.negatives);
    }
}

static void EvalEOSForElems(Domain &d)
{
    CalcEnergyForElems(d, 1e-3);
    CalcEnergyForElems(d, -5e-4);
}

static void LagrangeElements(Domain &d)
{
    CalcLagrangeElements(d);
    CalcQForElems(d);
    EvalEOSForElems(d);
}

static void LeapFrog(Domain &d)
{
#ifdef CLANG_LULESH_MPI
    TimeIncrement(d);
#endif
    LagrangeNodal(d);
    LagrangeElements(d);
}

int main(int argc, char **argv)
{
    Domain d;
    d.rank = 0;
    d.ranks = 1;
    d.halo = 0;
    d.dt = 0;
#ifdef CLANG_LULESH_MPI
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &d.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &d.ranks);
#endif
    d.numElem = argc > 1 ? atoi(argv[1]) : 64;
    int steps = argc > 2 ? atoi(argv[2]) : 5;
    d.neighbours = argc > 3 ? atoi(argv[3]) : 2;
    d.negatives = 0;
    size_t n = (size_t)d.numElem;
    d.x.resize(8 * n);
    d.y.resize(8 * n);
    d.z.resize(8 * n);
    for (size_t j = 0; j < 8 * n; j++) {
        d.x[j] = (double)(j % 8) + 0.01 * (double)(j / 8);
        d.y[j] = (double)((j * 3) % 8) * 0.5;
        d.z[j] = (double)((j * 5) % 8) * 0.25;
    }
    d.fx.assign(n, 0.0);
    d.xd.assign(n, 0.0);
    d.v.assign(n, 0.0);
    d.q.assign(n, 0.0);
    d.e.assign(n, 1.0);
    d.p.assign(n, 0.5);
    for (int s = 0; s < steps; s++)
        LeapFrog(d);
    double sums[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        sums[0] += d.fx[i];
        sums[1] += d.v[i] + d.q[i];
        sums[2] += d.e[i];
        sums[3] += d.p[i] + d.x[8 * i + 3];
    }
    if (d.rank == 0)
        printf("clang_lulesh: %d elements, %d steps: %.12e %.12e %.12e %.12e %ld %.6e\n", d.numElem, steps, sums[0],
               sums[1], sums[2], sums[3], d.negatives, d.dt);
#ifdef CLANG_LULESH_MPI
    MPI_Finalize();
#endif
    return 0;
}
