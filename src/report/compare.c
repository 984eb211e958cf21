/* hooktrace-report --compare BASE NEW (docs/compare.md): the stacks of two
 * sides matched by call path, each side one run or several
 * (A1.json,A2.json,...), most changed first, as a page, JSON and a table on
 * the terminal; with --fail-above R, exit 3 when a stack that counts
 * slowed by more than R beyond the spread of its runs, for a CI gate. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/cli.h"
#include "report/compare.h"
#include "report/page.h"

/* Whether the gate looks at this row: in both sides, with a meaningful
 * share of the base side's time (docs/compare.md, "Which stacks count"). */
static bool counted(const struct ht_cmp_row *r, double threshold)
{
    const struct ht_cmp_figures *b = &r->side[HT_CMP_BASE];
    return b->runs && r->side[HT_CMP_NEW].runs && b->incl > 0 && b->incl >= threshold;
}

/* The gate's rule: the median inclusive time grew by more than R, and
 * with several runs the new runs' range lies wholly above the base runs'
 * (a change the spread of the runs does not explain). */
static bool fails(const struct ht_cmp_row *r, double fail_above)
{
    return r->counted && ht_cmp_ratio(r, false) > fail_above &&
           (r->noise == HT_CMP_UNKNOWN || r->noise == HT_CMP_SLOWER);
}

static double excl_growth(const struct ht_cmp_row *r)
{
    return r->side[HT_CMP_NEW].excl - r->side[HT_CMP_BASE].excl;
}

/* Whether the stack ends in an MPI routine (MPI_Waitall, mpi_recv_...). */
static bool ends_in_mpi(const struct ht_cmp_row *r)
{
    size_t n = json_array_size(r->path);
    const char *name = n ? json_string_value(json_array_get(r->path, n - 1)) : NULL;
    return name && strncasecmp(name, "MPI_", 4) == 0;
}

/* The failing stacks: those ending in MPI calls last, each part by the
 * growth of exclusive time, largest first.  So a function made slower
 * comes before its callers, whose inclusive time grew through it while
 * their own did not, and before the MPI calls in which the other ranks
 * now wait longer for it (their time can grow more than its own). */
static int by_excl_growth(const void *a, const void *b)
{
    const struct ht_cmp_row *x = *(const struct ht_cmp_row *const *)a;
    const struct ht_cmp_row *y = *(const struct ht_cmp_row *const *)b;
    bool mx = ends_in_mpi(x), my = ends_in_mpi(y);
    if (mx != my)
        return mx ? 1 : -1;
    double gx = excl_growth(x), gy = excl_growth(y);
    if (gx != gy)
        return gx > gy ? -1 : 1;
    if (x->change != y->change)
        return x->change > y->change ? -1 : 1;
    return strcmp(x->key, y->key);
}

/* Marks the rows that count and those that fail; prints the failing ones
 * on stderr and lists their paths in slower; how many, or -1 when out of
 * memory. */
static long gate(struct ht_cmp_row *rows, size_t n, const struct ht_cmp_options *o,
                 double threshold, bool several, json_t *slower)
{
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        rows[i].counted = counted(&rows[i], threshold);
        rows[i].slower = o->fail_above >= 0 && fails(&rows[i], o->fail_above);
        hits += rows[i].slower;
    }
    const struct ht_cmp_row **order = malloc((hits ? hits : 1) * sizeof *order);
    if (!order)
        return -1;
    for (size_t i = 0, k = 0; i < n; i++)
        if (rows[i].slower)
            order[k++] = &rows[i];
    qsort(order, hits, sizeof *order, by_excl_growth);
    for (size_t i = 0; i < hits; i++) {
        const struct ht_cmp_row *r = order[i];
        const struct ht_cmp_figures *b = &r->side[HT_CMP_BASE], *m = &r->side[HT_CMP_NEW];
        char *text = ht_rp_path_text(r->path);
        fprintf(stderr, HT_REPORT_PROGRAM ": slower: %s: %.6f s -> %.6f s (x%.3f > %g",
                text ? text : "?", b->incl, m->incl, m->incl / b->incl, o->fail_above);
        if (several)
            fprintf(stderr, "; runs %.6f..%.6f s -> %.6f..%.6f s", b->incl_range[0],
                    b->incl_range[1], m->incl_range[0], m->incl_range[1]);
        fputs(")\n", stderr);
        free(text);
        json_array_append(slower, r->path);
    }
    free(order);
    return (long)hits;
}

