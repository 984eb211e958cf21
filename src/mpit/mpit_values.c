/* From raw pvar reads to figures.  A counter's change is taken element by
 * element in its own width, so a 32-bit or 64-bit counter that wraps
 * between the two reads still gives the right (small) change. */
#include <math.h>
#include <string.h>

#include "mpit/mpit_internal.h"

double ht_mpit_element(const struct ht_mpit_pvar *p, const unsigned char *raw, int i)
{
    const unsigned char *at = raw + p->offset + (size_t)i * p->elem_size;
    switch (p->num) {
    case HT_MPIT_I32: {
        int32_t x;
        memcpy(&x, at, sizeof x);
        return (double)x;
    }
    case HT_MPIT_U32: {
        uint32_t x;
        memcpy(&x, at, sizeof x);
        return (double)x;
    }
    case HT_MPIT_I64: {
        int64_t x;
        memcpy(&x, at, sizeof x);
        return (double)x;
    }
    case HT_MPIT_U64: {
        uint64_t x;
        memcpy(&x, at, sizeof x);
        return (double)x;
    }
    case HT_MPIT_F64: {
        double x;
        memcpy(&x, at, sizeof x);
        return x;
    }
    }
    return 0.0;
}

static double element_change(const struct ht_mpit_pvar *p, const unsigned char *before,
                             const unsigned char *after, int i)
{
    size_t off = p->offset + (size_t)i * p->elem_size;
    switch (p->num) {
    case HT_MPIT_I32:
    case HT_MPIT_U32: {
        uint32_t b, a;
        memcpy(&b, before + off, sizeof b);
        memcpy(&a, after + off, sizeof a);
        return p->num == HT_MPIT_U32 ? (double)(uint32_t)(a - b) : (double)(int32_t)(a - b);
    }
    case HT_MPIT_I64:
    case HT_MPIT_U64: {
        uint64_t b, a;
        memcpy(&b, before + off, sizeof b);
        memcpy(&a, after + off, sizeof a);
        return p->num == HT_MPIT_U64 ? (double)(uint64_t)(a - b) : (double)(int64_t)(a - b);
    }
    case HT_MPIT_F64:
        return ht_mpit_element(p, after, i) - ht_mpit_element(p, before, i);
    }
    return 0.0;
}

double ht_mpit_initial(enum ht_mpit_how how)
{
    return how == HT_MPIT_MAX ? -INFINITY : how == HT_MPIT_MIN ? INFINITY : 0.0;
}

double ht_mpit_combine(enum ht_mpit_how how, double a, double b)
{
    switch (how) {
    case HT_MPIT_MAX:
        return a > b ? a : b;
    case HT_MPIT_MIN:
        return a < b ? a : b;
    default:
        return a + b;
    }
}

/* Elements summed (pvar_elements "total"), or element i. */
static double level(const struct ht_mpit_pvar *p, const unsigned char *raw, int i)
{
    if (i >= 0)
        return ht_mpit_element(p, raw, i);
    double sum = 0.0;
    for (int k = 0; k < p->count; k++)
        sum += ht_mpit_element(p, raw, k);
    return sum;
}

static double change(const struct ht_mpit_pvar *p, const unsigned char *before,
                     const unsigned char *after, int i)
{
    if (i >= 0)
        return element_change(p, before, after, i);
    double sum = 0.0;
    for (int k = 0; k < p->count; k++)
        sum += element_change(p, before, after, k);
    return sum;
}

void ht_mpit_attribute(const struct ht_mpit_pvar *p, const unsigned char *before,
                       const unsigned char *after, double *v)
{
    for (size_t s = 0; s < p->nslots; s++) {
        int i = p->nslots == 1 && p->count > 1 ? -1 : (int)s;
        if (p->how == HT_MPIT_CHANGE) {
            v[s] += change(p, before, after, i);
            continue;
        }
        double x = level(p, after, i);
        if (before)
            x = ht_mpit_combine(p->how, x, level(p, before, i));
        v[s] = ht_mpit_combine(p->how, v[s], x);
    }
}
