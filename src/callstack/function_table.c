#define _GNU_SOURCE
#include "callstack/function_table.h"
#include "callstack/regions.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

struct entry {
    uintptr_t address;
    struct ht_function *function;
};

struct ht_function_table {
    struct ht_symbols *symbols;
    const struct ht_config *config;
    struct entry *slots; /* open addressing by address; address 0 = empty */
    size_t mask, count;
    struct ht_function **functions; /* distinct functions, to free them */
    size_t nfunctions, capacity;
    struct ht_function **by_place; /* open addressing by (name, file, line) */
    size_t place_mask;
    const char *self_object; /* libhooktrace's own file */
};

static size_t slot_of(const struct ht_function_table *t, uintptr_t a)
{
    uint64_t h = (uint64_t)a * 0x9E3779B97F4A7C15ull;
    return (size_t)(h ^ (h >> 32)) & t->mask;
}

struct ht_function_table *ht_function_table_new(struct ht_symbols *symbols,
                                                const struct ht_config *config)
{
    struct ht_function_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->symbols = symbols;
    t->config = config;
    Dl_info self;
    if (dladdr((void *)&ht_function_table_new, &self) && self.dli_fname)
        t->self_object = self.dli_fname;
    t->mask = 255;
    t->slots = calloc(t->mask + 1, sizeof *t->slots);
    if (!t->slots) {
        free(t);
        return NULL;
    }
    return t;
}

static int grow(struct ht_function_table *t)
{
    size_t old = t->mask + 1;
    struct entry *slots = calloc(old * 2, sizeof *slots);
    if (!slots)
        return -1;
    struct entry *previous = t->slots;
    t->slots = slots;
    t->mask = old * 2 - 1;
    for (size_t i = 0; i < old; i++) {
        if (!previous[i].address)
            continue;
        size_t s = slot_of(t, previous[i].address);
        while (slots[s].address)
            s = (s + 1) & t->mask;
        slots[s] = previous[i];
    }
    free(previous);
    return 0;
}

void ht_function_table_add(uintptr_t address, void *table)
{
    struct ht_function_table *t = table;
    if (address == 0)
        return;
    if ((t->count + 1) * 2 > t->mask + 1 && grow(t) != 0)
        return; /* out of memory: the address will show as unknown */
    size_t s = slot_of(t, address);
    for (; t->slots[s].address; s = (s + 1) & t->mask)
        if (t->slots[s].address == address)
            return;
    t->slots[s].address = address;
    t->count++;
}

static bool same_file(const char *a, const char *b)
{
    const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
    return strcmp(sa ? sa + 1 : a, sb ? sb + 1 : b) == 0;
}

static bool same_place(const struct ht_function *f, const struct ht_symbol *sym)
{
    if (strcmp(f->name, sym->name) != 0 || f->line != sym->line)
        return false;
    if (!f->file || !sym->file)
        return f->file == sym->file;
    return strcmp(f->file, sym->file) == 0;
}

static uint64_t hash_string(uint64_t h, const char *str)
{
    for (const unsigned char *c = (const unsigned char *)(str ? str : ""); *c; c++)
        h = (h ^ *c) * 0x100000001B3ull; /* FNV-1a */
    return h;
}

static size_t place_of(const struct ht_function_table *t, const char *name, const char *file,
                       unsigned line)
{
    uint64_t h = hash_string(hash_string(0xCBF29CE484222325ull, name), file) ^ line;
    return (size_t)(h ^ (h >> 29)) & t->place_mask;
}

static int grow_places(struct ht_function_table *t)
{
    size_t size = t->by_place ? (t->place_mask + 1) * 2 : 256;
    struct ht_function **slots = calloc(size, sizeof *slots);
    if (!slots)
        return -1;
    free(t->by_place);
    t->by_place = slots;
    t->place_mask = size - 1;
    for (size_t i = 0; i < t->nfunctions; i++) {
        const struct ht_function *f = t->functions[i];
        size_t s = place_of(t, f->name, f->file, f->line);
        while (slots[s])
            s = (s + 1) & t->place_mask;
        slots[s] = t->functions[i];
    }
    return 0;
}

