// Built by test/integration/clang.py with hooktrace-clang++ -O2: inline
// member functions and small templates clang inlines lose their hooks; the
// virtual calls and the out-of-line members keep theirs with exact counts.
#include <cstdio>

namespace geo {

class Shape {
  public:
    explicit Shape(double scale) : scale_(scale) {}
    virtual ~Shape() {}
    double scale() const { return scale_; } // inlined
    virtual double area() const = 0;

  private:
    double scale_;
};

class Square : public Shape {
  public:
    explicit Square(double side) : Shape(side) {}
    __attribute__((noinline)) double area() const override { return scale() * scale(); }
};

class Circle : public Shape {
  public:
    explicit Circle(double r) : Shape(r) {}
    __attribute__((noinline)) double area() const override { return 3.0 * scale() * scale(); }
};

template <typename T> T clamp_sum(T a, T b) // inlined
{
    T s = a + b;
    return s < 0 ? 0 : s;
}

// 4 calls, each 10 virtual area() calls over a mix of shapes.
__attribute__((noinline)) double total_area(Shape *const *shapes, int n)
{
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum = clamp_sum(sum, shapes[i]->area());
    return sum;
}

} // namespace geo

int main()
{
    geo::Square s1(1), s2(2), s3(3), s4(4);
    geo::Circle c1(1), c2(2), c3(3), c4(4), c5(5), c6(6);
    geo::Shape *shapes[10] = {&s1, &c1, &s2, &c2, &s3, &c3, &s4, &c4, &c5, &c6};
    double total = 0;
    for (int k = 0; k < 4; k++)
        total += geo::total_area(shapes, 10);
    std::printf("clang_inline_cxx: %.0f\n", total);
    return 0;
}
