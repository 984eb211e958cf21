/* C fixture for the symbols unit tests (compiled into the test program). */
#include "symbols_fixture.h"
#include "symbols_fixture_inc.h"

volatile int symfix_sink;

/* Distinct bodies, so that identical-code folding cannot merge them.  The
 * name is on a line of its own: the expected line is the declarator's
 * (DW_AT_decl_line), not the "{" the line table starts the function at. */
const unsigned symfix_static_line = __LINE__ + 2;
static void
symfix_static_helper(int x)
{
    symfix_sink = x + 11;
}

uintptr_t symfix_static_address(void)
{
    return (uintptr_t)&symfix_static_helper;
}

uintptr_t symfix_header_address(void)
{
    return (uintptr_t)&symfix_header_function;
}

const unsigned symfix_header_function_line = symfix_header_line;

/* Looks like gfortran's name for "bar", but this is C: it stays "bar_". */
const unsigned symfix_bar_line = __LINE__ + 1;
void bar_(void)
{
    symfix_sink = 22;
}

void symfix_mangled(int x)
{
    symfix_sink = x + 33;
}
