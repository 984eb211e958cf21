/* A Jacobi halo exchange, the communication shape of most stencil codes, for
 * measuring hooktrace on an MPI program whose hooks run while requests are
 * open (bench/apps_cost.py, make bench-apps).
 *
 * The N x N grid is split over a 2-D Cartesian grid of ranks.  Each
 * iteration posts MPI_Irecv and MPI_Isend of the four halo strips, updates
 * the points that need no halo while the requests are open, waits, then
 * updates the ring of points next to the halo.  Every --allreduce-every
 * iterations the squared residual goes through MPI_Allreduce.
 *
 * The update is written the way such codes often are when nobody looked at
 * the profile: a function per row calling a tiny function per point.  Both
 * are kept out of line (in every build, so the builds differ only in their
 * hooks), so that the instrumented build makes one hook pair per point, most
 * of them while hooktrace has the exchange's requests to poll.
 *
 * Usage: halo [-n N] [-i ITERATIONS] [-r ALLREDUCE_EVERY]  (default 1536 300 10)
 * Output (rank 0): a line of sizes and timings, then "checksum=...", the
 * same for every build on the same number of ranks.
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__clang__)
#define KERNEL_FN __attribute__((noinline))
#else
#define KERNEL_FN __attribute__((noinline, noipa))
#endif

struct block {
    int nr, nc;   /* interior rows and columns of this rank */
    int ld;       /* row length with the two halo columns */
    double *u, *unew;
    double *send_w, *send_e, *recv_w, *recv_e; /* columns are not contiguous */
    int north, south, west, east;
    MPI_Comm comm;
};

#define AT(a, b, i, j) ((a)[(size_t)(i) * (size_t)(b)->ld + (size_t)(j)])

KERNEL_FN double point_update(const double *up, const double *row, const double *down, int j);
KERNEL_FN double stencil_row(struct block *b, int i, int j0, int j1);
KERNEL_FN void pack_columns(struct block *b);
KERNEL_FN void unpack_columns(struct block *b);
KERNEL_FN double jacobi_step(struct block *b);

KERNEL_FN double point_update(const double *up, const double *row, const double *down, int j)
{
    return 0.25 * (up[j] + down[j] + row[j - 1] + row[j + 1]);
}

/* Updates points j0..j1 of row i; returns their squared change. */
KERNEL_FN double stencil_row(struct block *b, int i, int j0, int j1)
{
    const double *up = &AT(b->u, b, i - 1, 0), *row = &AT(b->u, b, i, 0);
    const double *down = &AT(b->u, b, i + 1, 0);
    double *out = &AT(b->unew, b, i, 0), res = 0.0;
    for (int j = j0; j <= j1; j++) {
        out[j] = point_update(up, row, down, j);
        res += (out[j] - row[j]) * (out[j] - row[j]);
    }
    return res;
}

KERNEL_FN void pack_columns(struct block *b)
{
    for (int i = 1; i <= b->nr; i++) {
        b->send_w[i - 1] = AT(b->u, b, i, 1);
        b->send_e[i - 1] = AT(b->u, b, i, b->nc);
    }
}

KERNEL_FN void unpack_columns(struct block *b)
{
    /* A neighbour that is MPI_PROC_NULL received nothing: the halo keeps
     * the fixed boundary value. */
    for (int i = 1; i <= b->nr; i++) {
        if (b->west != MPI_PROC_NULL)
            AT(b->u, b, i, 0) = b->recv_w[i - 1];
        if (b->east != MPI_PROC_NULL)
            AT(b->u, b, i, b->nc + 1) = b->recv_e[i - 1];
    }
}

KERNEL_FN double jacobi_step(struct block *b)
{
    MPI_Request req[8];
    int nr = b->nr, nc = b->nc;
    pack_columns(b);
    MPI_Irecv(&AT(b->u, b, 0, 1), nc, MPI_DOUBLE, b->north, 0, b->comm, &req[0]);
    MPI_Irecv(&AT(b->u, b, nr + 1, 1), nc, MPI_DOUBLE, b->south, 1, b->comm, &req[1]);
    MPI_Irecv(b->recv_w, nr, MPI_DOUBLE, b->west, 2, b->comm, &req[2]);
    MPI_Irecv(b->recv_e, nr, MPI_DOUBLE, b->east, 3, b->comm, &req[3]);
    MPI_Isend(&AT(b->u, b, 1, 1), nc, MPI_DOUBLE, b->north, 1, b->comm, &req[4]);
    MPI_Isend(&AT(b->u, b, nr, 1), nc, MPI_DOUBLE, b->south, 0, b->comm, &req[5]);
    MPI_Isend(b->send_w, nr, MPI_DOUBLE, b->west, 3, b->comm, &req[6]);
    MPI_Isend(b->send_e, nr, MPI_DOUBLE, b->east, 2, b->comm, &req[7]);

    /* The points that need no halo, while the eight requests are open. */
    double res = 0.0;
    for (int i = 2; i < nr; i++)
        res += stencil_row(b, i, 2, nc - 1);

    MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
    unpack_columns(b);
    res += stencil_row(b, 1, 1, nc);
    res += stencil_row(b, nr, 1, nc);
    for (int i = 2; i < nr; i++)
        res += stencil_row(b, i, 1, 1) + stencil_row(b, i, nc, nc);

    double *t = b->u;
    b->u = b->unew;
    b->unew = t;
    return res;
}

