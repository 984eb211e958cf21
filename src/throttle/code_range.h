/* The extent of a function's machine code, from the unwind tables. */
#ifndef HT_THROTTLE_CODE_RANGE_H
#define HT_THROTTLE_CODE_RANGE_H

#include <stdbool.h>
#include <stdint.h>

/* [start, end) of the code of the function containing address, as its
 * FDE gives it.  False if unknown.  Async-signal-safe. */
bool ht_code_range(uintptr_t address, uintptr_t *start, uintptr_t *end);

/* The same, and the function's LSDA (its exception landing pads, entered
 * by the unwinder rather than by any jump): 0 if it has none.  False also
 * if it has one this reader cannot locate. */
bool ht_code_range_lsda(uintptr_t address, uintptr_t *start, uintptr_t *end, uintptr_t *lsda);

/* Calls each for every landing pad the LSDA lists (GCC's format: the
 * call-site table of the C++ personality routine).  False if it cannot be
 * read. */
bool ht_code_landing_pads(uintptr_t lsda, uintptr_t function_start,
                          void (*each)(uintptr_t pad, void *ctx), void *ctx);

#endif
