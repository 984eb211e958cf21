/* The compile-time exclude list the outputs suggest for throttled functions
 * (src/output/throttle.c): names as GCC's
 * -finstrument-functions-exclude-function-list matches them, from the
 * names the profile shows for C, C++ and Fortran. */
#include <stdlib.h>

#include "check.h"
#include "output/output.h"

static char *list_of(const char *const *names, const bool *throttled, size_t n)
{
    struct ht_function functions[16];
    struct ht_stack stacks[16];
    for (size_t i = 0; i < n; i++) {
        functions[i] = (struct ht_function){.name = names[i], .kept = true};
        stacks[i] = (struct ht_stack){.id = (int)i, .parent = -1, .depth = 1,
                                      .function = &functions[i], .throttled = throttled[i]};
    }
    struct ht_profile p = {.nthreads = 1, .nstacks = n, .stacks = stacks};
    return ht_output_throttle_exclude_list(&p);
}

int main(void)
{
    const char *names[] = {
        "tiny",                                        /* C */
        "Domain::x(int)",                              /* C++ member: qualified, no parameters */
        "Domain::e_cut() const",
        "std::vector<double, std::allocator<double> >::operator[](unsigned long)", /* a comma: unqualified */
        "__gnu_cxx::__enable_if<std::__is_scalar<int>::__value, void>::__type std::__fill_a1<int*, int>(int*, int*, int const&)",
        "Domain::operator()(int, int)",                /* commas only in the parameters */
        "solver::smooth",                              /* Fortran module procedure */
        "kernel(double*)",                             /* not throttled */
        "tiny",                                        /* the same function on another stack */
    };
    const bool throttled[] = {true, true, true, true, true, true, true, false, true};
    char *list = list_of(names, throttled, sizeof names / sizeof names[0]);
    CHECK_STR(list, "Domain::e_cut,Domain::operator(),Domain::x,__fill_a1,operator[],smooth,tiny");
    free(list);

    const bool none[] = {false, false};
    CHECK(list_of(names, none, 2) == NULL);
    return CHECK_DONE();
}
