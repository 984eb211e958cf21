// A medium helper the inliner takes only if it does not see the hooks
// (test/plugin/medium.py, docs/plugin.md): static, not declared inline,
// 16 statements, no loop, called from one hot loop.  A build without hooks
// inlines it at -O2; with the hooks visible to the inliner (two calls and
// two __builtin_return_address values in its size), GCC left it out of
// line, called once per element.  -O2 by a pragma, so that CI's CXXFLAGS
// (-O1 in the sanitizer build) cannot win.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O2")
#define NOINLINE __attribute__((noinline, noclone))
#else
#define NOINLINE __attribute__((noinline))
#endif
#include <cstdio>

enum { ELEMENTS = 64, STEPS = 5 };

struct Element {
    double x, v, e, p;
};

static double medium(const Element& el, double dt)
{
    double a = el.x * dt + el.v, b = a * a - el.e, c = b * 0.5 + a;
    double d = c * c - b * el.p, f = d * 0.25 + c, g = f * a - d;
    if (g > 1e6)
        g = 1e6;
    if (g < -1e6)
        g = -1e6;
    double h = g * 0.125 + f, k = h - a * 0.5;
    double m = k * k - h, q = m * 0.5 + k, r = q * dt - m;
    return r * 1e-3 + k;
}

NOINLINE void update(Element* el, int n, double dt)
{
    for (int i = 0; i < n; i++)
        el[i].v += 1e-3 * medium(el[i], dt);
}

int main()
{
    static Element el[ELEMENTS];
    for (int i = 0; i < ELEMENTS; i++)
        el[i] = Element{0.01 * i, 0.1, 1.0, 0.4};
    for (int s = 0; s < STEPS; s++)
        update(el, ELEMENTS, 0.01);
    std::printf("%.6f\n", el[3].v);
    return 0;
}
