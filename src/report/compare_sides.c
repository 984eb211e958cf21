/* The two sides of hooktrace-report --compare, each one run or several
 * (compare.h; docs/compare.md, "Several runs per side"): their profiles,
 * and per call path the median of the runs and their range, so that a
 * change can be told from the spread of the runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/cli.h"
#include "report/compare.h"

void ht_cmp_free_files(char **files, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
}

int ht_cmp_split(const char *list, char ***files, size_t *n)
{
    size_t items = 1;
    for (const char *c = list; *c; c++)
        items += *c == ',';
    char **out = calloc(items, sizeof *out);
    size_t k = 0;
    int rc = 0;
    for (const char *start = list; out && rc == 0 && k < items; k++) {
        const char *end = strchr(start, ',');
        size_t len = end ? (size_t)(end - start) : strlen(start);
        if (len == 0) {
            rc = ht_report_usage_error("--compare: '%s' has an empty file name (the runs of "
                                       "a side are separated by one comma each)", list);
            break;
        }
        if (!(out[k] = malloc(len + 1)))
            break;
        memcpy(out[k], start, len);
        out[k][len] = '\0';
        for (size_t j = 0; j < k && rc == 0; j++)
            if (strcmp(out[j], out[k]) == 0)
                /* The same run twice would narrow the side's spread. */
                rc = ht_report_usage_error("--compare: '%s' is given twice for one side",
                                           out[k]);
        start = end ? end + 1 : start + len;
    }
    if (rc == 0 && (!out || k < items)) {
        fprintf(stderr, HT_REPORT_PROGRAM ": out of memory\n");
        rc = HT_REPORT_BAD_INPUT;
    }
    if (rc != 0) {
        ht_cmp_free_files(out, out ? items : 0);
        return rc;
    }
    *files = out;
    *n = items;
    return 0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int by_count(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n) (sorted in place): the middle value, or the mean
 * of the two middle ones for an even n. */
static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The low median of counts: the lower middle one, so that it is a count
 * one run really had, never a half. */
static long long low_median(long long *v, size_t n)
{
    qsort(v, n, sizeof *v, by_count);
    return v[(n - 1) / 2];
}

int ht_cmp_load(struct ht_cmp_side *s, char *const *files, size_t n, const char *phase)
{
    memset(s, 0, sizeof *s);
    double *totals = calloc(n, sizeof *totals);
    s->runs = calloc(n, sizeof *s->runs);
    if (!totals || !s->runs) {
        free(totals);
        fprintf(stderr, HT_REPORT_PROGRAM ": out of memory\n");
        return -1;
    }
    for (; s->n < n; s->n++) {
        if (ht_rp_load_phase(&s->runs[s->n], files[s->n], phase, HT_REPORT_PROGRAM) != 0) {
            free(totals);
            ht_cmp_free(s);
            return -1;
        }
        totals[s->n] = s->runs[s->n].total;
    }
    s->total = median(totals, n);
    free(totals);
    return 0;
}

void ht_cmp_free(struct ht_cmp_side *s)
{
    for (size_t i = 0; i < s->n; i++)
        ht_rp_free(&s->runs[i]);
    free(s->runs);
    memset(s, 0, sizeof *s);
}

/* "4 ranks (an MPI summary: sums over them)" and the like. */
static void describe(const struct ht_rp_profile *p, char *out, size_t size)
{
    if (p->ranks == 1)
        snprintf(out, size, "1 rank");
    else
        snprintf(out, size, "%d ranks (%s)", p->ranks,
                 p->merged ? "an MPI summary: sums over them" : "one rank's own profile");
}

/* A summary of 1 rank and a run without MPI hold the same figures; above
 * one rank, a summary's sums and one rank's figures do not compare. */
static bool differ(const struct ht_rp_profile *a, const struct ht_rp_profile *b)
{
    return a->ranks != b->ranks || (a->ranks > 1 && a->merged != b->merged);
}

bool ht_cmp_ranks_differ(const struct ht_cmp_side sides[2], char *why, size_t size)
{
    const struct ht_rp_profile *first = &sides[HT_CMP_BASE].runs[0];
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < sides[k].n; i++) {
            const struct ht_rp_profile *p = &sides[k].runs[i];
            if (!differ(first, p))
                continue;
            char a[96], b[96];
            describe(first, a, sizeof a);
            describe(p, b, sizeof b);
            snprintf(why, size, "%s has %s, %s has %s", first->file, a, p->file, b);
            return true;
        }
    return false;
}

/* Room for a value per run of the larger side. */
struct scratch {
    const struct ht_rp_stack **at;
    double *values;
    long long *counts;
};

