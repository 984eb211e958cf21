// Counted inlined copies (docs/reading.md, "Concepts"): a 12-statement
// straight-line helper, inlined by GCC into an OpenMP loop and a serial
// loop, which the GCC plugin's default (inlined-hooks=leaf) turns into
// counters: the outputs show it under each caller, marked inlined, with its
// calls (elements x steps) and no time (test/integration/inlined_outputs.py).
// The drivers are noinline and noclone so that their stacks do not depend
// on GCC's choices; the helper is static inline, and GCC inlines it at -O2.
#include <cstdio>
#include <cstdlib>

static const int ELEMENTS = 300;
static double x[ELEMENTS], v[ELEMENTS], f[ELEMENTS];

static inline double stress(int i, double dt)
{
    double a = x[i] * dt + v[i];
    double b = a * a - 0.5;
    double c = b * 0.5 + a;
    double d = c * c - b * 0.25;
    double g = d * 0.25 + c;
    if (g > 1e6)
        g = 1e6;
    if (g < -1e6)
        g = -1e6;
    double h = g * 1e-3 + a * 0.5;
    h = h * 0.999 + b * 1e-6;
    return h;
}

__attribute__((noinline, noclone)) static void forces(double dt)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < ELEMENTS; i++)
        f[i] = stress(i, dt);
}

__attribute__((noinline, noclone)) static void check_forces(double dt)
{
    double s = 0;
    for (int i = 0; i < ELEMENTS; i++)
        s += stress(i, dt);
    if (s != s)
        std::printf("nan\n");
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? std::atoi(argv[1]) : 5;
    for (int i = 0; i < ELEMENTS; i++) {
        x[i] = i * 1e-3;
        v[i] = 0.1;
    }
    for (int s = 0; s < steps; s++) {
        forces(1e-3);
        check_forces(1e-3);
        for (int i = 0; i < ELEMENTS; i++)
            v[i] += f[i] * 1e-3;
    }
    double sum = 0;
    for (int i = 0; i < ELEMENTS; i++)
        sum += v[i];
    std::printf("inlined_counts: %.9g\n", sum);
    return 0;
}
