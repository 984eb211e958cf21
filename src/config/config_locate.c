/* Finding the line of a key for error messages, and the "did you mean"
 * distance.
 *
 * jansson reports positions only for syntax errors, not for the keys of a
 * document it accepted, so we look for the key again in the raw text.  This
 * is a locator, not a parser: it runs only on text jansson has already
 * accepted (so it never checks for errors), and it walks just enough of the
 * structure -- strings, nesting of {} and [] -- that a key is found only in
 * its own object, never inside a string value or a nested object that
 * happens to use the same name.  Limits, all of which only cost the line
 * number (the message then starts "FILE: " instead of "FILE:LINE: "):
 *   - keys are compared byte for byte as written, so a key spelled with
 *     escapes ("\u006ff" for "off") is not found;
 *   - it assumes the bytes are those jansson parsed (we hand jansson the very
 *     buffer we scan, so they are). */
#include <string.h>

#include "config/config_internal.h"

static size_t skip_ws(const char *t, size_t len, size_t i)
{
    while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
    return i;
}

/* i is at the opening quote; returns the index just past the closing one. */
static size_t skip_string(const char *t, size_t len, size_t i)
{
    for (i++; i < len; i++) {
        if (t[i] == '\\')
            i++;
        else if (t[i] == '"')
            return i + 1;
    }
    return len;
}

static size_t skip_value(const char *t, size_t len, size_t i)
{
    if (i < len && t[i] == '"')
        return skip_string(t, len, i);
    if (i < len && (t[i] == '{' || t[i] == '[')) {
        int depth = 0;
        while (i < len) {
            char c = t[i];
            if (c == '"') {
                i = skip_string(t, len, i);
                continue;
            }
            if (c == '{' || c == '[')
                depth++;
            else if ((c == '}' || c == ']') && --depth == 0)
                return i + 1;
            i++;
        }
        return len;
    }
    /* A number or a literal: runs to the next delimiter. */
    while (i < len && !strchr(",}] \t\r\n", t[i]))
        i++;
    return i;
}

/* Moves past a ',' separating members or elements, if there is one. */
static size_t next_member(const char *t, size_t len, size_t i)
{
    i = skip_ws(t, len, i);
    if (i < len && t[i] == ',')
        i++;
    return skip_ws(t, len, i);
}

/* obj is at '{'.  On success sets *key_at (the opening quote of the key) and
 * *value_at (the first character of its value). */
static bool find_key(const char *t, size_t len, size_t obj, const char *key, size_t *key_at,
                     size_t *value_at)
{
    size_t klen = strlen(key);
    size_t i = skip_ws(t, len, obj + 1);
    while (i < len && t[i] == '"') {
        size_t start = i;
        size_t end = skip_string(t, len, i);
        bool same = end - start == klen + 2 && memcmp(t + start + 1, key, klen) == 0;
        i = skip_ws(t, len, end);
        if (i >= len || t[i] != ':')
            return false;
        i = skip_ws(t, len, i + 1);
        if (same) {
            *key_at = start;
            *value_at = i;
            return true;
        }
        i = next_member(t, len, skip_value(t, len, i));
    }
    return false;
}

/* arr is at '['. */
static bool find_element(const char *t, size_t len, size_t arr, size_t index, size_t *at)
{
    size_t i = skip_ws(t, len, arr + 1);
    for (size_t k = 0; i < len && t[i] != ']'; k++) {
        if (k == index) {
            *at = i;
            return true;
        }
        i = next_member(t, len, skip_value(t, len, i));
    }
    return false;
}

unsigned ht_config_locate_line(const char *text, size_t len, const struct ht_config_path_step *path,
                               size_t depth)
{
    if (!text)
        return 0;
    size_t value = skip_ws(text, len, 0);
    size_t found = value;
    for (size_t d = 0; d < depth; d++) {
        if (value >= len)
            return 0;
        if (path[d].key) {
            if (text[value] != '{' || !find_key(text, len, value, path[d].key, &found, &value))
                return 0;
        } else {
            if (text[value] != '[' || !find_element(text, len, value, path[d].index, &found))
                return 0;
            value = found;
        }
    }
    if (found >= len)
        return 0;
    unsigned line = 1;
    for (size_t i = 0; i < found; i++)
        if (text[i] == '\n')
            line++;
    return line;
}

size_t ht_config_edit_distance(const char *a, const char *b, size_t limit)
{
    enum { MAX = 64 };
    size_t la = strlen(a), lb = strlen(b);
    size_t diff = la > lb ? la - lb : lb - la;
    /* The length difference is a lower bound; it also keeps the rows below
     * on the stack, since the valid keys are short. */
    if (diff > limit || la > MAX || lb > MAX)
        return limit + 1 + diff;

    size_t rows[3][MAX + 1];
    size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            size_t best = prev[j - 1] + cost;
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                prev2[j - 2] + 1 < best)
                best = prev2[j - 2] + 1;
            cur[j] = best;
        }
        size_t *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}
