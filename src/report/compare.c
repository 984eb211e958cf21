/* hooktrace-report --compare BASE.json NEW.json (docs/compare.md): the
 * stacks of two runs matched by call path, most changed first, as a page
 * and JSON; with --fail-above R, exit 3 when a stack that counts slowed by
 * more than R, for a CI gate. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/cli.h"
#include "report/page.h"
#include "report/profile.h"

struct row {
    const struct ht_rp_stack *base, *new; /* NULL: not in that run */
    double change;                        /* |new - base| inclusive time */
};

struct options {
    const char *files[2], *page, *json;
    const char *phases[2]; /* --base-phase, --new-phase; NULL: the whole run */
    double fail_above; /* < 0: no gate */
    double min_share, min_time;
};

static int by_change(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    if (x->change != y->change)
        return x->change > y->change ? -1 : 1;
    const char *kx = x->base ? x->base->key : x->new->key;
    const char *ky = y->base ? y->base->key : y->new->key;
    return strcmp(kx, ky);
}

static json_t *pair_real(const struct row *r, size_t offset)
{
    json_t *a = json_array();
    const struct ht_rp_stack *side[2] = {r->base, r->new};
    for (int i = 0; i < 2; i++)
        json_array_append_new(a, side[i] ? json_real(*(const double *)((const char *)side[i] +
                                                                         offset))
                                         : json_null());
    return a;
}

static json_t *pair_int(const struct row *r, size_t offset)
{
    json_t *a = json_array();
    const struct ht_rp_stack *side[2] = {r->base, r->new};
    for (int i = 0; i < 2; i++)
        json_array_append_new(a, side[i] ? json_integer(*(const long long *)((const char *)side[i] +
                                                                              offset))
                                         : json_null());
    return a;
}

/* Whether the gate looks at this row: in both runs, with a meaningful
 * share of the base run's time (docs/compare.md, "Which stacks count"). */
static int counted(const struct row *r, double threshold)
{
    return r->base && r->new && r->base->incl > 0 && r->base->incl >= threshold;
}

static json_t *row_json(const struct row *r, int is_counted)
{
    json_t *s = json_object();
    json_object_set(s, "path", r->base ? r->base->path : r->new->path);
    json_object_set_new(s, "status", json_string(!r->base ? "new" : !r->new ? "vanished"
                                                                            : "changed"));
    json_object_set_new(s, "time_incl_s", pair_real(r, offsetof(struct ht_rp_stack, incl)));
    json_object_set_new(s, "time_excl_s", pair_real(r, offsetof(struct ht_rp_stack, excl)));
    json_object_set_new(s, "calls", pair_int(r, offsetof(struct ht_rp_stack, calls)));
    json_object_set_new(s, "messages", pair_int(r, offsetof(struct ht_rp_stack, messages)));
    json_object_set_new(s, "bytes", pair_int(r, offsetof(struct ht_rp_stack, bytes)));
    json_object_set_new(s, "ratio", r->base && r->new && r->base->incl > 0
                                        ? json_real(r->new->incl / r->base->incl)
                                        : json_null());
    json_object_set_new(s, "counted", json_boolean(is_counted));
    return s;
}

/* The rows: every path of either run, sorted by change. */
static struct row *match(const struct ht_rp_profile *base, const struct ht_rp_profile *new,
                         size_t *n)
{
    struct row *rows = calloc(base->n + new->n + 1, sizeof *rows);
    if (!rows)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < base->n; i++) {
        const struct ht_rp_stack *b = &base->stacks[i], *m = ht_rp_find(new, b->key);
        rows[k++] = (struct row){b, m, fabs((m ? m->incl : 0) - b->incl)};
    }
    for (size_t i = 0; i < new->n; i++) {
        const struct ht_rp_stack *m = &new->stacks[i];
        if (!ht_rp_find(base, m->key))
            rows[k++] = (struct row){NULL, m, fabs(m->incl)};
    }
    qsort(rows, k, sizeof *rows, by_change);
    *n = k;
    return rows;
}

/* Prints the stacks that slowed by more than R; how many. */
static size_t gate(const struct row *rows, size_t n, const struct options *o, double threshold,
                   json_t *slower)
{
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        const struct row *r = &rows[i];
        if (!counted(r, threshold) || !(r->new->incl / r->base->incl > o->fail_above))
            continue;
        char *text = ht_rp_path_text(r->base->path);
        fprintf(stderr, HT_REPORT_PROGRAM ": slower: %s: %.6f s -> %.6f s (x%.3f > %g)\n",
                text ? text : "?", r->base->incl, r->new->incl, r->new->incl / r->base->incl,
                o->fail_above);
        free(text);
        json_array_append(slower, r->base->path);
        hits++;
    }
    return hits;
}

enum { CHANGED, NEW, VANISHED };
static const char *const status_names[] = {"changed", "new", "vanished"};

/* The page's rows per status: the JSON has them all, but a page of
 * 100,000 rows takes a browser half a minute to open (BENCHMARKS.md,
 * "What did not work"). */
