/* Score-P filter files (docs/config.md, "filter_file"), so that users bring
 * the files they already have:
 *
 *   SCOREP_REGION_NAMES_BEGIN
 *     EXCLUDE *helper*
 *     INCLUDE keep_me
 *     EXCLUDE MANGLED _ZN3foo*
 *   SCOREP_REGION_NAMES_END
 *
 * A rule's patterns run to the next keyword and may span lines; later
 * rules override earlier ones; patterns are fnmatch wildcards; MANGLED
 * matches the symbol name instead of the demangled one; # starts a
 * comment.  SCOREP_FILE_NAMES blocks are read and ignored (counted). */
#ifndef HT_CONFIG_REGION_FILTER_H
#define HT_CONFIG_REGION_FILTER_H

#include <stdbool.h>
#include <stddef.h>

struct ht_filter_rule {
    char *pattern;
    bool exclude; /* else INCLUDE */
    bool mangled; /* matched against the symbol (mangled) name */
};

struct ht_region_filter {
    struct ht_filter_rule *rules;
    size_t count;
    size_t file_rules_ignored; /* patterns in SCOREP_FILE_NAMES blocks */
};

/* Parses text (a whole file, NUL-terminated); on an error writes
 * "NAME:LINE: what" into err and returns -1, leaving *f empty. */
int ht_region_filter_parse(struct ht_region_filter *f, const char *text, const char *name,
                           char *err, size_t errlen);

/* Reads and parses the file at path (the same errors, and one for a file
 * that cannot be read). */
int ht_region_filter_load(struct ht_region_filter *f, const char *path, char *err, size_t errlen);

/* Whether the last rule matching the function excludes it: display is the
 * name as the profile shows it, symbol the ELF symbol's (NULL when unknown:
 * MANGLED rules then match nothing). */
bool ht_region_filter_excludes(const struct ht_region_filter *f, const char *display,
                               const char *symbol);

void ht_region_filter_free(struct ht_region_filter *f);

#endif
