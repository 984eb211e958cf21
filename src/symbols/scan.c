/* Name -> address, the other way round: the functions whose names the
 * caller wants, found by walking the ELF symbol tables (DWARF costs far
 * more: it is read only for the compile unit of a Fortran main program,
 * and only when its symbol's name was not wanted).  Used once at start-up
 * to find the functions throttling must never touch. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/internal.h"
#include "symbols/symbols.h"

/* An address the dynamic section gives: glibc relocates most of them in
 * place, but not everywhere (a read-only dynamic section, the vDSO). */
static uintptr_t dynamic_address(const struct dl_phdr_info *info, ElfW(Addr) value)
{
    return value < info->dlpi_addr ? info->dlpi_addr + value : value;
}

/* The symbols of the dynamic table that are imports: with a GNU hash table
 * every one of them comes before its first hashed symbol; with a SysV one
 * the whole table, whose size is its chain count. */
static size_t import_count(const struct dl_phdr_info *info, ElfW(Addr) gnu_hash, ElfW(Addr) hash)
{
    if (gnu_hash)
        return ((const uint32_t *)dynamic_address(info, gnu_hash))[1];
    if (hash)
        return ((const uint32_t *)dynamic_address(info, hash))[1];
    return 0;
}

/* Whether the loaded object calls the hooks: it imports
 * __cyg_profile_func_enter, or the plugins' hooktrace_inlined_calls_in.
 * Read from its dynamic symbol table in memory, so that a process's
 * hundred libraries need not be opened to find the few that are
 * instrumented (opening them all, four times, made MPI_Finalize 0.2 s
 * longer in an Open MPI job). */
static bool imports_hooks(const struct dl_phdr_info *info)
{
    const ElfW(Dyn) *dyn = NULL;
    for (size_t i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    if (!dyn)
        return false;
    ElfW(Addr) symtab = 0, strtab = 0, gnu_hash = 0, hash = 0;
    size_t strsz = 0;
    for (; dyn->d_tag != DT_NULL; dyn++) {
        switch (dyn->d_tag) {
        case DT_SYMTAB: symtab = dyn->d_un.d_ptr; break;
        case DT_STRTAB: strtab = dyn->d_un.d_ptr; break;
        case DT_STRSZ: strsz = dyn->d_un.d_val; break;
        case DT_GNU_HASH: gnu_hash = dyn->d_un.d_ptr; break;
        case DT_HASH: hash = dyn->d_un.d_ptr; break;
        default: break;
        }
    }
    if (!symtab || !strtab)
        return false;
    const ElfW(Sym) *syms = (const ElfW(Sym) *)dynamic_address(info, symtab);
    const char *strings = (const char *)dynamic_address(info, strtab);
    size_t n = import_count(info, gnu_hash, hash);
    for (size_t k = 1; k < n; k++) {
        if (syms[k].st_shndx != SHN_UNDEF || syms[k].st_name >= strsz)
            continue;
        const char *name = strings + syms[k].st_name;
        if (strcmp(name, "__cyg_profile_func_enter") == 0 ||
            strcmp(name, "hooktrace_inlined_calls_in") == 0)
            return true;
    }
    return false;
}

static int list_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct ht_object_list *l = arg;
    const char *name = info->dlpi_name;
    bool executable = !name || !name[0];
    if (l->which == HT_LIST_EXECUTABLE && !executable)
        return 1; /* the executable comes first: done */
    if (!executable && (strncmp(name, "linux-vdso", 10) == 0 || name[0] != '/'))
        return 0;
    if (!executable && l->which == HT_LIST_INSTRUMENTED && !imports_hooks(info))
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
            return l->which == HT_LIST_EXECUTABLE;
        exe[n] = '\0';
        name = exe;
    }
    char *path = strdup(name);
    if (!path)
        return 1;
    l->objects[l->count++] = (struct ht_scanned_object){path, (uintptr_t)info->dlpi_addr};
    return l->which == HT_LIST_EXECUTABLE;
}

void ht_object_list_take(struct ht_object_list *list, enum ht_object_list_which which)
{
    *list = (struct ht_object_list){.which = which};
    dl_iterate_phdr(list_object, list);
}

void ht_object_list_free(struct ht_object_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->objects[i].path);
    free(list->objects);
    *list = (struct ht_object_list){0};
}

/* An object gfortran built: it holds the main program or a module
 * procedure.  (An object of external procedures only is not recognised:
 * their names then keep gfortran's underscore here, see below.) */
static bool is_fortran(const struct ht_func *funcs, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const char *e = funcs[k].elf_name;
        if (e && (strcmp(e, "MAIN__") == 0 || (strncmp(e, "__", 2) == 0 && strstr(e, "_MOD_"))))
            return true;
    }
    return false;
}

/* The main program's own name ("heat" for MAIN__ of `program heat`), from
 * the DWARF of its compile unit alone; NULL without DWARF. */
static const char *program_name(int fd, const struct ht_elf_info *info, uint64_t address,
                                struct ht_strpool *pool)
{
    struct ht_func *dw = NULL;
    size_t ndw = 0, units = 0;
    const char *name = NULL;
    if (info->dwarf_ok && ht_dwarf_functions_load(fd, pool, &address, 1, &dw, &ndw, &units) == 0)
        for (size_t i = 0; i < ndw && !name; i++)
            if (dw[i].addr == address && dw[i].is_main && dw[i].dwarf_name)
                name = dw[i].dwarf_name;
    free(dw);
    return name;
}

