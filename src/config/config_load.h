/* The state of reading one config file, shared by config_file.c (reading,
 * messages) and config_options.c (what the options are). */
#ifndef HT_CONFIG_CONFIG_LOAD_H
#define HT_CONFIG_CONFIG_LOAD_H

#include <jansson.h>
#include <stddef.h>

#include "config/config.h"
#include "config/config_internal.h"

#define HT_CONFIG_MAX_PATH_DEPTH 8 /* deeper files fail with a clear message */

struct ht_config_load {
    const char *file;
    const char *text; /* the raw file, for finding lines */
    size_t len;
    struct ht_config *cfg;
    struct ht_config_path_step path[HT_CONFIG_MAX_PATH_DEPTH]; /* of the current value */
    size_t depth;
    char *err;
    size_t errlen;
    /* NULL: the first problem ends reading (the runtime).  Else each
     * problem's message goes here and reading goes on, so that
     * hooktrace-check-config lists every problem of a file. */
    void (*report)(void *arg, const char *message);
    void *report_arg;
};

/* Checks the top-level object against the option tables and stores the
 * values in ld->cfg; returns -1 after writing the first problem's message. */
int ht_config_apply_options(struct ht_config_load *ld, json_t *root);

/* Write "FILE:LINE: " (the line of the current path, if found) and the
 * formatted text into ld->err; return -1 so callers can `return fail(...)`. */
int ht_config_fail(struct ht_config_load *ld, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The same with the current path ("outputs.json", "exclude_functions"[2])
 * after the prefix; fmt continues it, as in " must be ...". */
int ht_config_fail_at(struct ht_config_load *ld, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int ht_config_out_of_memory(struct ht_config_load *ld);
/* After a problem (its message in ld->err): whether reading goes on, which
 * it does only with a report function, which has then been given the
 * message (ld->err is empty again). */
bool ht_config_go_on(struct ht_config_load *ld);

/* The rules of string options beyond being a string (config_names.c);
 * each returns -1 after writing the message for the current path. */
int ht_config_check_directory(struct ht_config_load *ld, const char *value);
int ht_config_check_basename(struct ht_config_load *ld, const char *value);
int ht_config_check_trace_name(struct ht_config_load *ld, const char *value);
/* filter_file: reads the Score-P filter file (a relative path is taken
 * from the config file's directory) into ld->cfg->region_filter. */
int ht_config_load_filter_file(struct ht_config_load *ld, const char *value);

/* s as it would be written in JSON, in quotes. */
void ht_config_quote(char *buf, size_t size, const char *s);
/* "a string", "an integer", ... for "not ..." in messages. */
const char *ht_config_type_name(const json_t *v);

/* " must be <expected>, not <what v is>", with a hint when v is the right
 * value in quotes (config_options.c). */
int ht_config_wrong_type(struct ht_config_load *ld, const json_t *v, const char *expected);

/* OPT_REGEX_LIST (config_regex.c): replaces *dst only when every pattern
 * of v is accepted. */
struct ht_regex_list;
int ht_config_apply_regex_list(struct ht_config_load *ld, struct ht_regex_list *dst,
                               const json_t *v);

/* An array of at most max non-empty strings into *dst (replaced), for
 * OPT_STRING_LIST (config_strings.c).  what: "an event name", ... */
int ht_config_apply_string_list(struct ht_config_load *ld, struct ht_string_list *dst,
                                const json_t *v, unsigned max, const char *what);

/* OPT_RANK_SET (config_sets.c): "all", "none" or an array of ranks into
 * *dst (replaced only when every rank is accepted). */
int ht_config_apply_rank_set(struct ht_config_load *ld, struct ht_rank_set *dst, const json_t *v);
/* OPT_NAME_SET (config_sets.c): an array of names from the NULL-terminated
 * names, as a bit set (bit i for names[i]) into *dst: ["counter", "timer"].
 * Each element is checked like an OPT_ENUM value. */
int ht_config_apply_name_set(struct ht_config_load *ld, const char *const *names, unsigned *dst,
                             const json_t *v);

#endif
