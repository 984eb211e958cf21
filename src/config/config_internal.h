/* Shared between the files of the config module only. */
#ifndef HT_CONFIG_CONFIG_INTERNAL_H
#define HT_CONFIG_CONFIG_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"

/* The sort_by values, indexed by enum ht_sort_column, NULL-terminated so the
 * validation table can use it as its list of accepted values. */
extern const char *const ht_sort_column_names[];

/* Replaces a string option, freeing the old value unless it is the static
 * default that ht_config_defaults installs (so that defaults never fail). */
int ht_config_set_string(char **field, const char *value);

void ht_regex_list_free(struct ht_regex_list *list);
void ht_rank_set_free(struct ht_rank_set *set);
void ht_string_list_free(struct ht_string_list *list);

/* ht_config_load_file, where named_by (if not NULL) says where the file name
 * came from, for the message when the file cannot be read. */
int ht_config_load(const char *path, const char *named_by, struct ht_config *cfg, char *err,
                   size_t errlen);

/* The largest config file read (docs/configure.md): room for about a million
 * function names in a pattern list, and a bound on what reading a config
 * can take from the profiled program. */
#define HT_CONFIG_MAX_FILE_BYTES (16 << 20)

/* Checks text (len bytes, NUL-terminated) as the config file path: what
 * ht_config_load does after reading the file.  The fuzzer's entry point. */
int ht_config_parse_text(const char *path, const char *text, size_t len, struct ht_config *cfg,
                         char *err, size_t errlen);

/* One step of the way from the top-level object to a value: an object key,
 * or (key == NULL) an array index.  Error messages print the path and the
 * locator uses it to find the line. */
struct ht_config_path_step {
    const char *key;
    size_t index;
};

/* Returns the 1-based line of the last step of path in text (the key's
 * opening quote, or the array element's first character; for an empty path
 * the first character of the top-level value), or 0 when it is not found. */
unsigned ht_config_locate_line(const char *text, size_t len, const struct ht_config_path_step *path,
                               size_t depth);

/* Optimal-string-alignment distance (insertions, deletions, substitutions and
 * swaps of neighbours), or any value > limit once it is known to exceed it. */
size_t ht_config_edit_distance(const char *a, const char *b, size_t limit);

/* snprintf that appends at *pos and never overruns: the message is cut short
 * instead.  Keeps building multi-part messages free of length arithmetic. */
void ht_config_appendf(char *buf, size_t size, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void ht_config_vappendf(char *buf, size_t size, size_t *pos, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

#endif
