/* The extent of a function's machine code, from the unwind tables. */
#ifndef HT_THROTTLE_CODE_RANGE_H
#define HT_THROTTLE_CODE_RANGE_H

#include <stdbool.h>
#include <stdint.h>

/* [start, end) of the code of the function containing address, as its
 * FDE gives it.  False if unknown.  Async-signal-safe. */
bool ht_code_range(uintptr_t address, uintptr_t *start, uintptr_t *end);

#endif
