#include "analyze/clock_correct.h"

#include <stdlib.h>

#include "analyze/fail.h"

void clock_correction_init(struct clock_correction *c, uint32_t nlocations)
{
    c->locations = xcalloc(nlocations ? nlocations : 1, sizeof *c->locations);
    c->nlocations = nlocations;
    c->violations = c->violation_ticks = c->max_violation_ticks = 0;
}

void clock_correction_free(struct clock_correction *c)
{
    free(c->locations);
    c->locations = NULL;
    c->nlocations = 0;
}

void clock_correction_add_offset(struct clock_correction *c, uint32_t index, uint64_t time,
                                 int64_t offset)
{
    if (index >= c->nlocations)
        return;
    struct clock_offsets *o = &c->locations[index];
    if (o->count++ == 0) {
        o->first_time = time;
        o->first_offset = offset;
    }
    o->last_time = time;
    o->last_offset = offset;
}

OTF2_CallbackCode clock_correction_def_offset(void *ud, OTF2_TimeStamp time, int64_t offset,
                                              double deviation)
{
    struct clock_location *l = ud;
    (void)deviation;
    clock_correction_add_offset(l->c, l->index, time, offset);
    return OTF2_CALLBACK_SUCCESS;
}

uint64_t clock_correct_violation(struct clock_correction *c, uint32_t receiver_index,
                                 uint64_t send_time, uint64_t recv_time)
{
    uint64_t move = send_time - recv_time + 1;
    c->violations++;
    c->violation_ticks += move;
    if (move > c->max_violation_ticks)
        c->max_violation_ticks = move;
    if (receiver_index < c->nlocations)
        c->locations[receiver_index].shift += (int64_t)move;
    return send_time + 1;
}

int clock_correction_rank(const struct clock_correction *c, uint32_t index, double *offset,
                          double *drift, int *drift_known)
{
    if (index >= c->nlocations || c->locations[index].count == 0)
        return 0;
    const struct clock_offsets *o = &c->locations[index];
    *offset = (double)o->first_offset;
    *drift_known = o->count > 1 && o->last_time > o->first_time;
    *drift = *drift_known ? (double)(o->last_offset - o->first_offset)
                                / (double)(o->last_time - o->first_time)
                          : 0.0;
    return 1;
}
