/* Function-name pattern lists without a regex engine for the plain ones.
 *
 * A list of 700,000 names compiled with regcomp took 107 s and 2.7 GB
 * (each regex_t holds its own automaton), and every name was then tried
 * against each of them.  Most patterns in long lists are plain names: a
 * pattern without any of . [ ] ( ) * + ? { } | \ (and with ^ and $ only at
 * its ends) matches exactly as regexec would, as a substring, a prefix
 * (^name), a suffix (name$) or the whole name (^name$).  Those go into one
 * hash table and are looked up; only the rest are compiled, and of those a
 * list may have at most HT_PATTERN_MAX_REGEX.
 *
 * glibc's regcomp also copies the operand of + and {m,n} for each
 * repetition, so "a++++...+" or "((a{1,99}){1,99}){1,99}" takes gigabytes
 * (the fuzzer found this, docs/fuzzing.md); such a pattern is refused by
 * an estimate of that size before regcomp sees it.  Repetition operators
 * in a row ("a++", "a+?") are refused too: POSIX leaves them undefined,
 * and glibc's epsilon closure over them took minutes for 30 of them.
 * Back-references (\1 to \9, a glibc extension to extended regular
 * expressions) are refused: glibc matches them by backtracking, and one
 * "\1" pattern cost 11 s against the names of one profile at exit. */
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/patterns.h"

enum plain_kind { PLAIN_SUBSTRING = 0, PLAIN_PREFIX = 1, PLAIN_SUFFIX = 2, PLAIN_EXACT = 3 };

struct plain_entry {
    const char *text; /* into the list's pattern, not owned; NULL: a free slot */
    uint32_t len;
    uint32_t kind;
};

/* The distinct lengths of one kind, so that a name is looked up only at
 * the lengths some pattern has. */
struct length_list {
    uint32_t *lengths;
    size_t count, cap;
};

struct ht_pattern_set {
    struct plain_entry *slots;
    size_t mask; /* slots - 1, a power of two minus one */
    size_t used;
    struct length_list lengths[4];
    bool match_all; /* "", "^" or "$": every name matches */
};

static uint64_t hash(const char *s, size_t len, uint32_t kind)
{
    uint64_t h = 1469598103934665603ull ^ kind; /* FNV-1a */
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h ^ (h >> 29);
}

static const struct plain_entry *find(const struct ht_pattern_set *set, const char *s, size_t len,
                                      uint32_t kind)
{
    for (size_t i = hash(s, len, kind) & set->mask;; i = (i + 1) & set->mask) {
        const struct plain_entry *e = &set->slots[i];
        if (!e->text)
            return NULL;
        if (e->kind == kind && e->len == len && memcmp(e->text, s, len) == 0)
            return e;
    }
}

static int add_length(struct length_list *l, uint32_t len)
{
    for (size_t i = 0; i < l->count; i++)
        if (l->lengths[i] == len)
            return 0;
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        uint32_t *bigger = realloc(l->lengths, cap * sizeof *bigger);
        if (!bigger)
            return -1;
        l->lengths = bigger;
        l->cap = cap;
    }
    l->lengths[l->count++] = len;
    return 0;
}

/* Whether pattern is plain, and how: sets *text, *len, *kind. */
static bool classify(const char *pattern, const char **text, size_t *len, uint32_t *kind)
{
    size_t n = strlen(pattern);
    bool start = n > 0 && pattern[0] == '^';
    const char *body = pattern + start;
    size_t blen = n - start;
    bool end = blen > 0 && body[blen - 1] == '$';
    blen -= end;
    if (n > UINT32_MAX || strcspn(body, ".[]()*+?{}|\\^$") < blen)
        return false;
    *text = body;
    *len = blen;
    *kind = start && end ? PLAIN_EXACT : start ? PLAIN_PREFIX : end ? PLAIN_SUFFIX : PLAIN_SUBSTRING;
    return true;
}

bool ht_pattern_is_plain(const char *pattern)
{
    const char *text;
    size_t len;
    uint32_t kind;
    return classify(pattern, &text, &len, &kind);
}

/* --- the size regcomp would build --------------------------------------- */

#define MAX_GROUP_DEPTH 64