/* This rank's share of n points split in parts: first index and count. */
static void split(int n, int parts, int coord, int *first, int *count)
{
    *count = n / parts + (coord < n % parts);
    *first = coord * (n / parts) + (coord < n % parts ? coord : n % parts);
}

int main(int argc, char **argv)
{
    int n = 1536, iterations = 300, every = 10;
    MPI_Init(&argc, &argv);
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int a = 1; a < argc; a++) {
        if (a + 1 < argc && !strcmp(argv[a], "-n"))
            n = atoi(argv[++a]);
        else if (a + 1 < argc && !strcmp(argv[a], "-i"))
            iterations = atoi(argv[++a]);
        else if (a + 1 < argc && !strcmp(argv[a], "-r"))
            every = atoi(argv[++a]);
        else {
            if (rank == 0)
                fprintf(stderr, "usage: %s [-n N] [-i ITERATIONS] [-r ALLREDUCE_EVERY]\n", argv[0]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }

    int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
    struct block b;
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &b.comm);
    MPI_Cart_coords(b.comm, rank, 2, coords);
    MPI_Cart_shift(b.comm, 0, 1, &b.north, &b.south);
    MPI_Cart_shift(b.comm, 1, 1, &b.west, &b.east);
    int row0, col0;
    split(n, dims[0], coords[0], &row0, &b.nr);
    split(n, dims[1], coords[1], &col0, &b.nc);
    if (b.nr < 2 || b.nc < 2 || iterations < 1 || every < 1) {
        if (rank == 0)
            fprintf(stderr, "halo: need at least 2 x 2 points per rank and positive counts\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    b.ld = b.nc + 2;
    size_t points = (size_t)(b.nr + 2) * (size_t)b.ld;
    b.u = calloc(points, sizeof(double));
    b.unew = calloc(points, sizeof(double));
    b.send_w = malloc(4 * (size_t)b.nr * sizeof(double));
    if (!b.u || !b.unew || !b.send_w) {
        fprintf(stderr, "halo: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    b.send_e = b.send_w + b.nr, b.recv_w = b.send_e + b.nr, b.recv_e = b.recv_w + b.nr;
    /* Fixed boundary values around the whole grid, in both arrays' halos:
     * 1 along the top edge, falling linearly to 0 down the sides. */
    for (int i = 0; i < b.nr + 2; i++)
        for (int j = 0; j < b.ld; j++) {
            int gi = row0 + i - 1, gj = col0 + j - 1;
            double v = 0.0;
            if (gi < 0)
                v = 1.0;
            else if (gj < 0 || gj >= n)
                v = 1.0 - (double)gi / n;
            AT(b.u, &b, i, j) = AT(b.unew, &b, i, j) = v;
        }

    double residual = 0.0;
    MPI_Barrier(b.comm);
    double t0 = MPI_Wtime();
    for (int it = 1; it <= iterations; it++) {
        double res = jacobi_step(&b);
        if (it % every == 0 || it == iterations)
            MPI_Allreduce(&res, &residual, 1, MPI_DOUBLE, MPI_SUM, b.comm);
    }
    double elapsed = MPI_Wtime() - t0;

    /* Summed on rank 0 in rank order, so the checksum does not depend on the
     * reduction algorithm the MPI library picks. */
    double sum = 0.0, *sums = rank == 0 ? malloc((size_t)size * sizeof(double)) : NULL;
    for (int i = 1; i <= b.nr; i++)
        for (int j = 1; j <= b.nc; j++)
            sum += AT(b.u, &b, i, j);
    MPI_Gather(&sum, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, 0, b.comm);
    if (rank == 0) {
        double total = 0.0;
        for (int r = 0; r < size; r++)
            total += sums[r];
        printf("halo: n=%d ranks=%d (%d x %d) iterations=%d elapsed_s=%.3f\n", n, size, dims[0],
               dims[1], iterations, elapsed);
        printf("checksum=%.17g residual=%.17g\n", total, residual);
        free(sums);
    }
    free(b.u);
    free(b.unew);
    free(b.send_w);
    MPI_Comm_free(&b.comm);
    /* bench/finalize_cost.py: how long MPI_Finalize takes, every rank
     * entering it together (what hooktrace adds there: its merge and its
     * files). */
    bool time_finalize = getenv("HALO_TIME_FINALIZE") != NULL;
    struct timespec before, after;
    if (time_finalize) {
        MPI_Barrier(MPI_COMM_WORLD);
        clock_gettime(CLOCK_MONOTONIC, &before);
    }
    MPI_Finalize();
    if (time_finalize) {
        clock_gettime(CLOCK_MONOTONIC, &after);
        fprintf(stderr, "finalize_s=%.6f rank=%d\n",
                (double)(after.tv_sec - before.tv_sec) + 1e-9 * (double)(after.tv_nsec - before.tv_nsec), rank);
    }
    return 0;
}
