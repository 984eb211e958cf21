/* A profile JSON read for comparison (profile.c; docs/compare.md): its
 * stacks keyed by call path, the names from the root, so that two builds
 * of one program, whose addresses and stack IDs may differ, line up. */
#ifndef HT_REPORT_PROFILE_H
#define HT_REPORT_PROFILE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* One call path's figures (summed over threads, and over ranks in an MPI
 * summary; summed again over stacks whose paths have the same names). */
struct ht_rp_stack {
    json_t *path;      /* array of names, root first */
    char *key;         /* path as compact JSON: the join key */
    double incl, excl; /* seconds */
    long long calls;
    long long messages; /* messages_sent + messages_received */
    long long bytes;    /* bytes_sent + bytes_received */
};

struct ht_rp_profile {
    const char *file;
    const char *phase; /* only this phase's subtree, its root left out; NULL: all */
    json_t *doc;
    struct ht_rp_stack *stacks; /* distinct paths, in the order of first appearance */
    size_t n;
    json_t *index;  /* key -> position in stacks */
    double total;   /* time_incl_s summed over the root stacks */
    int ranks;      /* "ranks", 1 when absent (a run without MPI) */
    bool merged;    /* an MPI summary: "ranks" and no "rank" */
    bool phase_found;
};

/* Reads and checks path; 0, or -1 with the reason on stderr (prefixed
 * with program). */
int ht_rp_load(struct ht_rp_profile *p, const char *path, const char *program);
/* The same for one named phase (hooktrace_phase, docs/regions.md): the
 * stacks below its root node "phase:NAME", with that node left out of
 * their paths, so that two phases line up by call path; -1 if the
 * profile has no such phase. */
int ht_rp_load_phase(struct ht_rp_profile *p, const char *path, const char *phase,
                     const char *program);
void ht_rp_free(struct ht_rp_profile *p);
/* The stack of this key, or NULL. */
const struct ht_rp_stack *ht_rp_find(const struct ht_rp_profile *p, const char *key);
/* The run's description for the comparison JSON: file, command, ranks ... */
json_t *ht_rp_run_info(const struct ht_rp_profile *p);
/* " > "-joined names, for messages; malloc'd. */
char *ht_rp_path_text(const json_t *path);

#endif
