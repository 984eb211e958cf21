/* Name -> address, the other way round: the functions whose names the
 * caller wants, found by walking the ELF symbol tables (never DWARF, which
 * costs far more).  Used once at start-up to find the functions throttling
 * must never touch. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/internal.h"
#include "symbols/symbols.h"

static int list_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct ht_object_list *l = arg;
    const char *name = info->dlpi_name;
    bool executable = !name || !name[0];
    if (l->executable_only && !executable)
        return 1; /* the executable comes first: done */
    if (!executable && (strncmp(name, "linux-vdso", 10) == 0 || name[0] != '/'))
        return 0;
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? 2 * l->capacity : 16;
        struct ht_scanned_object *v = realloc(l->objects, cap * sizeof *v);
        if (!v)
            return 1;
        l->objects = v;
        l->capacity = cap;
    }
    char exe[PATH_MAX];
    if (executable) {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0)
            return l->executable_only;
        exe[n] = '\0';
        name = exe;
    }
    char *path = strdup(name);
    if (!path)
        return 1;
    l->objects[l->count++] = (struct ht_scanned_object){path, (uintptr_t)info->dlpi_addr};
    return l->executable_only;
}

void ht_object_list_take(struct ht_object_list *list, bool executable_only)
{
    *list = (struct ht_object_list){.executable_only = executable_only};
    dl_iterate_phdr(list_object, list);
}

void ht_object_list_free(struct ht_object_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->objects[i].path);
    free(list->objects);
    *list = (struct ht_object_list){0};
}

void ht_symbols_scan(bool executable_only, bool (*wanted)(const char *name, void *ctx),
                     void (*found)(uintptr_t address, void *ctx), void *ctx)
{
    struct ht_object_list list;
    ht_object_list_take(&list, executable_only);
    struct ht_demangler demangler = {0};
    for (size_t i = 0; i < list.count; i++) {
        int fd = open(list.objects[i].path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            struct ht_strpool pool = {0};
            struct ht_func *funcs = NULL;
            size_t n = 0;
            struct ht_elf_info info;
            if (ht_elf_symtab_load(fd, &pool, &funcs, &n, &info) == 0) {
                for (size_t k = 0; k < n; k++) {
                    const char *name = ht_names_display(&funcs[k], &demangler, &pool);
                    if (name && wanted(name, ctx))
                        found(list.objects[i].bias + (uintptr_t)funcs[k].addr, ctx);
                }
            }
            free(funcs);
            ht_strpool_free(&pool);
            close(fd);
        }
    }
    ht_object_list_free(&list);
    ht_demangler_close(&demangler);
}