static int parse(int argc, char **argv, struct ht_cmp_options *o)
{
    int lists = 0, rc;
    double top = 20;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--compare") == 0)
            continue;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--json") == 0) {
            if (!v)
                return ht_report_usage_error("%s needs a file name", a);
            *(a[1] == 'o' ? &o->page : &o->json) = v;
            i++;
        } else if (strcmp(a, "--base-phase") == 0 || strcmp(a, "--new-phase") == 0) {
            if (!v || !*v)
                return ht_report_usage_error("%s needs a phase name", a);
            o->phases[a[2] == 'n'] = v;
            i++;
        } else if (strcmp(a, "--fail-above") == 0) {
            if ((rc = ht_report_number(a, v, 0, &o->fail_above)) != 0)
                return rc;
            i++;
        } else if (strcmp(a, "--min-share") == 0) {
            if ((rc = ht_report_number(a, v, 0, &o->min_share)) != 0)
                return rc;
            if (o->min_share > 1)
                return ht_report_usage_error("--min-share: '%s' is more than 1", v);
            i++;
        } else if (strcmp(a, "--min-time") == 0) {
            if ((rc = ht_report_number(a, v, 0, &o->min_time)) != 0)
                return rc;
            i++;
        } else if (strcmp(a, "--top") == 0) {
            if ((rc = ht_report_number(a, v, 0, &top)) != 0)
                return rc;
            if (top > 1e9 || top != floor(top))
                return ht_report_usage_error("--top: '%s' is not a whole number", v);
            o->top = (size_t)top;
            i++;
        } else if (strcmp(a, "--force") == 0) {
            o->force = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            return ht_report_usage_error("unknown option for --compare '%s'", a);
        } else if (lists == 2) {
            return ht_report_usage_error("--compare takes two profiles (or two comma-separated "
                                         "lists): '%s' is a third", a);
        } else {
            if ((rc = ht_cmp_split(a, &o->files[lists], &o->nfiles[lists])) != 0)
                return rc;
            lists++;
        }
    }
    if (lists != 2)
        return ht_report_usage_error("--compare needs two profiles, BASE.json and NEW.json "
                                     "(or two comma-separated lists of them)", NULL);
    return 0;
}

/* NEW.json -> NEW.compare.html. */
static char *default_page(const char *in)
{
    size_t n = strlen(in);
    char *out = malloc(n + 16);
    if (!out)
        return NULL;
    memcpy(out, in, n + 1);
    if (n > 5 && strcmp(in + n - 5, ".json") == 0)
        out[n - 5] = '\0';
    strcat(out, ".compare.html");
    return out;
}

