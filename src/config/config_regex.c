/* Options whose value is a list of patterns (include_functions,
 * exclude_functions, throttle.never, ...): plain names go into a hash set,
 * the rest are compiled as POSIX extended regular expressions within the
 * limits of patterns.h, so that no config can make start-up hang or take
 * gigabytes (docs/config.md). */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/config_internal.h"
#include "config/config_load.h"
#include "config/patterns.h"

/* Compiles a pattern that is not plain into list->compiled[list->nregex]. */
static int compile_regex(struct ht_config_load *ld, struct ht_regex_list *list,
                         const char *pattern)
{
    char q[256];
    if (list->nregex == HT_PATTERN_MAX_REGEX)
        return ht_config_fail_at(ld,
                                 ": too many regular expressions in one list: at most %d (plain "
                                 "names, \"^name\", \"name$\" and \"^name$\" are not counted)",
                                 HT_PATTERN_MAX_REGEX);
    long stacked = ht_pattern_stacked_repetition(pattern);
    if (stacked >= 0) {
        ht_config_quote(q, sizeof q, pattern);
        return ht_config_fail_at(ld,
                                 ": regular expression %s has two repetition operators in a row "
                                 "(at offset %ld), which POSIX leaves undefined; write one",
                                 q, stacked);
    }
    long back = ht_pattern_back_reference(pattern);
    if (back >= 0) {
        ht_config_quote(q, sizeof q, pattern);
        return ht_config_fail_at(ld,
                                 ": regular expression %s has a back-reference (\\%c at offset "
                                 "%ld), which is matched by backtracking and can take seconds "
                                 "per name; back-references are not accepted",
                                 q, pattern[back + 1], back);
    }
    double size = ht_pattern_regex_size(pattern);
    if (size > HT_PATTERN_MAX_REGEX_SIZE) {
        ht_config_quote(q, sizeof q, pattern);
        return ht_config_fail_at(ld,
                                 ": regular expression %s is too complex: its repetitions (+, "
                                 "{m,n}) would expand to more than %d elements",
                                 q, HT_PATTERN_MAX_REGEX_SIZE);
    }
    list->regex_cost += size * size;
    if (list->regex_cost > HT_PATTERN_MAX_REGEX_COST)
        return ht_config_fail_at(ld,
                                 ": the regular expressions of this list are too complex "
                                 "together (their repetitions would take more than about "
                                 "100 MB); use plain names where you can");
    int code = regcomp(&list->compiled[list->nregex], pattern, REG_EXTENDED | REG_NOSUB);
    if (code != 0) {
        char why[256];
        regerror(code, &list->compiled[list->nregex], why, sizeof why);
        /* glibc leaves nothing allocated after a failed regcomp, but POSIX
         * does not promise that; regfree is safe either way. */
        regfree(&list->compiled[list->nregex]);
        ht_config_quote(q, sizeof q, pattern);
        return ht_config_fail_at(ld, ": invalid regular expression %s: %s", q, why);
    }
    list->nregex++;
    return 0;
}

int ht_config_apply_regex_list(struct ht_config_load *ld, struct ht_regex_list *dst,
                               const json_t *v)
{
    static const char expected[] = "an array of strings (regular expressions)";
    if (json_is_string(v)) {
        char q[256];
        ht_config_quote(q, sizeof q, json_string_value(v));
        return ht_config_fail_at(ld, " must be %s, not a string (for one pattern write [%s])",
                                 expected, q);
    }
    if (!json_is_array(v))
        return ht_config_wrong_type(ld, v, expected);

    struct ht_regex_list list = {0};
    size_t n = json_array_size(v);
    size_t nplain = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(v, i);
        nplain += json_is_string(e) && ht_pattern_is_plain(json_string_value(e));
    }
    if (n > 0) {
        list.patterns = calloc(n, sizeof *list.patterns);
        list.compiled = n > nplain ? calloc(n - nplain, sizeof *list.compiled) : NULL;
        list.plain = nplain ? ht_pattern_set_new(nplain) : NULL;
        if (!list.patterns || (n > nplain && !list.compiled) || (nplain && !list.plain)) {
            ht_regex_list_free(&list);
            return ht_config_out_of_memory(ld);
        }
    }

    /* failed: a problem that hooktrace-check-config goes on after (every
     * bad pattern of the list is reported); rc: one that ends the list. */
    int rc = 0, failed = 0;
    ld->path[ld->depth++] = (struct ht_config_path_step){.key = NULL, .index = 0};
    for (size_t i = 0; i < n && rc == 0; i++) {
        ld->path[ld->depth - 1].index = i;
        const json_t *e = json_array_get(v, i);
        if (!json_is_string(e)) {
            rc = ht_config_fail_at(ld, " must be a string (a regular expression), not %s",
                                   ht_config_type_name(e));
        } else {
            const char *pattern = json_string_value(e);
            list.patterns[i] = strdup(pattern);
            if (!list.patterns[i]) {
                rc = ht_config_out_of_memory(ld);
                break;
            }
            list.count = i + 1;
            if (ht_pattern_is_plain(pattern)) {
                if (ht_pattern_set_add(list.plain, list.patterns[i]) != 0)
                    rc = ht_config_out_of_memory(ld);
                continue;
            }
            rc = compile_regex(ld, &list, pattern);
        }
        if (rc != 0 && ht_config_go_on(ld)) {
            failed = rc;
            rc = 0;
        }
    }
    ld->depth--;
    if (rc == 0)
        rc = failed;

    if (rc != 0) {
        ht_regex_list_free(&list);
        return rc;
    }
    ht_regex_list_free(dst);
    *dst = list;
    return 0;
}
