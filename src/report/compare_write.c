/* hooktrace-report --compare's outputs (compare.h; docs/compare.md, "The
 * comparison JSON"): the JSON a stack per line, the page around it, and
 * the table on the terminal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "report/page.h"

enum { CHANGED, NEW, VANISHED };

static int status_of(const struct ht_cmp_row *r)
{
    return !r->side[HT_CMP_BASE].runs ? NEW : !r->side[HT_CMP_NEW].runs ? VANISHED : CHANGED;
}

static const char *const status_names[] = {"changed", "new", "vanished"};
static const char *const noise_names[] = {NULL, "within", "slower", "faster"};

/* [base, new] of one figure; null on a side without the path. */
static json_t *pair(const struct ht_cmp_row *r, json_t *(*make)(const struct ht_cmp_figures *))
{
    json_t *a = json_array();
    for (int k = 0; k < 2; k++)
        json_array_append_new(a, r->side[k].runs ? make(&r->side[k]) : json_null());
    return a;
}

static json_t *incl(const struct ht_cmp_figures *f) { return json_real(f->incl); }
static json_t *excl(const struct ht_cmp_figures *f) { return json_real(f->excl); }
static json_t *calls(const struct ht_cmp_figures *f) { return json_integer(f->calls); }
static json_t *messages(const struct ht_cmp_figures *f) { return json_integer(f->messages); }
static json_t *bytes(const struct ht_cmp_figures *f) { return json_integer(f->bytes); }

static json_t *range(const double *r)
{
    return json_pack("[ff]", r[0], r[1]);
}

static json_t *incl_range(const struct ht_cmp_figures *f) { return range(f->incl_range); }
static json_t *excl_range(const struct ht_cmp_figures *f) { return range(f->excl_range); }

static json_t *ratio(const struct ht_cmp_row *r, bool excl)
{
    double v = ht_cmp_ratio(r, excl);
    return v >= 0 ? json_real(v) : json_null();
}

static json_t *noise(enum ht_cmp_noise n)
{
    return n == HT_CMP_UNKNOWN ? json_null() : json_string(noise_names[n]);
}

static json_t *row_json(const struct ht_cmp_row *r)
{
    json_t *s = json_object();
    json_object_set(s, "path", r->path);
    json_object_set_new(s, "status", json_string(status_names[status_of(r)]));
    json_object_set_new(s, "runs", json_pack("[II]", (json_int_t)r->side[0].runs,
                                             (json_int_t)r->side[1].runs));
    json_object_set_new(s, "time_incl_s", pair(r, incl));
    json_object_set_new(s, "time_excl_s", pair(r, excl));
    json_object_set_new(s, "time_incl_range_s", pair(r, incl_range));
    json_object_set_new(s, "time_excl_range_s", pair(r, excl_range));
    json_object_set_new(s, "calls", pair(r, calls));
    json_object_set_new(s, "messages", pair(r, messages));
    json_object_set_new(s, "bytes", pair(r, bytes));
    json_object_set_new(s, "ratio", ratio(r, false));
    json_object_set_new(s, "ratio_excl", ratio(r, true));
    json_object_set_new(s, "noise", noise(r->noise));
    json_object_set_new(s, "noise_excl", noise(r->noise_excl));
    json_object_set_new(s, "counted", json_boolean(r->counted));
    json_object_set_new(s, "slower", json_boolean(r->slower));
    return s;
}

/* The comparison, a stack at a time (one per line), never built whole:
 * 100,000 stacks would cost hundreds of MB as jansson objects.  On the
 * page, the first HT_CMP_PAGE_ROWS of each status: a page of 100,000 rows
 * takes a browser half a minute to open (BENCHMARKS.md, "What did not
 * work"). */
static int write_doc(FILE *f, const struct ht_cmp_doc *d, bool page)
{
    char *head = json_dumps(d->head, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!head)
        return -1;
    head[strlen(head) - 1] = '\0'; /* its closing brace: "stacks" follows */
    int rc = ht_report_put(f, head, page) == 0 && fputs(",\n\"stacks\":[", f) != EOF ? 0 : -1;
    free(head);
    size_t shown[3] = {0, 0, 0};
    const char *sep = "\n";
    for (size_t i = 0; i < d->n && rc == 0; i++) {
        if (page && shown[status_of(&d->rows[i])]++ >= HT_CMP_PAGE_ROWS)
            continue;
        json_t *s = row_json(&d->rows[i]);
        rc = s && fputs(sep, f) != EOF && ht_report_put_json(f, s, page) == 0 ? 0 : -1;
        json_decref(s);
        sep = ",\n";
    }
    return rc == 0 && fputs("\n]}\n", f) != EOF ? 0 : -1;
}

