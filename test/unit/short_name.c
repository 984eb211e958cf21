/* Names cut for the logfile's columns (src/output/short_name.c): each step
 * in turn, and the names whose brackets are not template arguments. */
#include <stdlib.h>

#include "output/output.h"
#include "check.h"

static const char *cut(const char *name, size_t max)
{
    static char buf[128];
    return ht_output_short_name(name, max, buf, sizeof buf);
}

int main(void)
{
    /* Fits: as it is, whatever it holds. */
    CHECK_STR(cut("double twice<double>(double)", 60), "double twice<double>(double)");
    CHECK_STR(cut("main", 8), "main");
    /* Step 1: return type and parameters. */
    CHECK_STR(cut("ns::TypeTraits<double>::Scalar ns::compute<double, 4>"
                  "(ns::Matrix<double, 4> const&)", 40),
              "ns::compute<double, 4>");
    CHECK_STR(cut("unsigned long long ns::Grid::cells_in_the_whole_grid(int, int) const", 40),
              "ns::Grid::cells_in_the_whole_grid");
    CHECK_STR(cut("(anonymous namespace)::helper_with_a_rather_long_name(int, double)", 55),
              "(anonymous namespace)::helper_with_a_rather_long_name");
    CHECK_STR(cut("ns::Accumulated::operator()(ns::Matrix<double, 4> const&) const", 40),
              "ns::Accumulated::operator()");
    CHECK_STR(cut("bool ns::Key::operator<(ns::Key const&, ns::Key const&) const", 30),
              "ns::Key::operator<");
    CHECK_STR(cut("ns::Pool::operator new(unsigned long, ns::Arena&, int)", 30),
              "ns::Pool::operator new");
    CHECK_STR(cut("ns::Wrapper<int>::operator std::vector<int, std::allocator<int> >() const", 70),
              "ns::Wrapper<int>::operator std::vector<int, std::allocator<int> >");
    CHECK_STR(cut("main::{lambda(int, double)#1}::operator()(int, double) const", 45),
              "main::{lambda(int, double)#1}::operator()");
    /* Step 2: template arguments elided. */
    CHECK_STR(cut("std::vector<double, std::allocator<double> >::_M_realloc_insert<double const&>"
                  "(__gnu_cxx::__normal_iterator<double*, std::vector<double> >, double const&)",
                  40),
              "std::vector<...>::_M_realloc_insert<...>");
    /* Step 3: the tail from a "::", then the name's own tail. */
    CHECK_STR(cut("numerics::detail::DiagonalAccumulatorForSquareMatrices"
                  "<numerics::Matrix<double, 4> >::accumulate_entries_of_the_diagonal"
                  "(numerics::Matrix<double, 4> const&)", 60),
              "...::accumulate_entries_of_the_diagonal");
    CHECK_STR(cut("outer::middle::inner::function", 20), "...::inner::function");
    CHECK_STR(cut("a_c_function_name_that_is_far_too_long_for_any_column", 20),
              "...ng_for_any_column");
    CHECK_STR(cut("ns::accumulate", 11), "...cumulate");
    /* At most max characters, always. */
    CHECK_EQ_U64(strlen(cut("outer::middle::inner::function", 11)), 11);
    /* A name longer than the scratch space: its tail, as it is. */
    char *huge = malloc(5000);
    CHECK(huge != NULL);
    if (huge) {
        memset(huge, 'x', 4990);
        memcpy(huge, "ns::f<", 6);
        strcpy(huge + 4990, ">::last()");
        CHECK_STR(cut(huge, 30), "ns::f<...>::last");
        memcpy(huge, "ns::ff", 6); /* no template: 4,990 characters stay */
        strcpy(huge + 4990, "y::last()");
        CHECK_STR(cut(huge, 30), "...::last");
        CHECK_STR(cut(huge, 11), "...::last");
        free(huge);
    }
    return CHECK_DONE();
}
