/* Score-P filter files (region_filter.h).  Score-P's own reader is the
 * reference: keywords are words on their own, a rule's patterns follow
 * its keyword up to the next keyword, over as many lines as they take. */
#include "config/region_filter.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILTER_BYTES (64u << 20)

enum block { NONE, REGIONS, FILES };

struct parse {
    struct ht_region_filter *f;
    const char *name;
    unsigned line;
    enum block block;
    unsigned block_line;
    int rule; /* -1: none yet in this block; else 0 include, 1 exclude */
    bool mangled, rule_empty;
    unsigned rule_line;
    char *err;
    size_t errlen;
};

__attribute__((format(printf, 3, 4))) static int fail(struct parse *p, unsigned line,
                                                      const char *fmt, ...)
{
    int n = snprintf(p->err, p->errlen, "%s:%u: ", p->name, line);
    if (n >= 0 && (size_t)n < p->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int add_rule(struct parse *p, const char *word, size_t len)
{
    struct ht_region_filter *f = p->f;
    if (p->block == FILES) { /* read, not applied (region_filter.h) */
        f->file_rules_ignored++;
        return 0;
    }
    struct ht_filter_rule *v = realloc(f->rules, (f->count + 1) * sizeof *v);
    if (!v)
        return fail(p, p->line, "out of memory");
    f->rules = v;
    char *pattern = strndup(word, len);
    if (!pattern)
        return fail(p, p->line, "out of memory");
    f->rules[f->count++] = (struct ht_filter_rule){pattern, p->rule == 1, p->mangled};
    return 0;
}

static bool is(const char *word, size_t len, const char *keyword)
{
    return strlen(keyword) == len && memcmp(word, keyword, len) == 0;
}

/* A rule keyword closes the rule before it, which must have had a pattern. */
static int close_rule(struct parse *p)
{
    if (p->rule >= 0 && p->rule_empty)
        return fail(p, p->rule_line, "%s%s with no pattern after it", p->rule ? "EXCLUDE" : "INCLUDE",
                    p->mangled ? " MANGLED" : "");
    return 0;
}

static int word(struct parse *p, const char *w, size_t len)
{
    if (p->block == NONE) {
        if (is(w, len, "SCOREP_REGION_NAMES_BEGIN") || is(w, len, "SCOREP_FILE_NAMES_BEGIN")) {
            p->block = w[7] == 'R' ? REGIONS : FILES;
            p->block_line = p->line;
            p->rule = -1;
            return 0;
        }
        return fail(p, p->line, "\"%.*s\" outside a SCOREP_REGION_NAMES_BEGIN ... "
                                "SCOREP_REGION_NAMES_END block", (int)(len > 200 ? 200 : len), w);
    }
    const char *end = p->block == REGIONS ? "SCOREP_REGION_NAMES_END" : "SCOREP_FILE_NAMES_END";
    if (is(w, len, end)) {
        if (close_rule(p) != 0)
            return -1;
        p->block = NONE;
        return 0;
    }
    if (is(w, len, "SCOREP_REGION_NAMES_BEGIN") || is(w, len, "SCOREP_FILE_NAMES_BEGIN") ||
        is(w, len, "SCOREP_REGION_NAMES_END") || is(w, len, "SCOREP_FILE_NAMES_END"))
        return fail(p, p->line, "%.*s inside the block opened at line %u, which %s closes",
                    (int)len, w, p->block_line, end);
    if (is(w, len, "EXCLUDE") || is(w, len, "INCLUDE")) {
        if (close_rule(p) != 0)
            return -1;
        p->rule = w[0] == 'E';
        p->mangled = false;
        p->rule_empty = true;
        p->rule_line = p->line;
        return 0;
    }
    if (is(w, len, "MANGLED") && p->rule >= 0 && p->rule_empty && !p->mangled) {
        p->mangled = true;
        return 0;
    }
    if (p->rule < 0)
        return fail(p, p->line, "pattern \"%.*s\" before any EXCLUDE or INCLUDE",
                    (int)(len > 200 ? 200 : len), w);
    p->rule_empty = false;
    return add_rule(p, w, len);
}

int ht_region_filter_parse(struct ht_region_filter *f, const char *text, const char *name,
                           char *err, size_t errlen)
{
    *f = (struct ht_region_filter){0};
    struct parse p = {.f = f, .name = name, .line = 1, .block = NONE, .rule = -1,
                      .err = err, .errlen = errlen};
    const char *s = text;
    int rc = 0;
    while (*s && rc == 0) {
        if (*s == '\n') {
            p.line++;
            s++;
        } else if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' || *s == '\v') {
            s++;
        } else if (*s == '#') {
            while (*s && *s != '\n')
                s++;
        } else {
            const char *w = s;
            while (*s && !strchr(" \t\r\f\v\n#", *s))
                s++;
            rc = word(&p, w, (size_t)(s - w));
        }
    }
    if (rc == 0 && p.block != NONE)
        rc = fail(&p, p.block_line, "%s has no %s", p.block == REGIONS ? "SCOREP_REGION_NAMES_BEGIN"
                                                                       : "SCOREP_FILE_NAMES_BEGIN",
                  p.block == REGIONS ? "SCOREP_REGION_NAMES_END" : "SCOREP_FILE_NAMES_END");
    if (rc != 0)
        ht_region_filter_free(f);
    return rc;
}

int ht_region_filter_load(struct ht_region_filter *f, const char *path, char *err, size_t errlen)
{
    *f = (struct ht_region_filter){0};
    FILE *in = fopen(path, "r");
    if (!in) {
        snprintf(err, errlen, "%s: cannot read the filter file: %s", path, strerror(errno));
        return -1;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    int rc = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            char *bigger = cap + 8192 > MAX_FILTER_BYTES ? NULL : realloc(text, cap + 8192);
            if (!bigger) {
                snprintf(err, errlen, "%s: a filter file of more than %u MiB", path,
                         MAX_FILTER_BYTES >> 20);
                rc = -1;
                break;
            }
            text = bigger;
            cap += 8192;
        }
        size_t n = fread(text + len, 1, 4096, in);
        len += n;
        if (n < 4096)
            break;
    }
    if (rc == 0 && ferror(in)) {
        snprintf(err, errlen, "%s: cannot read the filter file: %s", path, strerror(errno));
        rc = -1;
    }
    fclose(in);
    if (rc == 0) {
        text[len] = '\0';
        if (memchr(text, '\0', len)) {
            snprintf(err, errlen, "%s: not a text file (a NUL byte)", path);
            rc = -1;
        } else {
            rc = ht_region_filter_parse(f, text, path, err, errlen);
        }
    }
    free(text);
    return rc;
}

bool ht_region_filter_excludes(const struct ht_region_filter *f, const char *display,
                               const char *symbol)
{
    for (size_t i = f->count; i-- > 0;) {
        const struct ht_filter_rule *r = &f->rules[i];
        const char *name = r->mangled ? symbol : display;
        if (name && fnmatch(r->pattern, name, 0) == 0)
            return r->exclude;
    }
    return false;
}

void ht_region_filter_free(struct ht_region_filter *f)
{
    for (size_t i = 0; i < f->count; i++)
        free(f->rules[i].pattern);
    free(f->rules);
    *f = (struct ht_region_filter){0};
}
