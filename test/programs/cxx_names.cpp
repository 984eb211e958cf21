// C++ names: namespaces, classes, overloads and templates, demangled.
#include <cstdio>
#include <vector>

namespace geometry {
class Grid {
public:
    explicit Grid(int n) : cells(n, 0.0) {}
    __attribute__((noinline)) void relax(int sweeps);
    __attribute__((noinline)) double sum() const;
private:
    std::vector<double> cells;
};

void Grid::relax(int sweeps)
{
    for (int s = 0; s < sweeps; s++)
        for (auto &c : cells)
            c = c * 0.5 + 1.0;
}

double Grid::sum() const
{
    double t = 0;
    for (double c : cells)
        t += c;
    return t;
}
} // namespace geometry

template <typename T> __attribute__((noinline)) T twice(T x) { return x + x; }

int main()
{
    geometry::Grid g(8);
    for (int i = 0; i < 5; i++)
        g.relax(2);
    double s = g.sum() + twice(1.5) + twice(2) + twice(3);
    std::printf("cxx_names: %.3f\n", s);
    return 0;
}
