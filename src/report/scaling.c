/* hooktrace-report --scaling P1.json P2.json ... (docs/compare.md): the
 * profiles of one program at different rank counts, time per stack against
 * ranks for the stacks with the most time, with their efficiency. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/cli.h"
#include "report/page.h"
#include "report/profile.h"

struct top {
    const char *key;
    json_t *path;
    double score; /* the most time per rank in any profile */
};

static int by_ranks(const void *a, const void *b)
{
    const struct ht_rp_profile *x = a, *y = b;
    return (x->ranks > y->ranks) - (x->ranks < y->ranks);
}

static int by_score(const void *a, const void *b)
{
    const struct top *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return strcmp(x->key, y->key);
}

/* Time per rank and efficiency against the first profile (fewest ranks):
 * T = time_incl_s / P, efficiency = T1*P1 / (Tp*Pp); null where a profile
 * lacks the figure. */
static void series(const struct ht_rp_profile *p, size_t np, const double *incl, json_t *out)
{
    json_t *t = json_array(), *e = json_array(), *s = json_array();
    double t1 = incl[0] >= 0 ? incl[0] / p[0].ranks : -1;
    for (size_t i = 0; i < np; i++) {
        double ti = incl[i] >= 0 ? incl[i] / p[i].ranks : -1;
        json_array_append_new(s, incl[i] >= 0 ? json_real(incl[i]) : json_null());
        json_array_append_new(t, ti >= 0 ? json_real(ti) : json_null());
        json_array_append_new(e, t1 >= 0 && ti > 0
                                     ? json_real(t1 * p[0].ranks / (ti * p[i].ranks))
                                     : json_null());
    }
    json_object_set_new(out, "time_incl_s", s);
    json_object_set_new(out, "time_s", t);
    json_object_set_new(out, "efficiency", e);
}

static int parse(int argc, char **argv, const char **files, size_t *nfiles, const char **page,
                 const char **json, double *top)
{
    int rc;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--scaling") == 0)
            continue;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--json") == 0) {
            if (!v)
                return ht_report_usage_error("%s needs a file name", a);
            *(a[1] == 'o' ? page : json) = v;
            i++;
        } else if (strcmp(a, "--top") == 0) {
            if ((rc = ht_report_number(a, v, 1, top)) != 0)
                return rc;
            if (*top != (double)(int)*top)
                return ht_report_usage_error("--top: '%s' is not a whole number", v);
            i++;
        } else if (a[0] == '-' && a[1] != '\0') {
            return ht_report_usage_error("unknown option for --scaling '%s'", a);
        } else {
            files[(*nfiles)++] = a;
        }
    }
    if (*nfiles < 2)
        return ht_report_usage_error("--scaling needs two profiles or more", NULL);
    return 0;
}

int ht_report_scaling_main(int argc, char **argv)
{
    const char **files = calloc((size_t)argc, sizeof *files);
    struct ht_rp_profile *p = calloc((size_t)argc, sizeof *p);
    const char *page = NULL, *json = NULL;
    size_t np = 0, nloaded = 0, ntop = 0, cap = 0;
    double top = 10;
    struct top *tops = NULL;
    double *incl = NULL;
    json_t *doc = NULL;
    int status = HT_REPORT_BAD_INPUT;
    if (!files || !p) {
        fprintf(stderr, HT_REPORT_PROGRAM ": out of memory\n");
        goto out;
    }
    if ((status = parse(argc, argv, files, &np, &page, &json, &top)) != 0)
        goto out;
    status = HT_REPORT_BAD_INPUT;
    for (; nloaded < np; nloaded++)
        if (ht_rp_load(&p[nloaded], files[nloaded], HT_REPORT_PROGRAM) != 0)
            goto out;
    qsort(p, np, sizeof *p, by_ranks);
    for (size_t i = 1; i < np; i++)
        if (p[i].ranks == p[i - 1].ranks) {
            fprintf(stderr, HT_REPORT_PROGRAM ": %s and %s both have %d ranks: --scaling "
                            "needs one profile per rank count\n", p[i - 1].file, p[i].file,
                    p[i].ranks);
            goto out;
        }

    for (size_t i = 0; i < np; i++)
        cap += p[i].n;
    tops = calloc(cap + 1, sizeof *tops);
    incl = calloc(np, sizeof *incl);
    doc = json_object();
    if (!tops || !incl || !doc) {
        fprintf(stderr, HT_REPORT_PROGRAM ": out of memory\n");
        goto out;
    }
    /* Every path once (at its first profile), scored by its most time per
     * rank in any profile. */
    for (size_t i = 0; i < np; i++)
        for (size_t k = 0; k < p[i].n; k++) {
            const struct ht_rp_stack *s = &p[i].stacks[k];
            size_t j = 0;
            while (j < i && !ht_rp_find(&p[j], s->key))
                j++;
            if (j < i)
                continue;
            struct top *t = &tops[ntop++];
            *t = (struct top){s->key, s->path, 0};
            for (j = i; j < np; j++) {
                const struct ht_rp_stack *m = ht_rp_find(&p[j], s->key);
                if (m && m->incl / p[j].ranks > t->score)
                    t->score = m->incl / p[j].ranks;
            }
        }
    qsort(tops, ntop, sizeof *tops, by_score);
    if (ntop > (size_t)top)
        ntop = (size_t)top;

    json_t *profiles = json_array(), *ranks = json_array(), *stacks = json_array();
    json_t *run = json_object();
    for (size_t i = 0; i < np; i++) {
        json_array_append_new(profiles, ht_rp_run_info(&p[i]));
        json_array_append_new(ranks, json_integer(p[i].ranks));
        incl[i] = p[i].total;
    }
    series(p, np, incl, run);
    for (size_t k = 0; k < ntop; k++) {
        json_t *s = json_object();
        json_object_set(s, "path", tops[k].path);
        for (size_t i = 0; i < np; i++) {
            const struct ht_rp_stack *m = ht_rp_find(&p[i], tops[k].key);
            incl[i] = m ? m->incl : -1;
        }
        series(p, np, incl, s);
        json_array_append_new(stacks, s);
    }
    json_object_set_new(doc, "kind", json_string("scaling"));
    json_object_set_new(doc, "ranks", ranks);
    json_object_set_new(doc, "profiles", profiles);
    json_object_set_new(doc, "top", json_integer((json_int_t)top));
    json_object_set_new(doc, "run", run);
    json_object_set_new(doc, "stacks", stacks);

    if (json && ht_report_write_file(HT_REPORT_PROGRAM, json, ht_report_write_json, doc) != 0)
        goto out;
    if (!page && !json)
        page = "scaling.html";
    if (page && ht_report_write_file(HT_REPORT_PROGRAM, page, ht_report_write_compare_page,
                                     doc) != 0)
        goto out;
    status = HT_REPORT_OK;
out:
    json_decref(doc);
    free(incl);
    free(tops);
    for (size_t i = 0; i < nloaded && p; i++)
        ht_rp_free(&p[i]);
    free(p);
    free(files);
    return status;
}
