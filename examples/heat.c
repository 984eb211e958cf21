/* Example: explicit 2-D heat diffusion on a small grid, with a few functions
 * at different depths and one helper thread, so the profile has something to
 * show.  Build it like any program you want to profile:
 *
 *   cc -g -O2 -finstrument-functions -pthread heat.c -o heat \
 *      $(pkg-config --cflags --libs hooktrace)
 *   ./heat            # writes heat.log, heat.json, heat.folded
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 192
#define STEPS 400

static double grid[N][N], next[N][N];

__attribute__((noinline)) static void set_boundary(void)
{
    for (int i = 0; i < N; i++) {
        grid[0][i] = grid[i][0] = 100.0;
        grid[N - 1][i] = grid[i][N - 1] = 0.0;
    }
}

__attribute__((noinline)) static void stencil_row(int i)
{
    for (int j = 1; j < N - 1; j++)
        next[i][j] = 0.25 * (grid[i - 1][j] + grid[i + 1][j] + grid[i][j - 1] + grid[i][j + 1]);
}

__attribute__((noinline)) static double swap_and_residual(void)
{
    double r = 0.0;
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++) {
            r += fabs(next[i][j] - grid[i][j]);
            grid[i][j] = next[i][j];
        }
    return r;
}

__attribute__((noinline)) static double step(void)
{
    for (int i = 1; i < N - 1; i++)
        stencil_row(i);
    return swap_and_residual();
}

/* A helper thread that checksums a copy of the initial grid meanwhile. */
__attribute__((noinline)) static double checksum(const double *v, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i] * (double)(i % 7);
    return s;
}

__attribute__((noinline)) static void *background(void *arg)
{
    double *copy = arg, s = 0.0;
    for (int k = 0; k < 200; k++)
        s += checksum(copy, N * N);
    copy[0] = s;
    return NULL;
}

int main(void)
{
    set_boundary();
    double *copy = malloc(sizeof grid);
    for (int i = 0; i < N * N; i++)
        copy[i] = ((double *)grid)[i];
    pthread_t helper;
    pthread_create(&helper, NULL, background, copy);

    double residual = 0.0;
    for (int s = 0; s < STEPS; s++)
        residual = step();
    pthread_join(helper, NULL);
    printf("heat: %d steps, residual %.6e, checksum %.1f\n", STEPS, residual, copy[0]);
    free(copy);
    return 0;
}
