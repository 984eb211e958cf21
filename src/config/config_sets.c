/* Options whose value is a set: of MPI ranks ("all", "none" or a list:
 * mpi.log_ranks, mpi.rank_files) or of names from a fixed list
 * (mpi_t.pvar_classes).  Kept apart from config_options.c, which holds
 * the tables and the scalar kinds. */
#include <stdlib.h>
#include <string.h>

#include "config/config_load.h"

int ht_config_apply_rank_set(struct ht_config_load *ld, struct ht_rank_set *dst, const json_t *v)
{
    static const char expected[] = "\"all\", \"none\" or an array of ranks (integers >= 0)";
    struct ht_rank_set set = {0};
    if (json_is_string(v)) {
        const char *word = json_string_value(v);
        if (strcmp(word, "all") == 0)
            set.all = true;
        else if (strcmp(word, "none") != 0) {
            char q[256];
            ht_config_quote(q, sizeof q, word);
            return ht_config_fail_at(ld, " must be %s, not %s", expected, q);
        }
    } else if (json_is_array(v)) {
        size_t n = json_array_size(v);
        int failed = 0;
        set.ranks = calloc(n ? n : 1, sizeof *set.ranks);
        if (!set.ranks)
            return ht_config_out_of_memory(ld);
        ld->path[ld->depth++] = (struct ht_config_path_step){.key = NULL, .index = 0};
        for (size_t i = 0; i < n; i++) {
            ld->path[ld->depth - 1].index = i;
            const json_t *e = json_array_get(v, i);
            if (!json_is_integer(e) || json_integer_value(e) < 0 ||
                json_integer_value(e) > 0x7fffffff) {
                int rc = json_is_integer(e)
                             ? ht_config_fail_at(ld, " must be a rank (an integer >= 0), not %" JSON_INTEGER_FORMAT,
                                                 json_integer_value(e))
                             : ht_config_fail_at(ld, " must be a rank (an integer >= 0), not %s",
                                                 ht_config_type_name(e));
                if (ht_config_go_on(ld)) { /* every bad rank, for the checker */
                    failed = rc;
                    continue;
                }
                ld->depth--;
                free(set.ranks);
                return rc;
            }
            set.ranks[set.count++] = (int)json_integer_value(e);
        }
        ld->depth--;
        if (failed) {
            free(set.ranks);
            return failed;
        }
    } else {
        return ht_config_wrong_type(ld, v, expected);
    }
    ht_rank_set_free(dst);
    *dst = set;
    return 0;
}

int ht_config_apply_name_set(struct ht_config_load *ld, const char *const *names, unsigned *dst,
                             const json_t *v)
{
    char list[512], expected[600];
    size_t pos = 0;
    for (size_t i = 0; names[i]; i++)
        ht_config_appendf(list, sizeof list, &pos, "%s\"%s\"", i ? ", " : "", names[i]);
    snprintf(expected, sizeof expected, "an array of names (%s)", list);
    if (json_is_string(v)) {
        char q[256];
        ht_config_quote(q, sizeof q, json_string_value(v));
        return ht_config_fail_at(ld, " must be %s, not a string (for one name write [%s])",
                                 expected, q);
    }
    if (!json_is_array(v))
        return ht_config_wrong_type(ld, v, expected);

    unsigned bits = 0;
    int rc = 0, failed = 0;
    ld->path[ld->depth++] = (struct ht_config_path_step){.key = NULL, .index = 0};
    for (size_t i = 0; i < json_array_size(v) && rc == 0; i++) {
        ld->path[ld->depth - 1].index = i;
        const json_t *e = json_array_get(v, i);
        if (!json_is_string(e)) {
            rc = ht_config_fail_at(ld, " must be one of %s, not %s", list, ht_config_type_name(e));
            if (ht_config_go_on(ld)) { /* every bad name, for the checker */
                failed = rc;
                rc = 0;
                continue;
            }
            break;
        }
        const char *name = json_string_value(e);
        const char *closest = NULL;
        size_t best = 3;
        int found = -1;
        for (int k = 0; names[k] && found < 0; k++) {
            if (strcmp(name, names[k]) == 0)
                found = k;
            size_t d = ht_config_edit_distance(name, names[k], 2);
            if (d < best) {
                best = d;
                closest = names[k];
            }
        }
        if (found >= 0) {
            bits |= 1u << found;
            continue;
        }
        char q[256];
        ht_config_quote(q, sizeof q, name);
        if (closest)
            rc = ht_config_fail_at(ld, " must be one of %s, not %s (did you mean \"%s\"?)", list,
                                   q, closest);
        else
            rc = ht_config_fail_at(ld, " must be one of %s, not %s", list, q);
        if (ht_config_go_on(ld)) {
            failed = rc;
            rc = 0;
        }
    }
    ld->depth--;
    if (rc == 0)
        rc = failed;
    if (rc == 0)
        *dst = bits;
    return rc;
}
