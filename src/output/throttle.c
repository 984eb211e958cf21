/* Throttling in the outputs: what the header line and the JSON "throttle"
 * object say (docs/output.md, docs/throttle.md). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

void ht_output_throttle_patching(const struct ht_throttle_info *th, char *buf, size_t len)
{
    if (!th->patch_code) {
        snprintf(buf, len, "off");
    } else if (th->patch_refused_errno) {
        const char *why = strerrordesc_np(th->patch_refused_errno);
        snprintf(buf, len, "refused: mprotect: %s", why ? why : "error");
    } else {
        snprintf(buf, len, "on");
    }
}

double ht_output_hook_calls_saved(const struct ht_throttle_info *th, const struct ht_profile *p)
{
    /* Without rewritten calls, every throttled call still reaches a hook. */
    if (th->sites_patched == 0)
        return 0.0;
    double saved = th->hook_calls_avoided - (double)p->throttled_hook_calls;
    return saved > 0.0 ? saved : 0.0;
}

static int compare_function_ptrs(const void *pa, const void *pb)
{
    const struct ht_function *a = *(const struct ht_function *const *)pa;
    const struct ht_function *b = *(const struct ht_function *const *)pb;
    int c = strcmp(a->name, b->name);
    if (c)
        return c;
    c = strcmp(a->file ? a->file : "", b->file ? b->file : "");
    return c ? c : (a->line > b->line) - (a->line < b->line);
}

size_t ht_output_throttled_functions(const struct ht_profile *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->nstacks; i++)
        n += p->stacks[i].throttled;
    if (n == 0)
        return 0;
    const struct ht_function **fs = malloc(n * sizeof *fs);
    if (!fs)
        return n; /* an upper bound */
    n = 0;
    for (size_t i = 0; i < p->nstacks; i++)
        if (p->stacks[i].throttled)
            fs[n++] = p->stacks[i].function;
    qsort(fs, n, sizeof *fs, compare_function_ptrs);
    size_t distinct = 1;
    for (size_t i = 1; i < n; i++)
        distinct += compare_function_ptrs(&fs[i - 1], &fs[i]) != 0;
    free(fs);
    return distinct;
}

/* --- a compile-time exclude list ------------------------------------------ */

/* Rewritten calls still leave their argument set-up and what the compiler
 * gave up around a call (registers saved, loops not vectorised) in the
 * code; only recompiling without the hooks removes that.  GCC matches
 * -finstrument-functions-exclude-function-list entries as substrings of a
 * function's qualified name without its parameters (C++) or of its plain
 * name (C, Fortran), and splits the list at commas.  So: the parameter
 * list and a template function's return type are cut off, and a name with
 * a comma left in it (template arguments) is shortened to what follows its
 * last "::", its own template arguments dropped.  A Fortran
 * module::procedure (no parameter list) becomes its procedure name. */
static size_t matching_open(const char *name, size_t close)
{
    int depth = 0;
    for (size_t i = close + 1; i-- > 0;) {
        depth += (name[i] == ')') - (name[i] == '(');
        if (depth == 0)
            return i;
    }
    return 0;
}

/* The position just after the last top-level occurrence of "::" (outside
 * <...>) before end, or 0. */
static size_t after_last_scope(const char *name, size_t end)
{
    int depth = 0;
    size_t at = 0;
    for (size_t i = 0; i + 1 < end; i++) {
        depth += (name[i] == '<') - (name[i] == '>');
        if (depth == 0 && name[i] == ':' && name[i + 1] == ':')
            at = i + 2;
    }
    return at;
}

static size_t gcc_name(const char *name, char *out, size_t cap)
{
    size_t end = strlen(name);
    bool params = false;
    if (end >= 6 && strcmp(name + end - 6, " const") == 0)
        end -= 6;
    if (end > 0 && name[end - 1] == ')') {
        end = matching_open(name, end - 1);
        params = true;
    }
    size_t begin = 0;
    int depth = 0;
    for (size_t i = 0; i < end; i++) { /* a return type ends at a top-level space */
        depth += (name[i] == '<') - (name[i] == '>');
        if (depth == 0 && name[i] == ' ' && !(i >= 8 && strncmp(name + i - 8, "operator", 8) == 0))
            begin = i + 1;
    }
    if (!params || memchr(name + begin, ',', end - begin))
        begin += after_last_scope(name + begin, end - begin);
    size_t n = 0;
    depth = 0;
    for (size_t i = begin; i < end && n + 1 < cap; i++) {
        if (name[i] == '<' && strncmp(name + begin, "operator", 8) != 0)
            depth++;
        else if (name[i] == '>' && depth > 0)
            depth--;
        else if (depth == 0 && name[i] != ',')
            out[n++] = name[i];
    }
    out[n] = '\0';
    return n;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *ht_output_throttle_exclude_list(const struct ht_profile *p)
{
    size_t n = 0;
    char **names = malloc((p->nstacks + 1) * sizeof *names);
    if (!names)
        return NULL;
    for (size_t i = 0; i < p->nstacks; i++) {
        if (!p->stacks[i].throttled)
            continue;
        char buf[512];
        if (gcc_name(p->stacks[i].function->name, buf, sizeof buf) > 0 && (names[n] = strdup(buf)))
            n++;
    }
    qsort(names, n, sizeof *names, compare_strings);
    size_t length = 1;
    for (size_t i = 0; i < n; i++)
        length += strlen(names[i]) + 1;
    char *list = n ? malloc(length) : NULL;
    if (list) {
        char *at = list;
        for (size_t i = 0; i < n; i++) {
            if (i > 0 && strcmp(names[i], names[i - 1]) == 0)
                continue;
            at += sprintf(at, "%s%s", at == list ? "" : ",", names[i]);
        }
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return list;
}
