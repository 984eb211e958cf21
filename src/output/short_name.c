/* Names cut to fit a column of the logfile (docs/output.md, "Names in the
 * logfile's columns").  A demangled C++ template function starts with its
 * return type ("ns::TypeTraits<double>::Scalar ns::f<...>(...)"), so
 * cutting at the end kept the return type and lost the function.  A name
 * too long is shortened one step at a time until it fits: the return type
 * and the parameter list dropped, then the template arguments elided to
 * "<...>", then the leading qualifiers replaced by "...", so that what is
 * left is always the tail of the function's own name.  Only the logfile's
 * tables use this; the stack list, the JSON and the other files keep full
 * names. */
#include <stdbool.h>
#include <string.h>

#include "output/output.h"

/* The length of an operator's name after the word "operator" at s: "()",
 * "[]", a run of symbol characters, or " type" of a conversion or
 * "new"/"delete" up to the parameter list. */
static size_t operator_length(const char *s, size_t n)
{
    if (n >= 2 && (strncmp(s, "()", 2) == 0 || strncmp(s, "[]", 2) == 0))
        return 2;
    size_t k = 0;
    if (n > 0 && s[0] == ' ') {
        while (k < n && s[k] != '(')
            k++;
        return k;
    }
    while (k < n && strchr("<>=!+-*/%^&|~,", s[k]))
        k++;
    return k;
}

static bool operator_at(const char *name, size_t i, size_t n)
{
    return n - i >= 8 && strncmp(name + i, "operator", 8) == 0 &&
           (i == 0 || name[i - 1] == ':' || name[i - 1] == ' ') &&
           (n - i == 8 || !((name[i + 8] >= 'a' && name[i + 8] <= 'z') ||
                            (name[i + 8] >= 'A' && name[i + 8] <= 'Z') || name[i + 8] == '_' ||
                            (name[i + 8] >= '0' && name[i + 8] <= '9')));
}

/* The function's qualified name within name[0..n): *start and *end around
 * it, without the return type before it (the last space outside brackets)
 * and the parameter list after it (the last parenthesised group outside
 * brackets that no "::" follows, so "(anonymous namespace)::f" stays). */
static void own_name(const char *name, size_t n, size_t *start, size_t *end)
{
    int depth = 0;
    size_t space = 0, params = n;
    bool have_space = false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (operator_at(name, i, n)) {
            i += 8 + operator_length(name + i + 8, n - i - 8) - 1;
            continue;
        }
        if (c == '(' && depth == 0 && !strstr(name + i, ")::"))
            params = i;
        if (c == '(' || c == '<' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == '>' || c == ']' || c == '}') && depth > 0)
            depth--;
        else if (c == ' ' && depth == 0 && params == n) {
            space = i + 1;
            have_space = true;
        }
        if (params < n)
            break;
    }
    *start = have_space && space < params ? space : 0;
    *end = params;
}

/* name[start..end) with every outermost "<...>" written as "<...>";
 * (size_t)-1 if that does not fit in cap. */
static size_t elide_templates(const char *name, size_t start, size_t end, char *out, size_t cap)
{
    size_t o = 0;
    int depth = 0;
    for (size_t i = start; i < end; i++) {
        char c = name[i];
        if (o + 6 >= cap)
            return (size_t)-1;
        if (depth == 0 && operator_at(name, i, end)) {
            size_t k = 8 + operator_length(name + i + 8, end - i - 8);
            if (o + k + 6 >= cap)
                return (size_t)-1;
            memcpy(out + o, name + i, k);
            o += k;
            i += k - 1;
            continue;
        }
        if (c == '<') {
            if (depth++ == 0) {
                memcpy(out + o, "<...>", 5);
                o += 5;
            }
        } else if (c == '>' && depth > 0) {
            depth--;
        } else if (depth == 0) {
            out[o++] = c;
        }
    }
    out[o] = '\0';
    return o;
}

const char *ht_output_short_name(const char *name, size_t max, char *buf, size_t cap)
{
    size_t n = strlen(name);
    if (n <= max || cap < max + 1 || max < 8)
        return name;
    size_t start, end;
    own_name(name, n, &start, &end);
    if (end - start <= max) {
        memcpy(buf, name + start, end - start);
        buf[end - start] = '\0';
        return buf;
    }
    char elided[1024];
    const char *work = elided;
    size_t w = elide_templates(name, start, end, elided, sizeof elided);
    if (w <= max) {
        memcpy(buf, work, w + 1);
        return buf;
    }
    if (w == (size_t)-1) { /* a huge name: the tail of it as it is */
        work = name + start;
        w = end - start;
    }
    /* The tail from a "::" on, behind "...": the innermost qualifiers and
     * the name itself; the name's own tail if even that does not fit. */
    size_t keep = max - 3;
    const char *tail = work + w - keep;
    for (const char *p = work; p + 2 <= work + w; p++)
        if (p[0] == ':' && p[1] == ':' && p >= tail) {
            tail = p;
            break;
        }
    memcpy(buf, "...", 3);
    size_t t = (size_t)(work + w - tail);
    memcpy(buf + 3, tail, t);
    buf[3 + t] = '\0';
    return buf;
}