enum { PAGE_ROWS = 500 };

static int status_of(const struct row *r)
{
    return !r->base ? NEW : !r->new ? VANISHED : CHANGED;
}

struct doc {
    json_t *head; /* everything but "stacks" */
    const struct row *rows;
    size_t n;
    double threshold;
};

/* The comparison, a stack at a time (one per line), never built whole:
 * 100,000 stacks would cost hundreds of MB as jansson objects.  On the
 * page, the first PAGE_ROWS of each status. */
static int write_doc(FILE *f, const struct doc *d, bool page)
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
        if (page && shown[status_of(&d->rows[i])]++ >= PAGE_ROWS)
            continue;
        json_t *s = row_json(&d->rows[i], counted(&d->rows[i], d->threshold));
        rc = s && fputs(sep, f) != EOF && ht_report_put_json(f, s, page) == 0 ? 0 : -1;
        json_decref(s);
        sep = ",\n";
    }
    return rc == 0 && fputs("\n]}\n", f) != EOF ? 0 : -1;
}

static int write_json(FILE *f, void *d)
{
    return write_doc(f, d, false);
}

static int write_page(FILE *f, void *d)
{
    return ht_report_compare_page_head(f) == 0 && write_doc(f, d, true) == 0 &&
                   ht_report_compare_page_tail(f) == 0
               ? 0
               : -1;
}

static int parse(int argc, char **argv, struct options *o)
{
    int files = 0, rc;
    *o = (struct options){.fail_above = -1, .min_share = 0.01, .min_time = 0.001};
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
        } else if (a[0] == '-' && a[1] != '\0') {
            return ht_report_usage_error("unknown option for --compare '%s'", a);
        } else if (files == 2) {
            return ht_report_usage_error("--compare takes two profiles: '%s' is a third", a);
        } else {
            o->files[files++] = a;
        }
    }
    if (files != 2)
        return ht_report_usage_error("--compare needs two profiles, BASE.json and NEW.json", NULL);
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
    struct options o;
    int status = parse(argc, argv, &o);
    if (status != 0)
        return status;
    struct ht_rp_profile base, new;
    if (ht_rp_load_phase(&base, o.files[0], o.phases[0], HT_REPORT_PROGRAM) != 0)
        return HT_REPORT_BAD_INPUT;
    if (ht_rp_load_phase(&new, o.files[1], o.phases[1], HT_REPORT_PROGRAM) != 0) {
        ht_rp_free(&base);
        return HT_REPORT_BAD_INPUT;
    }
    size_t n = 0;
    struct row *rows = match(&base, &new, &n);
    char *fallback = NULL;
    json_t *doc = json_object(), *slower = json_array(), *counts = json_object();
    status = HT_REPORT_BAD_INPUT;
    if (!rows || !doc || !slower || !counts) {
        fprintf(stderr, HT_REPORT_PROGRAM ": out of memory\n");
        goto out;
    }
    double threshold = fmax(o.min_share * base.total, o.min_time);
    size_t hits = o.fail_above >= 0 ? gate(rows, n, &o, threshold, slower) : 0;
    size_t count[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++)
        count[status_of(&rows[i])]++;
    for (int k = 0; k < 3; k++)
        json_object_set_new(counts, status_names[k], json_integer((json_int_t)count[k]));

    json_object_set_new(doc, "kind", json_string("compare"));
    json_object_set_new(doc, "base", ht_rp_run_info(&base));
    json_object_set_new(doc, "new", ht_rp_run_info(&new));
    json_t *g = json_object();
    json_object_set_new(g, "fail_above", o.fail_above >= 0 ? json_real(o.fail_above) : json_null());
    json_object_set_new(g, "min_share", json_real(o.min_share));
    json_object_set_new(g, "min_time_s", json_real(o.min_time));
    json_object_set_new(g, "threshold_s", json_real(threshold));
    json_object_set(g, "slower", slower);
    json_object_set_new(doc, "gate", g);
    json_object_set(doc, "counts", counts);
    json_object_set_new(doc, "page_rows", json_integer(PAGE_ROWS));
    struct doc d = {doc, rows, n, threshold};

    if (o.json && ht_report_write_file(HT_REPORT_PROGRAM, o.json, write_json, &d) != 0)
        goto out;
    if (!o.page && !o.json)
        o.page = fallback = default_page(o.files[1]);
    if (o.page && ht_report_write_file(HT_REPORT_PROGRAM, o.page, write_page, &d) != 0)
        goto out;
    status = HT_REPORT_OK;
    if (hits) {
        fprintf(stderr, HT_REPORT_PROGRAM ": %zu stack%s slowed by more than %g (stacks of at "
                        "least %.6f s in %s count)\n",
                hits, hits == 1 ? "" : "s", o.fail_above, threshold, o.files[0]);
        status = HT_REPORT_SLOWER;
    }
out:
    free(fallback);
    free(rows);
    json_decref(counts);
    json_decref(slower);
    json_decref(doc);
    ht_rp_free(&new);
    ht_rp_free(&base);
    return status;
}
