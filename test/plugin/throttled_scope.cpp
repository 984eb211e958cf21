// A counted leaf copy inside a kept copy that gets throttled
// (test/plugin/throttled_scope.py): scan() has a loop, so its copy
// inlined into sweep() keeps its hooks; half_add() is straight-line leaf
// code, so its copies inside scan's are counted and handed over before
// scan's exit hook.  Once scan is throttled, those counts stop with it.
#include <cstdio>
#include <cstdlib>

// More than the plugin's tiny limit (8 statements), so not left out
// before inlining, and straight-line: a leaf copy wherever it is inlined.
static inline __attribute__((always_inline)) double half_add(double a, double b)
{
    double h = a * 0.5;
    double q = h * 0.25;
    double r = h - q;
    double s = r + q;
    double t = s * 2.0;
    double u = t * 0.5;
    double w = u + b;
    double x = w - b;
    double y = x + b;
    return y;
}

static inline __attribute__((always_inline)) double scan(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s = half_add(s, v[i]);
    return s;
}

__attribute__((noinline)) double sweep(const double *v, int n, int reps)
{
    double t = 0;
    for (int r = 0; r < reps; r++)
        t += scan(v, n) * 1e-3;
    return t;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 8;
    int reps = argc > 2 ? std::atoi(argv[2]) : 1000;
    double *v = new double[n > 0 ? n : 1];
    for (int i = 0; i < n; i++)
        v[i] = 1.0 + i;
    std::printf("throttled_scope: %.6f\n", sweep(v, n, reps));
    delete[] v;
    return 0;
}
