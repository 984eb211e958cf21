/* Address -> name, file:line.  A snapshot of the loaded objects is taken
 * at open; each object's ELF and DWARF are read once, on the first address
 * that falls in it, into one address-sorted table searched by bisection. */
#define _GNU_SOURCE
#include "symbols/symbols.h"
#include "symbols/internal.h"

#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct object {
    char *path;
    char *read_from; /* a closed library: its file as kept open, or NULL */
    uint64_t identity; /* hash of the path, never 0 (ht_symbol_key) */
    const char *basename;
    uintptr_t bias; /* dlpi_addr: run-time minus link-time address */
    int loaded;
    int own; /* libhooktrace itself, as a shared object */
    /* Link-time addresses announced by ht_symbols_want before the object
     * was read: only the compile units holding them were (partial). */
    uint64_t *wanted;
    size_t nwanted, cap_wanted;
    int partial;
    struct ht_func *funcs;
    size_t nfuncs;
};

struct segment {
    uintptr_t start, end;
    size_t object;
};

struct ht_symbols {
    struct object *objects;
    size_t nobjects, cap_objects;
    struct segment *segments;
    size_t nsegments, cap_segments;
    int seen_executable;
    int failed;
    size_t units_read; /* DWARF compile units read so far */
    struct ht_strpool pool;
    struct ht_demangler demangler;
};

/* Shown when not even a few bytes for a name could be allocated. */
static const char unknown_name[] = "??";

static char *executable_path(void)
{
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return strdup("/proc/self/exe");
    buf[n] = '\0';
    return strdup(buf);
}

static int add_segment(struct ht_symbols *s, uintptr_t start, uintptr_t end, size_t object)
{
    if (s->nsegments == s->cap_segments) {
        size_t cap = s->cap_segments ? 2 * s->cap_segments : 32;
        struct segment *v = realloc(s->segments, cap * sizeof *v);
        if (!v)
            return -1;
        s->segments = v;
        s->cap_segments = cap;
    }
    s->segments[s->nsegments++] = (struct segment){ start, end, object };
    return 0;
}

static uint64_t path_identity(const char *path)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (const unsigned char *c = (const unsigned char *)path; *c; c++)
        h = (h ^ *c) * 0x100000001B3ull; /* FNV-1a */
    return h ? h : 1;
}

static struct object *new_object(struct ht_symbols *s, char *path)
{
    if (s->nobjects == s->cap_objects) {
        size_t cap = s->cap_objects ? 2 * s->cap_objects : 16;
        struct object *v = realloc(s->objects, cap * sizeof *v);
        if (!v)
            return NULL;
        s->objects = v;
        s->cap_objects = cap;
    }
    struct object *o = &s->objects[s->nobjects++];
    memset(o, 0, sizeof *o);
    o->path = path;
    o->identity = path_identity(path);
    const char *slash = strrchr(path, '/');
    o->basename = slash ? slash + 1 : path;
    return o;
}

static int snapshot_one(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct ht_symbols *s = arg;
    (void)size;
    char *path;
    if (info->dlpi_name && info->dlpi_name[0]) {
        path = strdup(info->dlpi_name);
    } else if (!s->seen_executable) {
        /* The executable comes first and has no name here. */
        s->seen_executable = 1;
        path = executable_path();
    } else {
        return 0;
    }
    if (!path)
        goto fail;
    struct object *o = new_object(s, path);
    if (!o) {
        free(path);
        goto fail;
    }
    size_t index = s->nobjects - 1;
    o->bias = (uintptr_t)info->dlpi_addr;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
            continue;
        uintptr_t start = o->bias + (uintptr_t)ph->p_vaddr;
        if (add_segment(s, start, start + (uintptr_t)ph->p_memsz, index) != 0)
            goto fail;
        uintptr_t here = (uintptr_t)&snapshot_one;
        if (info->dlpi_name && info->dlpi_name[0] && here >= start && here - start < ph->p_memsz)
            o->own = 1;
    }
    return 0;
fail:
    s->failed = 1;
    return 1;
}

static int segment_cmp(const void *a, const void *b)
{
    const struct segment *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static bool overlaps(const struct ht_symbols *s, size_t nsorted, uintptr_t start, uintptr_t end)
{
    /* The live objects' segments [0, nsorted) are sorted and disjoint:
     * only the last one starting below end can reach into [start, end). */
    size_t lo = 0, hi = nsorted;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->segments[mid].start < end)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0 && s->segments[lo - 1].end > start)
        return true;
    for (size_t i = nsorted; i < s->nsegments; i++) /* closed ones added so far */
        if (s->segments[i].start < end && s->segments[i].end > start)
            return true;
    return false;
}

