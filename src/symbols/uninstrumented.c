/* The functions hooktrace's GCC plugin left out of -finstrument-functions
 * (docs/plugin.md): the plugin writes their assembler names, NUL-terminated,
 * into a section that is never loaded, .hooktrace.uninstrumented, and the
 * linker concatenates the sections of all objects.  The functions whose
 * inlined copies it took the hooks out of go into .hooktrace.inlined, as
 * "SITES NAME" strings, one per function and object.  Read from the files
 * on disk at shut-down, section headers only, so that the profile can say
 * what it does not show. */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/internal.h"
#include "symbols/symbols.h"

#define LEFT_OUT_SECTION ".hooktrace.uninstrumented"
#define INLINED_SECTION ".hooktrace.inlined"

struct entry {
    char *name;
    unsigned long sites;
};

struct name_set {
    struct entry *entries;
    size_t count, capacity;
    int failed;
    bool with_sites; /* "SITES NAME" strings */
};

static void add_name(struct name_set *set, const char *name, unsigned long sites)
{
    if (set->failed)
        return;
    if (set->count == set->capacity) {
        size_t cap = set->capacity ? 2 * set->capacity : 64;
        struct entry *v = realloc(set->entries, cap * sizeof *v);
        if (!v) {
            set->failed = 1;
            return;
        }
        set->entries = v;
        set->capacity = cap;
    }
    char *copy = strdup(name);
    if (!copy) {
        set->failed = 1;
        return;
    }
    set->entries[set->count++] = (struct entry){copy, sites};
}

/* A display name as the profile would show it: C++ demangled, gfortran's
 * __module_MOD_procedure as module::procedure. */
static void add_symbol(struct name_set *set, struct ht_demangler *dm, const char *text)
{
    unsigned long sites = 0;
    const char *symbol = text;
    if (set->with_sites) {
        char *end;
        sites = strtoul(text, &end, 10);
        if (end == text || *end != ' ' || !end[1])
            return; /* not the plugin's */
        symbol = end + 1;
    }
    struct ht_strpool pool = {0};
    const char *display = ht_demangle(dm, &pool, symbol);
    if (!display)
        display = ht_fortran_module_name(&pool, symbol);
    add_name(set, display ? display : symbol, sites);
    ht_strpool_free(&pool);
}

static void read_object(const char *path, const char *section, struct name_set *set, struct ht_demangler *dm)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    size_t shstrndx;
    if (elf && elf_kind(elf) == ELF_K_ELF && elf_getshdrstrndx(elf, &shstrndx) == 0) {
        for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
            GElf_Shdr shdr;
            const char *name;
            if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_PROGBITS ||
                !(name = elf_strptr(elf, shstrndx, shdr.sh_name)) || strcmp(name, section) != 0)
                continue;
            Elf_Data *data = elf_getdata(scn, NULL);
            const char *p = data && data->d_buf ? data->d_buf : NULL;
            size_t size = p ? data->d_size : 0;
            for (size_t at = 0; at < size;) {
                const char *end = memchr(p + at, '\0', size - at);
                if (!end)
                    break; /* a truncated last name */
                if (end > p + at)
                    add_symbol(set, dm, p + at);
                at = (size_t)(end - p) + 1;
            }
        }
    }
    if (elf)
        elf_end(elf);
    close(fd);
}

static int compare_entries(const void *a, const void *b)
{
    return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

/* Reads one section of every instrumented object into set, sorted, each name
 * once: an inline function of a header is in every object that compiled
 * it (its sites add up). */
static int read_section(const char *section, struct name_set *set)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    struct ht_object_list objects;
    /* Only an object the compiler instrumented can hold the plugin's
     * sections. */
    ht_object_list_take(&objects, HT_LIST_INSTRUMENTED);
    struct ht_demangler demangler = {0};
    for (size_t i = 0; i < objects.count; i++)
        read_object(objects.objects[i].path, section, set, &demangler);
    ht_demangler_close(&demangler);
    ht_object_list_free(&objects);
    if (set->count)
        qsort(set->entries, set->count, sizeof *set->entries, compare_entries);
    size_t kept = 0;
    for (size_t i = 0; i < set->count; i++) {
        if (kept && strcmp(set->entries[kept - 1].name, set->entries[i].name) == 0) {
            set->entries[kept - 1].sites += set->entries[i].sites;
            free(set->entries[i].name);
        } else {
            set->entries[kept++] = set->entries[i];
        }
    }
    set->count = kept;
    return set->failed ? -1 : 0;
}

int ht_symbols_uninstrumented(struct ht_name_list *out)
{
    *out = (struct ht_name_list){0};
    struct name_set set = {0};
    int status = read_section(LEFT_OUT_SECTION, &set);
    /* The names alone, in place. */
    const char **names = (const char **)set.entries;
    for (size_t i = 0; i < set.count; i++)
        names[i] = set.entries[i].name;
    out->names = names;
    out->count = set.count;
    return status;
}

int ht_symbols_inlined(struct ht_inlined_list *out)
{
    *out = (struct ht_inlined_list){0};
    struct name_set set = {.with_sites = true};
    int status = read_section(INLINED_SECTION, &set);
    const char **names = set.count ? malloc(set.count * sizeof *names) : NULL;
    unsigned long *sites = set.count ? malloc(set.count * sizeof *sites) : NULL;
    if (set.count && (!names || !sites)) {
        free(names);
        free(sites);
        for (size_t i = 0; i < set.count; i++)
            free(set.entries[i].name);
        free(set.entries);
        return -1;
    }
    for (size_t i = 0; i < set.count; i++) {
        names[i] = set.entries[i].name;
        sites[i] = set.entries[i].sites;
        out->total_sites += sites[i];
    }
    free(set.entries);
    out->names = names;
    out->sites = sites;
    out->count = set.count;
    return status;
}

void ht_name_list_free(struct ht_name_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free((char *)list->names[i]);
    free(list->names);
    *list = (struct ht_name_list){0};
}

void ht_inlined_list_free(struct ht_inlined_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free((char *)list->names[i]);
    free(list->names);
    free(list->sites);
    *list = (struct ht_inlined_list){0};
}
