// C++ names longer than the logfile's name columns: template functions
// whose demangled names start with a long return type, a class template's
// member whose qualified name alone is too long, and an operator.
// test/integration/log_names.py checks the columns exactly.
#include <cstdio>

namespace numerics {
template <typename T> struct TypeTraits {
    typedef T Scalar;
};
template <typename T, int N> struct Matrix {
    T v[N * N];
};

namespace detail {
template <typename M> struct DiagonalAccumulatorForSquareMatrices {
    __attribute__((noinline)) static double accumulate_entries_of_the_diagonal(const M &m);
};
template <typename M>
double DiagonalAccumulatorForSquareMatrices<M>::accumulate_entries_of_the_diagonal(const M &m)
{
    double t = 0;
    for (int i = 0; i < 4; i++)
        t += m.v[i * 4 + i];
    return t;
}
} // namespace detail

template <typename T, int N>
__attribute__((noinline)) typename TypeTraits<T>::Scalar
normalised_trace_of_matrix(const Matrix<T, N> &m)
{
    return detail::DiagonalAccumulatorForSquareMatrices<Matrix<T, N> >::
               accumulate_entries_of_the_diagonal(m) / N;
}

struct Accumulated {
    double value;
    __attribute__((noinline)) Accumulated operator+(const Matrix<double, 4> &m) const
    {
        return Accumulated{value + normalised_trace_of_matrix(m)};
    }
};
} // namespace numerics

int main()
{
    numerics::Matrix<double, 4> m;
    for (int i = 0; i < 16; i++)
        m.v[i] = i;
    numerics::Accumulated a{0.0};
    for (int i = 0; i < 3; i++)
        a = a + m;
    std::printf("cxx_long_names: %.3f\n", a.value);
    return 0;
}