static double clamp(double v)
{
    return v > 1e18 ? 1e18 : v;
}

/* Skips a bracket expression at p[i] == '['; returns the index past ']'. */
static size_t skip_bracket(const char *p, size_t i)
{
    size_t n = strlen(p);
    i++;
    if (i < n && p[i] == '^')
        i++;
    if (i < n && p[i] == ']')
        i++; /* a ']' first is a member */
    while (i < n && p[i] != ']') {
        if (p[i] == '[' && i + 1 < n && (p[i + 1] == ':' || p[i + 1] == '.' || p[i + 1] == '=')) {
            char close = p[i + 1];
            const char *e = strchr(p + i + 2, close);
            while (e && e[1] != ']')
                e = strchr(e + 1, close);
            i = e ? (size_t)(e - p) + 2 : n;
        } else {
            i++;
        }
    }
    return i < n ? i + 1 : n;
}

/* Parses "{m}", "{m,}" or "{m,n}" at p[i] == '{'; returns the copies
 * regcomp makes of the operand (at least 1) and sets *next, or 0 if it is
 * not an interval (then '{' is an ordinary character or an error regcomp
 * reports). */
static double interval_copies(const char *p, size_t i, size_t *next)
{
    double m = 0, n = -1;
    size_t j = i + 1;
    if (p[j] < '0' || p[j] > '9')
        return 0;
    while (p[j] >= '0' && p[j] <= '9')
        m = clamp(m * 10 + (p[j++] - '0'));
    if (p[j] == ',') {
        j++;
        if (p[j] >= '0' && p[j] <= '9') {
            n = 0;
            while (p[j] >= '0' && p[j] <= '9')
                n = clamp(n * 10 + (p[j++] - '0'));
        } else {
            n = m + 1; /* {m,}: m copies and a star */
        }
    }
    if (p[j] != '}')
        return 0;
    *next = j + 1;
    double copies = n > m ? n : m;
    return copies < 1 ? 1 : copies;
}

long ht_pattern_stacked_repetition(const char *p)
{
    size_t n = strlen(p);
    bool after_repetition = false;
    for (size_t i = 0; i < n;) {
        char c = p[i];
        size_t next = i + 1;
        double copies = 0;
        bool repetition = c == '+' || c == '*' || c == '?'
                          || (c == '{' && (copies = interval_copies(p, i, &next)) > 0);
        if (repetition && after_repetition)
            return (long)i;
        after_repetition = repetition;
        if (c == '[')
            next = skip_bracket(p, i);
        else if (c == '\\' && i + 1 < n)
            next = i + 2;
        i = next;
    }
    return -1;
}

long ht_pattern_back_reference(const char *p)
{
    size_t n = strlen(p);
    for (size_t i = 0; i < n;) {
        if (p[i] == '[') {
            i = skip_bracket(p, i);
        } else if (p[i] == '\\' && i + 1 < n) {
            if (p[i + 1] >= '1' && p[i + 1] <= '9')
                return (long)i;
            i += 2;
        } else {
            i++;
        }
    }
    return -1;
}

double ht_pattern_regex_size(const char *p)
{
    /* Per open group: the finished alternatives, the current branch and
     * the last atom (what a repetition applies to). */
    double done[MAX_GROUP_DEPTH + 1], branch[MAX_GROUP_DEPTH + 1], last[MAX_GROUP_DEPTH + 1];
    size_t depth = 0;
    done[0] = branch[0] = last[0] = 0;
    size_t n = strlen(p);
    for (size_t i = 0; i < n;) {
        char c = p[i];
        size_t next = i + 1;
        double copies = 0;
        if (c == '(') {
            if (depth == MAX_GROUP_DEPTH)
                return 1e18;
            depth++;
            done[depth] = branch[depth] = last[depth] = 0;
        } else if (c == ')' && depth > 0) {
            double group = clamp(done[depth] + branch[depth] + last[depth] + 1);
            depth--;
            branch[depth] = clamp(branch[depth] + last[depth]);
            last[depth] = group;
        } else if (c == '|') {
            done[depth] = clamp(done[depth] + branch[depth] + last[depth] + 1);
            branch[depth] = last[depth] = 0;
        } else if (c == '+') {
            copies = 2;
        } else if (c == '*' || c == '?') {
            copies = 1;
        } else if (c == '{' && (copies = interval_copies(p, i, &next)) > 0) {
            /* copies set */
        } else {
            if (c == '[')
                next = skip_bracket(p, i);
            else if (c == '\\' && i + 1 < n)
                next = i + 2;
            branch[depth] = clamp(branch[depth] + last[depth]);
            last[depth] = 1;
        }
        if (copies > 0)
            last[depth] = clamp(last[depth] * copies + 1);
        i = next;
    }
    double total = 0;
    for (size_t d = 0; d <= depth; d++)
        total = clamp(total + done[d] + branch[d] + last[d]);
    return total;
}