/* The libraries closed with dlclose, where nothing loaded now (or closed
 * later) lies at their addresses: their segments, with the same path
 * identity as when they were loaded, so that keys and names are those the
 * library had while it was open. */
static int add_closed(struct ht_symbols *s)
{
    struct ht_closed_object *closed = malloc(HT_CLOSED_MAX * sizeof *closed);
    if (!closed)
        return -1;
    size_t n = ht_closed_objects(closed, HT_CLOSED_MAX);
    size_t nsorted = s->nsegments;
    int result = 0;
    for (size_t i = 0; i < n && result == 0; i++) {
        const struct ht_closed_object *c = &closed[i];
        bool free_range = true;
        for (size_t k = 0; k < c->nsegments && free_range; k++)
            free_range = !overlaps(s, nsorted, c->segments[k][0], c->segments[k][1]);
        if (!free_range)
            continue;
        char *path = strdup(c->path), *from = NULL;
        char fd_path[64];
        struct stat st;
        /* The program may have closed the descriptor and opened another
         * file on its number: then the path is read, as for a file that
         * could not be kept. */
        int fd = c->fd;
        if (fd >= 0 && (fstat(fd, &st) != 0 || (uint64_t)st.st_dev != c->dev ||
                        (uint64_t)st.st_ino != c->ino))
            fd = -1;
        if (fd >= 0) {
            snprintf(fd_path, sizeof fd_path, "/proc/self/fd/%d", fd);
            from = strdup(fd_path);
        }
        struct object *o = path && (from || fd < 0) ? new_object(s, path) : NULL;
        if (!o) {
            free(path);
            free(from);
            result = -1;
            break;
        }
        o->read_from = from;
        o->bias = c->bias;
        for (size_t k = 0; k < c->nsegments && result == 0; k++)
            result = add_segment(s, c->segments[k][0], c->segments[k][1], s->nobjects - 1);
    }
    free(closed);
    return result;
}

struct ht_symbols *ht_symbols_open(void)
{
    struct ht_symbols *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    dl_iterate_phdr(snapshot_one, s);
    if (s->nsegments > 1)
        qsort(s->segments, s->nsegments, sizeof *s->segments, segment_cmp);
    if (s->failed || add_closed(s) != 0) {
        ht_symbols_close(s);
        return NULL;
    }
    if (s->nsegments > 1)
        qsort(s->segments, s->nsegments, sizeof *s->segments, segment_cmp);
    return s;
}

static const struct segment *find_segment(const struct ht_symbols *s, uintptr_t address)
{
    size_t lo = 0, hi = s->nsegments;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->segments[mid].start <= address)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || address >= s->segments[lo - 1].end)
        return NULL;
    return &s->segments[lo - 1];
}

/* Last function starting at or before rel, if rel lies inside it.  A
 * symbol without a size (hand-written assembly) only matches its own
 * address. */
static struct ht_func *find_func(struct object *o, uint64_t rel)
{
    size_t lo = 0, hi = o->nfuncs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->funcs[mid].addr <= rel)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    struct ht_func *f = &o->funcs[lo - 1];
    if (rel == f->addr || (f->size && rel - f->addr < f->size))
        return f;
    return NULL;
}

static int func_cmp(const void *a, const void *b)
{
    const struct ht_func *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    /* Among DWARF entries at one address, the most informative first. */
    int xs = (x->line != 0) * 2 + (x->dwarf_name != NULL);
    int ys = (y->line != 0) * 2 + (y->dwarf_name != NULL);
    return ys - xs;
}

static struct ht_func *bsearch_addr(struct ht_func *v, size_t n, uint64_t addr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo].addr == addr ? &v[lo] : NULL;
}

/* ELF decides which addresses are functions and gives the linkage name;
 * DWARF adds file:line and, for Fortran, the source name.  A DWARF entry
 * with no ELF symbol is kept only when the object has no .symtab (which
 * would list every function, static ones included). */