/* The name the profile shows for a function of a Fortran object where the
 * symbol table alone says otherwise: the program's name for MAIN__, and an
 * external procedure without gfortran's trailing underscore (names.c).
 * NULL if none. */
static const char *fortran_alias(const struct ht_func *f, int fd, const struct ht_elf_info *info,
                                 struct ht_strpool *pool)
{
    const char *e = f->elf_name;
    if (!e)
        return NULL;
    if (strcmp(e, "MAIN__") == 0)
        return program_name(fd, info, f->addr, pool);
    size_t len = strlen(e);
    if (len > 1 && e[len - 1] == '_' && strncmp(e, "__", 2) != 0)
        return ht_strpool_dupn(pool, e, len - 1);
    return NULL;
}

struct by_address {
    void (*found)(uintptr_t address, void *ctx);
    void *ctx;
};

static void found_address(uintptr_t address, const char *symbol, void *ctx)
{
    (void)symbol;
    struct by_address *b = ctx;
    b->found(address, b->ctx);
}

void ht_symbols_scan(bool executable_only, bool (*wanted)(const char *name, void *ctx),
                     void (*found)(uintptr_t address, void *ctx), void *ctx)
{
    struct by_address b = {found, ctx};
    ht_symbols_scan_symbols(executable_only, wanted, ctx, found_address, &b);
}

/* (internal.h) */
bool ht_symbols_imports_hooks(int fd)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return true;
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    bool found = false;
    for (Elf_Scn *scn = elf ? elf_nextscn(elf, NULL) : NULL; scn && !found; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        Elf_Data *data;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNSYM || shdr.sh_entsize == 0 ||
            !(data = elf_getdata(scn, NULL)))
            continue;
        size_t n = shdr.sh_size / shdr.sh_entsize;
        for (size_t k = 0; k < n && !found; k++) {
            GElf_Sym sym;
            const char *name;
            found = gelf_getsym(data, (int)k, &sym) && sym.st_shndx == SHN_UNDEF &&
                    (name = elf_strptr(elf, shdr.sh_link, sym.st_name)) &&
                    strcmp(name, "__cyg_profile_func_enter") == 0;
        }
    }
    if (elf)
        elf_end(elf);
    return found;
}

void ht_symbols_scan_symbols(bool executable_only, bool (*wanted)(const char *name, void *ctx),
                             void *wanted_ctx,
                             void (*found)(uintptr_t address, const char *symbol, void *ctx),
                             void *ctx)
{
    ht_symbols_scan_objects(executable_only ? HT_SCAN_EXECUTABLE : HT_SCAN_ALL, wanted,
                            wanted_ctx, found, ctx);
}

/* The scan with both names, for ht_symbols_scan_objects and
 * ht_symbols_scan_named. */
struct wanted_by {
    bool (*display)(const char *name, void *ctx);
    bool (*named)(const char *name, const char *symbol, void *ctx);
    bool (*object)(uintptr_t bias, const char *path, void *ctx); /* NULL: every one */
    void *ctx;
};

static bool is_wanted(const struct wanted_by *w, const char *name, const char *symbol)
{
    return w->named ? w->named(name, symbol, w->ctx) : w->display(name, w->ctx);
}

static void scan_objects(enum ht_scan_objects which, const struct wanted_by *w,
                         void (*found)(uintptr_t address, const char *symbol, void *ctx),
                         void *ctx)
{
    struct ht_object_list list;
    ht_object_list_take(&list, which == HT_SCAN_EXECUTABLE      ? HT_LIST_EXECUTABLE
                               : which == HT_SCAN_INSTRUMENTED ? HT_LIST_INSTRUMENTED
                                                               : HT_LIST_ALL);
    struct ht_demangler demangler = {0};
    for (size_t i = 0; i < list.count; i++) {
        if (w->object && !w->object(list.objects[i].bias, list.objects[i].path, w->ctx))
            continue;
        int fd = open(list.objects[i].path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            struct ht_strpool pool = {0};
            struct ht_func *funcs = NULL;
            size_t n = 0;
            struct ht_elf_info info;
            if (ht_elf_symtab_load(fd, &pool, &funcs, &n, &info) == 0) {
                bool fortran = is_fortran(funcs, n);
                for (size_t k = 0; k < n; k++) {
                    const char *name = ht_names_display(&funcs[k], &demangler, &pool);
                    bool hit = name && is_wanted(w, name, funcs[k].elf_name);
                    if (!hit && fortran) {
                        const char *alias = fortran_alias(&funcs[k], fd, &info, &pool);
                        hit = alias && is_wanted(w, alias, funcs[k].elf_name);
                    }
                    if (hit)
                        found(list.objects[i].bias + (uintptr_t)funcs[k].addr, funcs[k].elf_name, ctx);
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

void ht_symbols_scan_objects(enum ht_scan_objects which, bool (*wanted)(const char *name, void *ctx),
                             void *wanted_ctx,
                             void (*found)(uintptr_t address, const char *symbol, void *ctx),
                             void *ctx)
{
    struct wanted_by w = {.display = wanted, .ctx = wanted_ctx};
    scan_objects(which, &w, found, ctx);
}

void ht_symbols_scan_named(enum ht_scan_objects which,
                           bool (*object)(uintptr_t bias, const char *path, void *ctx),
                           bool (*wanted)(const char *name, const char *symbol, void *ctx),
                           void *wanted_ctx,
                           void (*found)(uintptr_t address, const char *symbol, void *ctx),
                           void *ctx)
{
    struct wanted_by w = {.named = wanted, .object = object, .ctx = wanted_ctx};
    scan_objects(which, &w, found, ctx);
}
