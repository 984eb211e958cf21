/* Matrix cells in a hash table, sorted only for output. */
#include <stdlib.h>

#include "analyze/fail.h"
#include "analyze/matrix.h"

void matrix_init(struct matrix *m)
{
    hashmap_init(&m->cells);
}

void matrix_free(struct matrix *m)
{
    for (size_t i = 0; i < hashmap_capacity(&m->cells); i++)
        free(m->cells.slots[i].value);
    hashmap_free(&m->cells);
}

struct matrix_cell *matrix_cell(struct matrix *m, uint32_t sender, uint32_t receiver)
{
    struct matrix_cell *c = hashmap_get(&m->cells, sender, receiver);
    if (!c) {
        c = xcalloc(1, sizeof *c);
        c->sender = sender;
        c->receiver = receiver;
        hashmap_put(&m->cells, sender, receiver, c);
    }
    return c;
}

static int compare_cells(const void *a, const void *b)
{
    const struct matrix_cell *x = *(const struct matrix_cell *const *)a;
    const struct matrix_cell *y = *(const struct matrix_cell *const *)b;
    if (x->sender != y->sender)
        return x->sender < y->sender ? -1 : 1;
    if (x->receiver != y->receiver)
        return x->receiver < y->receiver ? -1 : 1;
    return 0;
}

const struct matrix_cell **matrix_sorted(const struct matrix *m, size_t *n)
{
    const struct matrix_cell **cells =
        xmalloc((m->cells.count ? m->cells.count : 1) * sizeof *cells);
    size_t k = 0;
    for (size_t i = 0; i < hashmap_capacity(&m->cells); i++) {
        if (m->cells.slots[i].value)
            cells[k++] = m->cells.slots[i].value;
    }
    qsort(cells, k, sizeof *cells, compare_cells);
    *n = k;
    return cells;
}

double matrix_cell_bandwidth(const struct matrix_cell *cell, uint64_t ticks_per_second)
{
    if (!cell->timed_ticks)
        return -1.0;
    return (double)cell->timed_bytes * (double)ticks_per_second / (double)cell->timed_ticks;
}
