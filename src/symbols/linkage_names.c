/* Display name -> ELF symbol name, for the file of exact exclusions a run
 * writes beside its profile (docs/throttle.md): the GCC plugin's
 * exclude-file takes assembler names, which are the ELF symbols' own. */
#include <stdlib.h>
#include <string.h>

#include "symbols/symbols.h"

struct lookup {
    const char **wanted; /* sorted */
    size_t nwanted;
    char **names;
    size_t count, capacity;
    bool failed;
};

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool wanted(const char *name, void *ctx)
{
    const struct lookup *l = ctx;
    return bsearch(&name, l->wanted, l->nwanted, sizeof *l->wanted, compare_strings) != NULL;
}

static void found(uintptr_t address, const char *symbol, void *ctx)
{
    (void)address;
    struct lookup *l = ctx;
    if (!symbol || l->failed)
        return;
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? 2 * l->capacity : 16;
        char **v = realloc(l->names, cap * sizeof *v);
        if (!v) {
            l->failed = true;
            return;
        }
        l->names = v;
        l->capacity = cap;
    }
    if (!(l->names[l->count] = strdup(symbol)))
        l->failed = true;
    else
        l->count++;
}

int ht_symbols_linkage_names(const char *const *display, size_t n, struct ht_name_list *out)
{
    *out = (struct ht_name_list){0};
    if (n == 0)
        return 0;
    struct lookup l = {.wanted = malloc(n * sizeof *l.wanted), .nwanted = n};
    if (!l.wanted)
        return -1;
    memcpy(l.wanted, display, n * sizeof *display);
    qsort(l.wanted, n, sizeof *l.wanted, compare_strings);
    ht_symbols_scan_objects(HT_SCAN_INSTRUMENTED, wanted, &l, found, &l);
    free(l.wanted);
    /* A function in the symbol tables of two objects, or under two
     * symbols of one object (an alias) is listed once per name. */
    if (l.count)
        qsort(l.names, l.count, sizeof *l.names, compare_strings);
    size_t kept = 0;
    for (size_t i = 0; i < l.count; i++) {
        if (kept && strcmp(l.names[kept - 1], l.names[i]) == 0)
            free(l.names[i]);
        else
            l.names[kept++] = l.names[i];
    }
    out->names = (const char **)l.names;
    out->count = kept;
    return l.failed ? -1 : 0;
}
