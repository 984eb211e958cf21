// Functions excluded by the config (test/integration/filter.py): a tiny
// helper called many times, a C++ member found by its mangled name, a
// helper a filter file keeps, and their caller.  Prints a checksum, so
// that the run's output can be compared with the plain build's.
#include <cstdio>
#include <cstdlib>

extern "C" __attribute__((noinline)) unsigned long tiny_helper(unsigned long i)
{
    return i * 3 + 1;
}

extern "C" __attribute__((noinline)) unsigned long keep_helper(unsigned long i)
{
    return i ^ 5;
}

namespace geo {
struct Shape {
    __attribute__((noinline)) static unsigned long area(unsigned long i) { return i * i; }
};
} // namespace geo

extern "C" __attribute__((noinline)) unsigned long sweep(unsigned long n)
{
    unsigned long s = 0;
    for (unsigned long i = 0; i < n; i++)
        s += tiny_helper(i) + geo::Shape::area(i & 1023);
    for (unsigned long i = 0; i < 10; i++)
        s += keep_helper(i);
    return s;
}

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 200000;
    unsigned long total = 0;
    for (int step = 0; step < 3; step++)
        total += sweep(n);
    std::printf("checksum %lu\n", total);
    return 0;
}