static void merge(struct object *o, struct ht_func *elf, size_t nelf, struct ht_func *dw,
                  size_t ndw, int has_symtab)
{
    if (ndw > 1) /* qsort must not see the NULL of an empty list */
        qsort(dw, ndw, sizeof *dw, func_cmp);
    size_t extra = 0;
    for (size_t i = 0; i < ndw; i++) {
        if (i > 0 && dw[i].addr == dw[i - 1].addr)
            continue;
        struct ht_func *f = bsearch_addr(elf, nelf, dw[i].addr);
        if (f) {
            const char *elf_name = f->elf_name;
            uint64_t size = f->size ? f->size : dw[i].size;
            *f = dw[i];
            f->elf_name = elf_name;
            f->size = size;
        } else if (!has_symtab) {
            dw[extra++] = dw[i];
        }
    }
    if (extra == 0) {
        o->funcs = elf;
        o->nfuncs = nelf;
        free(dw);
        return;
    }
    struct ht_func *all = realloc(elf, (nelf + extra) * sizeof *all);
    if (!all) {
        o->funcs = elf;
        o->nfuncs = nelf;
        free(dw);
        return;
    }
    memcpy(all + nelf, dw, extra * sizeof *dw);
    free(dw);
    qsort(all, nelf + extra, sizeof *all, func_cmp);
    o->funcs = all;
    o->nfuncs = nelf + extra;
}

static int by_elf_name(const void *a, const void *b)
{
    const struct ht_func *x = *(const struct ht_func *const *)a, *y = *(const struct ht_func *const *)b;
    return strcmp(x->elf_name, y->elf_name);
}

/* An inlined copy's id takes the source file, line and DWARF names of the
 * function's out-of-line body in the same object, where there is one, so
 * that a function called both ways from one caller is one stack. */
