/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GCC plugin's rules on C++ as written (test/plugin/containers.py):
 * tiny functions whose only calls go to constructors and destructors the
 * plugin left out, whichever variant the call names (C1 complete object,
 * an alias of the C2 body), and libstdc++'s begin(), end(), back(),
 * iterator operator- and std::pair's converting constructor.  Every
 * function that keeps its hooks has a loop, so its calls are exact. */
#include <map>
#include <utility>
#include <vector>

#define NOINLINE __attribute__((noinline))

struct H {
    int v;
};

struct It {
    H *p;
    explicit It(H *q) : p(q) {}
    int get() const { return p->v; }
};

struct Box {
    H h;
    It end() { return It(&h); }
};

struct W {
    int w;
    W(int x) : w(x) {}
    ~W() {}
};

struct W2 {
    W w;
    W2(int x) : w(x) {}
};

/* Opaque to the optimiser so that nothing is folded away. */
volatile int sink;

NOINLINE int own_types(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        Box b;
        b.h.v = i;
        W2 w(i);
        s += b.end().get() + w.w.w;
    }
    return s;
}

NOINLINE long walk_map(const std::map<int, int> &m)
{
    long s = 0;
    for (std::map<int, int>::const_iterator it = m.begin(); it != m.end(); ++it)
        s += it->second;
    return s;
}

NOINLINE double backs(std::vector<std::vector<double>> &rows)
{
    double s = 0;
    for (std::vector<double> &row : rows)
        s += row.back() + (double)(row.end() - row.begin());
    return s;
}

NOINLINE double pairs(std::vector<std::pair<long, double>> &out, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) {
        out[i] = std::pair<long, double>(i, 0.5 * i); /* pair(_U1&&, _U2&&) */
        s += out[i].second;
    }
    return s;
}

int main()
{
    const int rounds = 3, n = 10;
    std::map<int, int> m;
    std::vector<std::vector<double>> rows(n, std::vector<double>(4, 1.0));
    std::vector<std::pair<long, double>> out(n);
    for (int i = 0; i < n; i++)
        m[i] = i;
    long s = 0;
    for (int r = 0; r < rounds; r++)
        s += own_types(n) + walk_map(m) + (long)backs(rows) + (long)pairs(out, n);
    sink = (int)s;
    return 0;
}
