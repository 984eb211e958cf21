/* Options whose value is a list of plain strings, kept as given: the
 * counter events ("counters"), whose names only PAPI can check, at
 * start-up (src/counters). */
#include <stdlib.h>
#include <string.h>

#include "config/config_load.h"

void ht_string_list_free(struct ht_string_list *list)
{
    for (unsigned i = 0; i < list->count; i++)
        free(list->items[i]);
    free(list->items);
    *list = (struct ht_string_list){0};
}

int ht_config_apply_string_list(struct ht_config_load *ld, struct ht_string_list *dst,
                                const json_t *v, unsigned max, const char *what)
{
    if (json_is_string(v)) {
        char q[256];
        ht_config_quote(q, sizeof q, json_string_value(v));
        return ht_config_fail_at(ld, " must be an array of strings, not a string (for one write [%s])",
                                 q);
    }
    if (!json_is_array(v))
        return ht_config_fail_at(ld, " must be an array of strings, not %s",
                                 ht_config_type_name(v));
    size_t n = json_array_size(v);
    if (n > max)
        return ht_config_fail_at(ld, " names %zu entries; at most %u are allowed", n, max);
    struct ht_string_list list = {0};
    if (n > 0 && !(list.items = calloc(n, sizeof *list.items)))
        return ht_config_out_of_memory(ld);
    int rc = 0;
    ld->path[ld->depth++] = (struct ht_config_path_step){.key = NULL, .index = 0};
    for (size_t i = 0; i < n && rc == 0; i++) {
        ld->path[ld->depth - 1].index = i;
        const json_t *e = json_array_get(v, i);
        if (!json_is_string(e) || json_string_length(e) == 0) {
            rc = json_is_string(e) ? ht_config_fail_at(ld, " must be %s, not \"\"", what)
                                   : ht_config_fail_at(ld, " must be %s (a string), not %s", what,
                                                       ht_config_type_name(e));
            break;
        }
        if (!(list.items[i] = strdup(json_string_value(e)))) {
            rc = ht_config_out_of_memory(ld);
            break;
        }
        list.count = (unsigned)i + 1;
    }
    ld->depth--;
    if (rc != 0) {
        ht_string_list_free(&list);
        return rc;
    }
    ht_string_list_free(dst);
    *dst = list;
    return 0;
}