static void place_inlined_ids(struct object *o)
{
    size_t nids = 0, nbodies = 0;
    for (size_t i = 0; i < o->nfuncs; i++)
        nids += o->funcs[i].inlined_id;
    if (nids == 0)
        return;
    const struct ht_func **bodies = malloc((o->nfuncs - nids + 1) * sizeof *bodies);
    if (!bodies)
        return;
    for (size_t i = 0; i < o->nfuncs; i++)
        if (!o->funcs[i].inlined_id && o->funcs[i].elf_name)
            bodies[nbodies++] = &o->funcs[i];
    qsort(bodies, nbodies, sizeof *bodies, by_elf_name);
    for (size_t i = 0; i < o->nfuncs; i++) {
        struct ht_func *id = &o->funcs[i], key = {.elf_name = id->elf_name}, *pkey = &key;
        if (!id->inlined_id)
            continue;
        const struct ht_func **body = bsearch(&pkey, bodies, nbodies, sizeof *bodies, by_elf_name);
        if (!body)
            continue;
        id->dwarf_name = (*body)->dwarf_name;
        id->linkage_name = (*body)->linkage_name;
        id->module = (*body)->module;
        id->file = (*body)->file;
        id->line = (*body)->line;
        id->lang = (*body)->lang;
        id->is_main = (*body)->is_main;
        id->has_dwarf = (*body)->has_dwarf;
    }
    free(bodies);
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static bool is_wanted(const struct object *o, uint64_t rel)
{
    return o->nwanted && bsearch(&rel, o->wanted, o->nwanted, sizeof rel, u64_cmp);
}

static void load_object(struct ht_symbols *s, struct object *o)
{
    o->loaded = 1;
    if (o->nwanted > 1)
        qsort(o->wanted, o->nwanted, sizeof *o->wanted, u64_cmp);
    o->partial = o->nwanted > 0;
    int fd = open(o->read_from ? o->read_from : o->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct ht_func *elf = NULL, *dw = NULL;
    size_t nelf = 0, ndw = 0;
    struct ht_elf_info info;
    if (ht_elf_symtab_load(fd, &s->pool, &elf, &nelf, &info) == 0) {
        /* Our own functions, the MPI wrappers, are named by the symbol
         * table; their source file means nothing to a user and is never
         * shown, and reading the DWARF of every generated wrapper costs
         * each rank some 100 million instructions at the end. */
        if (info.dwarf_ok && !o->own)
            ht_dwarf_functions_load(fd, &s->pool, o->partial ? o->wanted : NULL, o->nwanted,
                                    &dw, &ndw, &s->units_read);
        merge(o, elf, nelf, dw, ndw, info.has_symtab);
        place_inlined_ids(o);
    }
    close(fd);
}

static const char *format_name(struct ht_symbols *s, const char *object, uintptr_t offset)
{
    char buf[64];
    const char *prefix = object ? object : "";
    const char *sep = object ? "+" : "";
    int n = snprintf(buf, sizeof buf, "%s0x%" PRIxPTR, sep, offset);
    if (n < 0 || (size_t)n >= sizeof buf)
        return unknown_name;
    size_t plen = strlen(prefix);
    char *name = ht_strpool_alloc(&s->pool, plen + (size_t)n + 1);
    if (!name)
        return unknown_name;
    memcpy(name, prefix, plen);
    memcpy(name + plen, buf, (size_t)n + 1);
    return name;
}

void ht_symbols_resolve(struct ht_symbols *syms, uintptr_t address, struct ht_symbol *out)
{
    out->name = unknown_name;
    out->file = NULL;
    out->line = 0;
    out->object = NULL;
    if (!syms)
        return;
    const struct segment *seg = find_segment(syms, address);
    if (!seg) {
        out->name = format_name(syms, NULL, address);
        return;
    }
    struct object *o = &syms->objects[seg->object];
    out->object = o->path;
    if (!o->loaded)
        load_object(syms, o);
    uintptr_t rel = address - o->bias;
    if (o->partial && !is_wanted(o, rel)) {
        /* Not announced: its unit may not have been read.  Read them all
         * (the names already handed out live in the pool, not here). */
        free(o->funcs);
        o->funcs = NULL;
        o->nfuncs = 0;
        o->nwanted = 0;
        load_object(syms, o);
    }
    struct ht_func *f = find_func(o, rel);
    const char *name = f ? ht_names_display(f, &syms->demangler, &syms->pool) : NULL;
    if (!name) {
        out->name = format_name(syms, o->basename, rel);
        return;
    }
    out->name = name;
    out->file = f->file;
    out->line = f->file ? f->line : 0;
}

static void want_in(struct object *o, uint64_t rel)
{
    if (o->loaded)
        return;
    if (o->nwanted == o->cap_wanted) {
        size_t cap = o->cap_wanted ? 2 * o->cap_wanted : 64;
        uint64_t *v = realloc(o->wanted, cap * sizeof *v);
        if (!v) {
            o->nwanted = 0; /* read every unit, as without any wish */
            return;
        }
        o->wanted = v;
        o->cap_wanted = cap;
    }
    o->wanted[o->nwanted++] = rel;
}

void ht_symbols_want(struct ht_symbols *syms, uintptr_t address)
{
    const struct segment *seg = syms ? find_segment(syms, address) : NULL;
    if (seg) {
        struct object *o = &syms->objects[seg->object];
        want_in(o, (uint64_t)(address - o->bias));
    }
}

size_t ht_symbols_units_read(const struct ht_symbols *syms)
{
    return syms ? syms->units_read : 0;
}

void ht_symbols_want_key(struct ht_symbols *syms, struct ht_symbol_key key)
{
    for (size_t i = 0; key.object && syms && i < syms->nobjects; i++)
        if (syms->objects[i].identity == key.object)
            want_in(&syms->objects[i], key.offset);
}

struct ht_symbol_key ht_symbols_key(const struct ht_symbols *syms, uintptr_t address)
{
    const struct segment *seg = syms ? find_segment(syms, address) : NULL;
    if (!seg)
        return (struct ht_symbol_key){0, (uint64_t)address};
    const struct object *o = &syms->objects[seg->object];
    return (struct ht_symbol_key){o->identity, (uint64_t)(address - o->bias)};
}

bool ht_symbols_resolve_key(struct ht_symbols *syms, struct ht_symbol_key key,
                            struct ht_symbol *out)
{
    for (size_t i = 0; key.object && syms && i < syms->nobjects; i++) {
        if (syms->objects[i].identity == key.object) {
            ht_symbols_resolve(syms, syms->objects[i].bias + (uintptr_t)key.offset, out);
            return true;
        }
    }
    return false;
}

void ht_symbols_close(struct ht_symbols *syms)
{
    if (!syms)
        return;
    for (size_t i = 0; i < syms->nobjects; i++) {
        free(syms->objects[i].path);
        free(syms->objects[i].read_from);
        free(syms->objects[i].funcs);
        free(syms->objects[i].wanted);
    }
    free(syms->objects);
    free(syms->segments);
    ht_strpool_free(&syms->pool);
    ht_demangler_close(&syms->demangler);
    free(syms);
}