int ht_report_compare_main(int argc, char **argv)
{
    struct ht_cmp_options o = {.fail_above = -1, .min_share = 0.01, .min_time = 0.001, .top = 20};
    struct ht_cmp_side sides[2] = {{0}, {0}};
    struct ht_cmp_row *rows = NULL;
    char *fallback = NULL, why[1024];
    json_t *doc = NULL, *slower = NULL, *counts = NULL;
    int status = parse(argc, argv, &o);
    if (status != 0)
        goto out;
    status = HT_REPORT_BAD_INPUT;
    for (int k = 0; k < 2; k++)
        if (ht_cmp_load(&sides[k], o.files[k], o.nfiles[k], o.phases[k]) != 0)
            goto out;
    /* Figures summed over 2 ranks against sums over 8 change by the rank
     * count alone: a gate must not judge them unless told to. */
    bool ranks_differ = ht_cmp_ranks_differ(sides, why, sizeof why);
    if (ranks_differ && o.fail_above >= 0 && !o.force) {
        fprintf(stderr, HT_REPORT_PROGRAM ": the rank counts differ: %s; --fail-above does not "
                        "judge figures summed over different ranks (--force judges them all "
                        "the same)\n", why);
        status = HT_REPORT_RANKS;
        goto out;
    }
    if (ranks_differ)
        fprintf(stderr, HT_REPORT_PROGRAM ": warning: the rank counts differ: %s; the figures "
                        "are sums over ranks and change with their number (--scaling compares "
                        "rank counts)\n", why);
    size_t n = 0;
    rows = ht_cmp_match(sides, &n);
    doc = json_object();
    slower = json_array();
    counts = json_object();
    if (!rows || !doc || !slower || !counts) {
        fprintf(stderr, HT_REPORT_PROGRAM ": out of memory\n");
        goto out;
    }
    bool several = sides[HT_CMP_BASE].n > 1 || sides[HT_CMP_NEW].n > 1;
    double threshold = fmax(o.min_share * sides[HT_CMP_BASE].total, o.min_time);
    long hits = gate(rows, n, &o, threshold, several, slower);
    if (hits < 0) {
        fprintf(stderr, HT_REPORT_PROGRAM ": out of memory\n");
        goto out;
    }
    size_t count[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++)
        count[!rows[i].side[HT_CMP_BASE].runs ? 1 : !rows[i].side[HT_CMP_NEW].runs ? 2 : 0]++;
    json_object_set_new(counts, "changed", json_integer((json_int_t)count[0]));
    json_object_set_new(counts, "new", json_integer((json_int_t)count[1]));
    json_object_set_new(counts, "vanished", json_integer((json_int_t)count[2]));

    json_object_set_new(doc, "kind", json_string("compare"));
    json_object_set_new(doc, "base", ht_cmp_side_info(&sides[HT_CMP_BASE]));
    json_object_set_new(doc, "new", ht_cmp_side_info(&sides[HT_CMP_NEW]));
    json_object_set_new(doc, "ranks_differ", json_boolean(ranks_differ));
    json_t *g = json_object();
    json_object_set_new(g, "fail_above", o.fail_above >= 0 ? json_real(o.fail_above) : json_null());
    json_object_set_new(g, "min_share", json_real(o.min_share));
    json_object_set_new(g, "min_time_s", json_real(o.min_time));
    json_object_set_new(g, "threshold_s", json_real(threshold));
    json_object_set_new(g, "force", json_boolean(o.force));
    json_object_set(g, "slower", slower);
    json_object_set_new(doc, "gate", g);
    json_object_set(doc, "counts", counts);
    json_object_set_new(doc, "page_rows", json_integer(HT_CMP_PAGE_ROWS));
    struct ht_cmp_doc d = {doc, rows, n};

    if (o.json && ht_report_write_file(HT_REPORT_PROGRAM, o.json, ht_cmp_write_json, &d) != 0)
        goto out;
    if (!o.page && !o.json)
        o.page = fallback = default_page(o.files[HT_CMP_NEW][0]);
    if (o.page && ht_report_write_file(HT_REPORT_PROGRAM, o.page, ht_cmp_write_page, &d) != 0)
        goto out;
    /* The table on standard output, unless the page or the JSON is there. */
    bool taken = (o.page && strcmp(o.page, "-") == 0) || (o.json && strcmp(o.json, "-") == 0);
    ht_cmp_table(taken ? stderr : stdout, rows, n, sides, &o, (size_t)hits);
    fflush(stdout);
    status = HT_REPORT_OK;
    if (hits) {
        fprintf(stderr, HT_REPORT_PROGRAM ": %ld stack%s slowed by more than %g%s (stacks of at "
                        "least %.6f s in %s count)\n",
                hits, hits == 1 ? "" : "s", o.fail_above, several ? " beyond the runs' spread" : "",
                threshold, sides[HT_CMP_BASE].n == 1 ? o.files[HT_CMP_BASE][0] : "the base runs");
        status = HT_REPORT_SLOWER;
    }
out:
    free(fallback);
    free(rows);
    json_decref(counts);
    json_decref(slower);
    json_decref(doc);
    for (int k = 0; k < 2; k++) {
        ht_cmp_free(&sides[k]);
        ht_cmp_free_files(o.files[k], o.nfiles[k]);
    }
    return status;
}