int ht_cmp_write_json(FILE *f, void *d)
{
    return write_doc(f, d, false);
}

int ht_cmp_write_page(FILE *f, void *d)
{
    return ht_report_compare_page_head(f) == 0 && write_doc(f, d, true) == 0 &&
                   ht_report_compare_page_tail(f) == 0
               ? 0
               : -1;
}

json_t *ht_cmp_side_info(const struct ht_cmp_side *s)
{
    /* The first run's description, as with one run a side; the figures
     * of the side as a whole; and every run's own. */
    json_t *o = ht_rp_run_info(&s->runs[0]), *runs = json_array();
    json_object_set_new(o, "stacks", json_integer((json_int_t)s->stacks));
    json_object_set_new(o, "time_incl_s", json_real(s->total));
    for (size_t i = 0; i < s->n; i++)
        json_array_append_new(runs, ht_rp_run_info(&s->runs[i]));
    json_object_set_new(o, "runs", runs);
    return o;
}

/* --- the table on the terminal ---------------------------------------------- */

/* Seconds as the page shows them: 3 decimals of s, ms or us. */
static void seconds(char *out, size_t size, const struct ht_cmp_figures *f, bool excl)
{
    double s = excl ? f->excl : f->incl;
    if (!f->runs)
        snprintf(out, size, "-");
    else if (s == 0)
        snprintf(out, size, "0 s");
    else if (s >= 1)
        snprintf(out, size, "%.3f s", s);
    else if (s >= 1e-3)
        snprintf(out, size, "%.3f ms", s * 1e3);
    else
        snprintf(out, size, "%.3f us", s * 1e6);
}

static void ratio_text(char *out, size_t size, double r)
{
    if (r < 0)
        snprintf(out, size, "-");
    else
        snprintf(out, size, "x%.3f", r);
}

static const char *gate_text(const struct ht_cmp_row *r)
{
    return r->slower ? "FAIL" : r->counted ? "ok" : "-";
}

void ht_cmp_table(FILE *f, const struct ht_cmp_row *rows, size_t n, const struct ht_cmp_side sides[2],
                  const struct ht_cmp_options *o, size_t slower)
{
    bool several = sides[HT_CMP_BASE].n > 1 || sides[HT_CMP_NEW].n > 1, gate = o->fail_above >= 0;
    size_t shown = n < o->top ? n : o->top;
    if (o->top == 0)
        return;
    fprintf(f, "%zu run%s against %zu%s; the %zu most changed of %zu stacks\n",
            sides[HT_CMP_BASE].n, sides[HT_CMP_BASE].n == 1 ? "" : "s", sides[HT_CMP_NEW].n,
            several ? " (medians; noise: the new runs' range against the base runs')" : "",
            shown, n);
    if (shown)
        fprintf(f, "%12s %12s %8s %12s %12s %8s %-7s%s call path\n", "incl base", "incl new",
                "ratio", "excl base", "excl new", "ratio", "noise", gate ? " gate" : "");
    for (size_t i = 0; i < shown; i++) {
        const struct ht_cmp_row *r = &rows[i];
        char t[4][24], q[2][24];
        for (int k = 0; k < 4; k++)
            seconds(t[k], sizeof t[k], &r->side[k % 2], k >= 2);
        ratio_text(q[0], sizeof q[0], ht_cmp_ratio(r, false));
        ratio_text(q[1], sizeof q[1], ht_cmp_ratio(r, true));
        char *path = ht_rp_path_text(r->path), mark[8] = "";
        if (gate)
            snprintf(mark, sizeof mark, " %-4s", gate_text(r));
        int status = status_of(r);
        fprintf(f, "%12s %12s %8s %12s %12s %8s %-7s%s %s%s\n", t[0], t[1], q[0], t[2], t[3],
                q[1], r->noise == HT_CMP_UNKNOWN ? "-" : noise_names[r->noise], mark,
                status == CHANGED ? "" : status == NEW ? "(new) " : "(vanished) ",
                path ? path : "?");
        free(path);
    }
    if (gate)
        fprintf(f, "--fail-above %g: %s: %zu counted stack%s slower than x%g%s\n", o->fail_above,
                slower ? "FAIL" : "pass", slower, slower == 1 ? "" : "s", o->fail_above,
                several ? " beyond the runs' spread" : "");
}