static struct ht_function *intern(struct ht_function_table *t, const struct ht_symbol *sym)
{
    if ((t->nfunctions + 1) * 2 > (t->by_place ? t->place_mask + 1 : 0) && grow_places(t) != 0)
        return NULL;
    size_t s = place_of(t, sym->name, sym->file, sym->line);
    for (; t->by_place[s]; s = (s + 1) & t->place_mask)
        if (same_place(t->by_place[s], sym))
            return t->by_place[s];
    if (t->nfunctions == t->capacity) {
        size_t cap = t->capacity ? t->capacity * 2 : 64;
        struct ht_function **bigger = realloc(t->functions, cap * sizeof *bigger);
        if (!bigger)
            return NULL;
        t->functions = bigger;
        t->capacity = cap;
    }
    struct ht_function *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->name = sym->name; /* owned by the symbols module until it closes */
    f->file = sym->file;
    f->line = sym->line;
    f->kept = ht_config_function_kept(t->config, sym->name);
    t->functions[t->nfunctions++] = f;
    t->by_place[s] = f;
    return f;
}

void ht_function_table_adjust(const struct ht_function_table *t, struct ht_symbol *sym)
{
    /* An MPI routine is recorded at its wrapper in libhooktrace: its
     * "source" is our generated file, which means nothing to a user. */
    if (sym->object && t->self_object && same_file(sym->object, t->self_object)) {
        sym->file = NULL;
        sym->line = 0;
    }
}

int ht_function_table_resolve_known(struct ht_function_table *t,
                                    bool (*known)(uintptr_t address, struct ht_symbol *out,
                                                  void *ctx),
                                    void *ctx, size_t *local, size_t *shared)
{
    size_t here = 0, known_count = 0;
    /* The known ones first; the others are announced before any of them is
     * resolved, so that only the compile units holding them are read. */
    for (size_t i = 0; i <= t->mask; i++) {
        struct ht_symbol sym;
        if (!t->slots[i].address)
            continue;
        if (known && known(t->slots[i].address, &sym, ctx)) {
            known_count++;
            if (!(t->slots[i].function = intern(t, &sym)))
                return -1;
        } else {
            ht_symbols_want(t->symbols, t->slots[i].address);
        }
    }
    for (size_t i = 0; i <= t->mask; i++) {
        if (!t->slots[i].address || t->slots[i].function)
            continue;
        struct ht_symbol sym;
        const struct ht_region *region = ht_regions_at(t->slots[i].address);
        if (region) {
            /* A region is named as the program named it; it has no source. */
            sym = (struct ht_symbol){.name = region->name};
        } else {
            ht_symbols_resolve(t->symbols, t->slots[i].address, &sym);
            ht_function_table_adjust(t, &sym);
        }
        here++;
        if (!(t->slots[i].function = intern(t, &sym)))
            return -1;
    }
    if (local)
        *local = here;
    if (shared)
        *shared = known_count;
    return 0;
}

int ht_function_table_resolve(struct ht_function_table *t)
{
    return ht_function_table_resolve_known(t, NULL, NULL, NULL, NULL);
}

void ht_function_table_each(const struct ht_function_table *t,
                            void (*visit)(uintptr_t address, void *ctx), void *ctx)
{
    for (size_t i = 0; i <= t->mask; i++)
        if (t->slots[i].address)
            visit(t->slots[i].address, ctx);
}

const struct ht_function *ht_function_table_lookup(uintptr_t address, void *table)
{
    struct ht_function_table *t = table;
    size_t s = slot_of(t, address);
    for (; t->slots[s].address; s = (s + 1) & t->mask)
        if (t->slots[s].address == address)
            return t->slots[s].function;
    return NULL;
}

void ht_function_table_free(struct ht_function_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nfunctions; i++)
        free(t->functions[i]);
    free(t->functions);
    free(t->by_place);
    free(t->slots);
    free(t);
}
