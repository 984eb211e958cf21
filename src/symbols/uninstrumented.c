/* The functions hooktrace's GCC plugin left out of -finstrument-functions
 * (docs/plugin.md): the plugin writes their assembler names, NUL-terminated,
 * into a section that is never loaded, .hooktrace.uninstrumented, and the
 * linker concatenates the sections of all objects.  Read from the files on
 * disk at shut-down, section headers only, so that the profile can say what
 * it does not show. */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/internal.h"
#include "symbols/symbols.h"

#define SECTION_NAME ".hooktrace.uninstrumented"

struct name_set {
    char **names;
    size_t count, capacity;
    int failed;
};

static void add_name(struct name_set *set, const char *name)
{
    if (set->failed)
        return;
    if (set->count == set->capacity) {
        size_t cap = set->capacity ? 2 * set->capacity : 64;
        char **v = realloc(set->names, cap * sizeof *v);
        if (!v) {
            set->failed = 1;
            return;
        }
        set->names = v;
        set->capacity = cap;
    }
    char *copy = strdup(name);
    if (!copy) {
        set->failed = 1;
        return;
    }
    set->names[set->count++] = copy;
}

/* A display name as the profile would show it: C++ demangled, gfortran's
 * __module_MOD_procedure as module::procedure. */
static void add_symbol(struct name_set *set, struct ht_demangler *dm, const char *symbol)
{
    struct ht_strpool pool = {0};
    const char *display = ht_demangle(dm, &pool, symbol);
    if (!display)
        display = ht_fortran_module_name(&pool, symbol);
    add_name(set, display ? display : symbol);
    ht_strpool_free(&pool);
}

static void read_object(const char *path, struct name_set *set, struct ht_demangler *dm)
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
                !(name = elf_strptr(elf, shstrndx, shdr.sh_name)) || strcmp(name, SECTION_NAME) != 0)
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

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int ht_symbols_uninstrumented(struct ht_name_list *out)
{
    *out = (struct ht_name_list){0};
    if (elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    struct ht_object_list objects;
    ht_object_list_take(&objects, false);
    struct name_set set = {0};
    struct ht_demangler demangler = {0};
    for (size_t i = 0; i < objects.count; i++)
        read_object(objects.objects[i].path, &set, &demangler);
    ht_demangler_close(&demangler);
    ht_object_list_free(&objects);
    /* An inline function of a header is left out in every object that
     * compiled it: list it once. */
    if (set.count)
        qsort(set.names, set.count, sizeof *set.names, compare_names);
    size_t kept = 0;
    for (size_t i = 0; i < set.count; i++) {
        if (kept && strcmp(set.names[kept - 1], set.names[i]) == 0)
            free(set.names[i]);
        else
            set.names[kept++] = set.names[i];
    }
    out->names = (const char **)set.names;
    out->count = kept;
    return set.failed ? -1 : 0;
}

void ht_name_list_free(struct ht_name_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free((char *)list->names[i]);
    free(list->names);
    *list = (struct ht_name_list){0};
}
