/* Naming every function once per job.
 *
 * Reading a program's DWARF is the costliest part of shut-down, and every
 * rank of an SPMD job would read the same files for mostly the same
 * functions.  Instead:
 *   1. each rank turns its recorded addresses into keys (object identity,
 *      link-time offset: ht_symbols_key), for which no file is read;
 *   2. the sorted key sets travel up a binomial tree to rank 0, merged on
 *      the way (ceil(log2 P) rounds, data in proportion to the union);
 *   3. rank 0 resolves each key of the union once, with its own symbols,
 *      and broadcasts a table of names, files and lines;
 *   4. every rank names its functions from that table, and resolves itself
 *      only what rank 0 could not (a key of an object rank 0 has not
 *      loaded, as in an MPMD job, or an address in no object).
 * The names are exactly those a rank would have found itself: the same
 * binaries, the same symbols code.  Every rank takes part in every step,
 * also one with nothing to give (out of memory, no profile), so that
 * nobody waits forever; a failure anywhere that rank 0 sees makes every
 * rank resolve its own names, as before.
 *
 * Wire form of the table, in key order, machine byte order (every rank of
 * a job runs on the same kind of machine): per entry a uint64 object, a
 * uint64 offset, a uint32 line, a flag byte (1: a file follows), the name
 * and, if flagged, the file, each NUL-terminated. */
#include "merge/names.h"

#include <stdlib.h>
#include <string.h>

#include "merge/merge_internal.h"

struct key_set {
    struct ht_symbol_key *keys;
    size_t count, capacity;
    struct ht_symbols *symbols;
    bool failed;
};

struct entry {
    struct ht_symbol_key key;
    const char *name, *file;
    unsigned line;
};

struct ht_shared_names {
    char *wire; /* the names and files point into it */
    struct entry *entries;
    size_t count;
    struct ht_symbols *symbols;
};

