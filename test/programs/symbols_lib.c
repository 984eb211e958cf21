/* Built as libsymfixture.so: functions in a shared object with DWARF. */
#include "symbols_fixture.h"

/* Declarator on its own line, so that the DWARF declaration line and the
 * line table's first row differ.  Several functions of one shape make gcc
 * store their decl_file as DW_FORM_implicit_const, which this libdwarf's
 * dwarf_formudata rejects. */
const unsigned symlib_function_line = __LINE__ + 2;
int
symlib_function(int x)
{
    return 3 * x + 1;
}

const unsigned symlib_other_line = __LINE__ + 2;
int
symlib_other(int x)
{
    return 5 * x + 2;
}

int
symlib_third(int x)
{
    return 7 * x + 3;
}
