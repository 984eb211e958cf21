/* Built as libsymgone.so.  The symbols test loads a copy of it and deletes
 * the copy before resolving.  No global variables: under AddressSanitizer
 * two copies of one global would be reported as an ODR violation. */
#include "symbols_fixture.h"

int
symgone_function(int x)
{
    return 11 * x + 5;
}
