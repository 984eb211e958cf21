/* hooktrace-report --compare's pieces (docs/compare.md): the command and
 * its gate (compare.c), the runs of each side and their figures per call
 * path (compare_sides.c), the JSON, the page and the terminal table
 * (compare_write.c). */
#ifndef HT_REPORT_COMPARE_H
#define HT_REPORT_COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/profile.h"

enum { HT_CMP_BASE, HT_CMP_NEW };

struct ht_cmp_options {
    char **files[2]; /* each side's profiles, from its comma-separated list */
    size_t nfiles[2];
    const char *page, *json;
    const char *phases[2]; /* --base-phase, --new-phase; NULL: the whole run */
    double fail_above;     /* < 0: no gate */
    double min_share, min_time;
    size_t top; /* rows of the terminal table (--top) */
    bool force; /* --force: judge profiles of different rank counts */
};

/* One side of the comparison: its runs, read. */
struct ht_cmp_side {
    struct ht_rp_profile *runs;
    size_t n;
    double total;  /* the median of the runs' totals (ht_rp_profile.total) */
    size_t stacks; /* distinct call paths over its runs */
};

/* A call path's figures on one side, over the side's runs: a run without
 * the path counts as 0 (it spent no time there). */
struct ht_cmp_figures {
    size_t runs;                         /* of the side's runs, those with the path */
    double incl, excl;                   /* medians (seconds) */
    double incl_range[2], excl_range[2]; /* the smallest and largest run's */
    long long calls, messages, bytes;    /* low medians: one run's own count */
};

/* Where the new runs' range lies against the base runs' (rows of one run
 * a side have no range: UNKNOWN). */
enum ht_cmp_noise { HT_CMP_UNKNOWN, HT_CMP_WITHIN, HT_CMP_SLOWER, HT_CMP_FASTER };

struct ht_cmp_row {
    json_t *path; /* borrowed from a run's stack */
    const char *key;
    struct ht_cmp_figures side[2]; /* runs 0: not on that side */
    double change;                 /* |new - base| of the median inclusive times */
    enum ht_cmp_noise noise, noise_excl;
    bool counted, slower;
};

/* compare_sides.c */
/* Splits a comma-separated list of files; 0, or a usage error's status
 * (an empty name, a name given twice). */
int ht_cmp_split(const char *list, char ***files, size_t *n);
void ht_cmp_free_files(char **files, size_t n);
/* Reads a side's profiles (each one's phase if phase is not NULL); 0 or
 * -1, the reason on stderr. */
int ht_cmp_load(struct ht_cmp_side *s, char *const *files, size_t n, const char *phase);
void ht_cmp_free(struct ht_cmp_side *s);
/* Whether the profiles' figures are sums over different rank counts;
 * if so, describes the first two that differ in why. */
bool ht_cmp_ranks_differ(const struct ht_cmp_side sides[2], char *why, size_t size);
/* A row per call path of any run, most changed first, with its figures
 * and noise; NULL when out of memory. */
struct ht_cmp_row *ht_cmp_match(struct ht_cmp_side sides[2], size_t *n);
/* new / base of the medians; < 0 when there is none (a side without the
 * path, or a base of 0). */
double ht_cmp_ratio(const struct ht_cmp_row *r, bool excl);

/* compare_write.c */
struct ht_cmp_doc {
    json_t *head; /* everything but "stacks" */
    const struct ht_cmp_row *rows;
    size_t n;
};
int ht_cmp_write_json(FILE *f, void *doc);
int ht_cmp_write_page(FILE *f, void *doc);
/* The side's description for the JSON's "base" and "new". */
json_t *ht_cmp_side_info(const struct ht_cmp_side *s);
/* The terminal table: the first o->top rows and the gate's verdict. */
void ht_cmp_table(FILE *f, const struct ht_cmp_row *rows, size_t n, const struct ht_cmp_side sides[2],
                  const struct ht_cmp_options *o, size_t slower);
/* The page's rows per status (compare_write.c). */
enum { HT_CMP_PAGE_ROWS = 500 };

#endif