/* A path's figures over the side's runs. */
static void figures(const struct ht_cmp_side *s, const char *key, const struct scratch *w,
                    struct ht_cmp_figures *f)
{
    const struct ht_rp_stack **at = w->at;
    double *scratch = w->values;
    long long *counts = w->counts;
    memset(f, 0, sizeof *f);
    for (size_t i = 0; i < s->n; i++)
        f->runs += (at[i] = ht_rp_find(&s->runs[i], key)) != NULL;
    if (!f->runs)
        return;
    /* Each figure in turn; a run without the path spent 0 there. */
    for (int which = 0; which < 2; which++) {
        for (size_t i = 0; i < s->n; i++)
            scratch[i] = at[i] ? (which ? at[i]->excl : at[i]->incl) : 0;
        double m = median(scratch, s->n), *range = which ? f->excl_range : f->incl_range;
        *(which ? &f->excl : &f->incl) = m;
        range[0] = scratch[0];
        range[1] = scratch[s->n - 1];
    }
    long long *const out[3] = {&f->calls, &f->messages, &f->bytes};
    for (int which = 0; which < 3; which++) {
        for (size_t i = 0; i < s->n; i++)
            counts[i] = !at[i]      ? 0
                        : which == 0 ? at[i]->calls
                        : which == 1 ? at[i]->messages
                                     : at[i]->bytes;
        *out[which] = low_median(counts, s->n);
    }
}

/* The new runs' range against the base runs' (docs/compare.md, "Which
 * stacks count"): beyond the noise only when they do not overlap. */
static enum ht_cmp_noise noise(const struct ht_cmp_side sides[2], const struct ht_cmp_row *r,
                               bool excl)
{
    const struct ht_cmp_figures *b = &r->side[HT_CMP_BASE], *m = &r->side[HT_CMP_NEW];
    if (!b->runs || !m->runs || (sides[HT_CMP_BASE].n == 1 && sides[HT_CMP_NEW].n == 1))
        return HT_CMP_UNKNOWN;
    const double *br = excl ? b->excl_range : b->incl_range;
    const double *mr = excl ? m->excl_range : m->incl_range;
    return mr[0] > br[1] ? HT_CMP_SLOWER : mr[1] < br[0] ? HT_CMP_FASTER : HT_CMP_WITHIN;
}

double ht_cmp_ratio(const struct ht_cmp_row *r, bool excl)
{
    const struct ht_cmp_figures *b = &r->side[HT_CMP_BASE], *m = &r->side[HT_CMP_NEW];
    double base = excl ? b->excl : b->incl;
    if (!b->runs || !m->runs || !(base > 0))
        return -1;
    return (excl ? m->excl : m->incl) / base;
}

static int by_change(const void *a, const void *b)
{
    const struct ht_cmp_row *x = a, *y = b;
    if (x->change != y->change)
        return x->change > y->change ? -1 : 1;
    return strcmp(x->key, y->key);
}

/* Every distinct path of any run, once, in the order of first sight. */
static struct ht_cmp_row *collect(const struct ht_cmp_side sides[2], size_t *n)
{
    json_t *seen = json_object();
    struct ht_cmp_row *rows = NULL;
    size_t k = 0, cap = 0;
    bool ok = seen != NULL;
    for (int side = 0; side < 2 && ok; side++)
        for (size_t i = 0; i < sides[side].n && ok; i++) {
            const struct ht_rp_profile *p = &sides[side].runs[i];
            for (size_t j = 0; j < p->n && ok; j++) {
                const struct ht_rp_stack *st = &p->stacks[j];
                if (json_object_get(seen, st->key))
                    continue;
                if (k == cap) {
                    cap = cap ? 2 * cap : p->n + 16;
                    struct ht_cmp_row *more = realloc(rows, cap * sizeof *rows);
                    if (!more) {
                        ok = false;
                        break;
                    }
                    rows = more;
                }
                rows[k++] = (struct ht_cmp_row){.path = st->path, .key = st->key};
                ok = json_object_set_new(seen, st->key, json_true()) == 0;
            }
        }
    json_decref(seen);
    if (!ok) {
        free(rows);
        return NULL;
    }
    *n = k;
    return rows ? rows : calloc(1, sizeof *rows);
}

struct ht_cmp_row *ht_cmp_match(struct ht_cmp_side sides[2], size_t *n)
{
    size_t k = 0, most = sides[0].n > sides[1].n ? sides[0].n : sides[1].n;
    struct ht_cmp_row *rows = collect(sides, &k);
    struct scratch w = {malloc(most * sizeof *w.at), malloc(most * sizeof *w.values),
                        malloc(most * sizeof *w.counts)};
    if (!rows || !w.at || !w.values || !w.counts) {
        free(rows);
        rows = NULL;
        k = 0;
    }
    sides[0].stacks = sides[1].stacks = 0;
    for (size_t i = 0; i < k; i++) {
        struct ht_cmp_row *r = &rows[i];
        for (int side = 0; side < 2; side++) {
            figures(&sides[side], r->key, &w, &r->side[side]);
            sides[side].stacks += r->side[side].runs > 0;
        }
        r->change = fabs(r->side[HT_CMP_NEW].incl - r->side[HT_CMP_BASE].incl);
        r->noise = noise(sides, r, false);
        r->noise_excl = noise(sides, r, true);
    }
    free(w.at);
    free(w.values);
    free(w.counts);
    if (rows)
        qsort(rows, k, sizeof *rows, by_change);
    *n = k;
    return rows;
}
