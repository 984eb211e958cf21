/* The communication matrix by world rank: one cell per (sender, receiver)
 * pair that exchanged at least one matched message.  Cells are created on
 * demand, so memory follows the pairs that talk, not the square of the
 * number of ranks. */
#ifndef HT_ANALYZE_MATRIX_H
#define HT_ANALYZE_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/hashmap.h"

struct matrix_cell {
    uint32_t sender, receiver;
    uint64_t messages;
    uint64_t bytes;
    /* Messages with a positive duration: the mean bandwidth is
     * timed_bytes / timed_ticks (converted to bytes/s). */
    uint64_t timed_messages;
    uint64_t timed_bytes;
    uint64_t timed_ticks;
};

struct matrix {
    struct hashmap cells; /* (sender, receiver) -> struct matrix_cell* */
};

void matrix_init(struct matrix *m);
void matrix_free(struct matrix *m);

/* One matched message; duration in ticks (receive time - send time). */
/* The cell of (sender, receiver), made if new. */
struct matrix_cell *matrix_cell(struct matrix *m, uint32_t sender, uint32_t receiver);

/* One message of the cell's pair. */
static inline void matrix_cell_add(struct matrix_cell *c, uint64_t bytes, int64_t duration)
{
    c->messages++;
    c->bytes += bytes;
    if (duration > 0) {
        c->timed_messages++;
        c->timed_bytes += bytes;
        c->timed_ticks += (uint64_t)duration;
    }
}

/* The cells sorted by sender, then receiver; *n is set to their number.
 * The array is the caller's to free(); the cells stay the matrix's. */
const struct matrix_cell **matrix_sorted(const struct matrix *m, size_t *n);

/* Mean bandwidth of a cell in bytes/s, or a negative value if no message
 * of the cell had a positive duration. */
double matrix_cell_bandwidth(const struct matrix_cell *cell, uint64_t ticks_per_second);

#endif