/* --- the set -------------------------------------------------------------- */

struct ht_pattern_set *ht_pattern_set_new(size_t capacity)
{
    struct ht_pattern_set *set = calloc(1, sizeof *set);
    if (!set)
        return NULL;
    size_t slots = 16;
    while (slots < capacity * 2)
        slots *= 2;
    set->slots = calloc(slots, sizeof *set->slots);
    if (!set->slots) {
        free(set);
        return NULL;
    }
    set->mask = slots - 1;
    return set;
}

int ht_pattern_set_add(struct ht_pattern_set *set, const char *pattern)
{
    const char *text;
    size_t len;
    uint32_t kind;
    if (!classify(pattern, &text, &len, &kind))
        return -1;
    if (len == 0 && kind != PLAIN_EXACT) {
        set->match_all = true;
        return 0;
    }
    if (find(set, text, len, kind))
        return 0;
    if ((set->used + 1) * 2 > set->mask + 1)
        return -1; /* sized by the caller for every pattern: cannot happen */
    if (add_length(&set->lengths[kind], (uint32_t)len) != 0)
        return -1;
    size_t i = hash(text, len, kind) & set->mask;
    while (set->slots[i].text)
        i = (i + 1) & set->mask;
    set->slots[i] = (struct plain_entry){.text = text, .len = (uint32_t)len, .kind = kind};
    set->used++;
    return 0;
}

bool ht_pattern_set_matches(const struct ht_pattern_set *set, const char *name)
{
    if (set->match_all)
        return true;
    size_t n = strlen(name);
    if (set->used == 0)
        return false;
    if (set->lengths[PLAIN_EXACT].count && find(set, name, n, PLAIN_EXACT))
        return true;
    const struct length_list *l = &set->lengths[PLAIN_PREFIX];
    for (size_t i = 0; i < l->count; i++)
        if (l->lengths[i] <= n && find(set, name, l->lengths[i], PLAIN_PREFIX))
            return true;
    l = &set->lengths[PLAIN_SUFFIX];
    for (size_t i = 0; i < l->count; i++)
        if (l->lengths[i] <= n && find(set, name + n - l->lengths[i], l->lengths[i], PLAIN_SUFFIX))
            return true;
    l = &set->lengths[PLAIN_SUBSTRING];
    for (size_t i = 0; i < l->count; i++) {
        size_t len = l->lengths[i];
        for (size_t at = 0; len <= n && at <= n - len; at++)
            if (find(set, name + at, len, PLAIN_SUBSTRING))
                return true;
    }
    return false;
}

bool ht_pattern_set_names(const struct ht_pattern_set *set, const char *name)
{
    return set->used > 0 && set->lengths[PLAIN_EXACT].count &&
           find(set, name, strlen(name), PLAIN_EXACT);
}

void ht_pattern_set_free(struct ht_pattern_set *set)
{
    if (!set)
        return;
    for (int k = 0; k < 4; k++)
        free(set->lengths[k].lengths);
    free(set->slots);
    free(set);
}

bool ht_regex_list_names(const struct ht_regex_list *list, const char *name)
{
    return list->plain && ht_pattern_set_names(list->plain, name);
}

bool ht_regex_list_matches(const struct ht_regex_list *list, const char *name)
{
    if (list->plain && ht_pattern_set_matches(list->plain, name))
        return true;
    for (size_t i = 0; i < list->nregex; i++)
        if (regexec(&list->compiled[i], name, 0, NULL, 0) == 0)
            return true;
    return false;
}
