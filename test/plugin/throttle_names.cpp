/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Throttled C++ functions whose names defeat GCC's
 * -finstrument-functions-exclude-function-list (test/plugin/exclude.py):
 * template arguments with a comma in them, and names that are parts of
 * other functions' names (end in append, ns::get_id in ns::get_ids).  The
 * hot ones are throttled; their look-alikes are called a few times and
 * must keep every call. */
#include <cstdio>

#define NOINLINE __attribute__((noinline))

volatile long sink;

namespace ns {
template <typename A, typename B> struct Pair {
    A a;
    B b;
    NOINLINE A first() const { return a + (A)b; }
};

NOINLINE int get_id(int x) { return x + 1; }
NOINLINE int get_ids(int x) { return x + 2; }
} // namespace ns

template <typename T, typename U> NOINLINE T end(T x, U y) { return x + (T)y; }
NOINLINE int append(int x) { return x * 3; }

NOINLINE long hot(int n)
{
    ns::Pair<int, double> p = {1, 2.0};
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p.first() + ns::get_id(i) + end<int, long>(i, 2L);
    return s;
}

NOINLINE long cold(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += ns::get_ids(i) + append(i);
    return s;
}

int main()
{
    sink = hot(5000) + cold(10);
    std::printf("%ld\n", (long)sink);
    return 0;
}
