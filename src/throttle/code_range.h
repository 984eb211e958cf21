/* The extent of a function's machine code, from the unwind tables. */
#ifndef HT_THROTTLE_CODE_RANGE_H
#define HT_THROTTLE_CODE_RANGE_H

#include <stdbool.h>
#include <stdint.h>

/* [start, end) of the code of the function containing address, as its
 * FDE gives it.  False if unknown.  Async-signal-safe. */
bool ht_code_range(uintptr_t address, uintptr_t *start, uintptr_t *end);

/* The same, and whether the function has an LSDA (exception landing
 * pads, entered by the unwinder rather than by any jump). */
bool ht_code_range_lsda(uintptr_t address, uintptr_t *start, uintptr_t *end, bool *has_lsda);

#endif