static int key_cmp(const void *a, const void *b)
{
    const struct ht_symbol_key *x = a, *y = b;
    if (x->object != y->object)
        return x->object < y->object ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static void add_key(uintptr_t address, void *ctx)
{
    struct key_set *s = ctx;
    struct ht_symbol_key key = ht_symbols_key(s->symbols, address);
    if (!key.object || s->failed)
        return; /* in no object: cheap to name where it was seen */
    if (s->count == s->capacity) {
        size_t cap = s->capacity ? 2 * s->capacity : 256;
        struct ht_symbol_key *v = realloc(s->keys, cap * sizeof *v);
        if (!v) {
            s->failed = true;
            return;
        }
        s->keys = v;
        s->capacity = cap;
    }
    s->keys[s->count++] = key;
}

/* Sorts the keys and drops repeats (two addresses of one function cannot
 * share a key; two ranks' copies of it do). */
static void sort_unique(struct key_set *s)
{
    if (s->count > 1)
        qsort(s->keys, s->count, sizeof *s->keys, key_cmp);
    size_t kept = 0;
    for (size_t i = 0; i < s->count; i++)
        if (!kept || key_cmp(&s->keys[kept - 1], &s->keys[i]) != 0)
            s->keys[kept++] = s->keys[i];
    s->count = kept;
}

/* s := s ∪ other (both sorted and unique). */
static bool merge_keys(struct key_set *s, const struct ht_symbol_key *other, size_t n)
{
    struct ht_symbol_key *out = malloc((s->count + n + 1) * sizeof *out);
    if (!out)
        return false;
    size_t i = 0, j = 0, k = 0;
    while (i < s->count || j < n) {
        int c = i == s->count ? 1 : j == n ? -1 : key_cmp(&s->keys[i], &other[j]);
        out[k++] = c <= 0 ? s->keys[i] : other[j];
        i += c <= 0;
        j += c >= 0;
    }
    free(s->keys);
    s->keys = out;
    s->count = s->capacity = k;
    return true;
}

static bool keys_out(void *ctx, const char **buf, uint64_t *len, char **owned)
{
    struct key_set *s = ctx;
    *buf = (const char *)s->keys;
    *len = s->count * sizeof *s->keys;
    *owned = NULL;
    return true;
}

static bool keys_in(void *ctx, int child, char *buf, uint64_t len)
{
    struct key_set *s = ctx;
    (void)child;
    bool ok = len % sizeof *s->keys == 0 &&
              merge_keys(s, (const struct ht_symbol_key *)(void *)buf, len / sizeof *s->keys);
    free(buf);
    return ok;
}

/* Steps 1 and 2: rank 0 ends with the union (ok false: some rank failed). */
static bool gather_keys(MPI_Comm comm, int rank, int size, struct key_set *s)
{
    bool ok = !s->failed;
    if (ok)
        sort_unique(s);
    static const struct ht_blob_tree tree = {keys_out, keys_in};
    return ht_blob_tree_up(comm, rank, size, ok, &tree, s, NULL);
}

static bool append(char **buf, size_t *len, size_t *cap, const void *data, size_t n)
{
    if (*len + n > *cap) {
        size_t c = *cap ? *cap : 4096;
        while (c < *len + n)
            c *= 2;
        char *v = realloc(*buf, c);
        if (!v)
            return false;
        *buf = v;
        *cap = c;
    }
    memcpy(*buf + *len, data, n);
    *len += n;
    return true;
}

/* Step 3 on rank 0: the table of what it could name. */
static char *name_keys(const struct key_set *s, struct ht_function_table *table, uint64_t *len)
{
    char *buf = NULL;
    size_t used = 0, cap = 0;
    bool ok = true;
    for (size_t i = 0; i < s->count; i++)
        ht_symbols_want_key(s->symbols, s->keys[i]);
    for (size_t i = 0; ok && i < s->count; i++) {
        struct ht_symbol sym;
        if (!ht_symbols_resolve_key(s->symbols, s->keys[i], &sym))
            continue;
        ht_function_table_adjust(table, &sym);
        uint32_t line = sym.line;
        unsigned char flag = sym.file != NULL;
        ok = append(&buf, &used, &cap, &s->keys[i].object, 8) &&
             append(&buf, &used, &cap, &s->keys[i].offset, 8) &&
             append(&buf, &used, &cap, &line, 4) && append(&buf, &used, &cap, &flag, 1) &&
             append(&buf, &used, &cap, sym.name, strlen(sym.name) + 1) &&
             (!flag || append(&buf, &used, &cap, sym.file, strlen(sym.file) + 1));
    }
    if (!ok) {
        free(buf);
        *len = HT_BLOB_FAILED;
        return NULL;
    }
    *len = used;
    return buf ? buf : calloc(1, 1);
}

static const char *string_end(const char *p, const char *end)
{
    const char *nul = memchr(p, '\0', (size_t)(end - p));
    return nul ? nul + 1 : NULL;
}

/* Step 4: the table as entries, in key order (as rank 0 wrote it). */
static bool parse(struct ht_shared_names *n, uint64_t len)
{
    size_t cap = 0;
    const char *p = n->wire, *end = n->wire + len;
    while (p < end) {
        if ((size_t)(end - p) < 21)
            return false;
        struct entry e;
        uint32_t line;
        memcpy(&e.key.object, p, 8);
        memcpy(&e.key.offset, p + 8, 8);
        memcpy(&line, p + 16, 4);
        bool has_file = p[20] != 0;
        e.line = line;
        e.name = p + 21;
        e.file = NULL;
        if (!(p = string_end(e.name, end)))
            return false;
        if (has_file) {
            e.file = p;
            if (p >= end || !(p = string_end(e.file, end)))
                return false;
        }
        if (n->count == cap) {
            cap = cap ? 2 * cap : 256;
            struct entry *v = realloc(n->entries, cap * sizeof *v);
            if (!v)
                return false;
            n->entries = v;
        }
        n->entries[n->count++] = e;
    }
    return true;
}

struct ht_shared_names *ht_shared_names_exchange(MPI_Comm comm, struct ht_symbols *symbols,
                                                 struct ht_function_table *table)
{
    int rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    struct key_set s = {.symbols = symbols, .failed = !symbols || !table};
    if (!s.failed)
        ht_function_table_each(table, add_key, &s);
    bool ok = gather_keys(comm, rank, size, &s);
    char *wire = NULL;
    uint64_t len = HT_BLOB_FAILED;
    if (rank == 0 && ok && !s.failed)
        wire = name_keys(&s, table, &len);
    free(s.keys);

    ht_bcast_waiting_lazily(&len, 1, MPI_UINT64_T, comm);
    if (len == HT_BLOB_FAILED)
        return NULL;
    bool kept = true;
    ht_blob_bcast(&wire, len, rank, comm, &kept);
    struct ht_shared_names *n = kept ? calloc(1, sizeof *n) : NULL;
    if (!n) {
        free(wire);
        return NULL;
    }
    n->wire = wire;
    n->symbols = symbols;
    if (!parse(n, len)) {
        ht_shared_names_free(n);
        return NULL;
    }
    return n;
}

bool ht_shared_names_lookup(uintptr_t address, struct ht_symbol *out, void *ctx)
{
    const struct ht_shared_names *n = ctx;
    struct ht_symbol_key key = ht_symbols_key(n->symbols, address);
    if (!key.object)
        return false;
    size_t lo = 0, hi = n->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = key_cmp(&n->entries[mid].key, &key);
        if (c == 0) {
            *out = (struct ht_symbol){n->entries[mid].name, n->entries[mid].file,
                                      n->entries[mid].line, NULL};
            return true;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

void ht_shared_names_free(struct ht_shared_names *n)
{
    if (!n)
        return;
    free(n->wire);
    free(n->entries);
    free(n);
}
