/* Function-name pattern lists: plain names looked up in a hash table,
 * the rest compiled with regcomp (patterns.c says why). */
#ifndef HT_CONFIG_PATTERNS_H
#define HT_CONFIG_PATTERNS_H

#include <stdbool.h>
#include <stddef.h>

/* At most this many patterns of one list may need the regex engine
 * (docs/config.md); plain ones are not counted. */
#define HT_PATTERN_MAX_REGEX 1000
/* The largest regcomp tree a pattern may expand to (ht_pattern_regex_size).
 * glibc's memory grows with its square: a{1,1000} takes 10 MB, a{1,2000}
 * 34 MB, a{1,20000} 3 GB and 5 s. */
#define HT_PATTERN_MAX_REGEX_SIZE 1000
/* The most the squares of the sizes of one list's regexes may add up to:
 * about 100 MB of automata (ten patterns at the size limit; a thousand
 * ordinary ones of size 10-50 take a fraction of it). */
#define HT_PATTERN_MAX_REGEX_COST 10000000.0

struct ht_pattern_set;

/* Whether pattern matches like a plain string: no regex operator, ^ and $
 * only at its ends. */
bool ht_pattern_is_plain(const char *pattern);
/* The offset of a repetition operator (+ * ? {m,n}) that directly follows
 * another ("a++", "a*?"), or -1.  POSIX leaves their meaning undefined. */
long ht_pattern_stacked_repetition(const char *pattern);
/* The offset of a back-reference (\1 to \9 outside a bracket
 * expression), or -1. */
long ht_pattern_back_reference(const char *pattern);
/* An estimate of the nodes glibc's regcomp builds for pattern: + copies its
 * operand once more, {m,n} max(m,n) times, nested copies multiply. */
double ht_pattern_regex_size(const char *pattern);

/* A set for up to capacity plain patterns; the patterns' text must outlive
 * it (it points into them). */
struct ht_pattern_set *ht_pattern_set_new(size_t capacity);
/* -1 if pattern is not plain, or out of memory. */
int ht_pattern_set_add(struct ht_pattern_set *set, const char *pattern);
bool ht_pattern_set_matches(const struct ht_pattern_set *set, const char *name);
/* Whether the set holds "^name$" itself. */
bool ht_pattern_set_names(const struct ht_pattern_set *set, const char *name);
void ht_pattern_set_free(struct ht_pattern_set *set);

#endif
