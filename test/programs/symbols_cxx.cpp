// C++ fixture for the symbols unit tests: a member function in a namespace
// and a function template instance, whose names must come out demangled.
#include "symbols_fixture.h"

#include <cstddef>
#include <cstring>

namespace ns {

class Widget {
public:
    void resize(int w, double h);

private:
    int size_ = 0;
};

extern "C" const unsigned symcxx_twice_line = __LINE__ + 2;
template <typename T>
T twice(T x)
{
    return x + x;
}

} // namespace ns

extern "C" const unsigned symcxx_resize_line = __LINE__ + 1;
void ns::Widget::resize(int w, double h)
{
    size_ = w + static_cast<int>(h);
}

extern "C" uintptr_t symcxx_resize_address(void)
{
    // Itanium C++ ABI: a pointer to a non-virtual member function is the
    // function's address followed by a this-adjustment.
    void (ns::Widget::*pmf)(int, double) = &ns::Widget::resize;
    struct {
        uintptr_t ptr;
        std::ptrdiff_t adj;
    } raw;
    static_assert(sizeof raw == sizeof pmf, "Itanium member function pointer");
    std::memcpy(&raw, &pmf, sizeof raw);
    return raw.ptr;
}

extern "C" uintptr_t symcxx_twice_address(void)
{
    return reinterpret_cast<uintptr_t>(&ns::twice<int>);
}
