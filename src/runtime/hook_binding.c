/* The link-order trap (docs/troubleshooting.md): a program compiled with
 * -finstrument-functions whose hooks bind to another object than
 * libhooktrace, typically glibc's empty __cyg_profile_func_enter, records
 * nothing, silently.  libhooktrace is then loaded (its constructor runs)
 * but sits after libc in the lookup order: a shared library of the program
 * was linked with it and the program was not, or -lc came first, or it was
 * dlopen()ed.  At start-up we say so once, with the fix.
 *
 * A program that was not compiled with -finstrument-functions (MPI-only
 * profile under LD_PRELOAD) has no relocation against the hook, so it gets
 * no warning: we look for one in the main program's dynamic relocations
 * (PLT and GOT entries), then ask the dynamic linker what the name
 * resolves to in the global scope, which is what those relocations used. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

#define HOOK_NAME "__cyg_profile_func_enter"

#if __ELF_NATIVE_CLASS == 64
#define RELOCATION_SYMBOL ELF64_R_SYM
#else
#define RELOCATION_SYMBOL ELF32_R_SYM
#endif

struct dynamic_tables {
    const ElfW(Sym) *symtab;
    const char *strtab;
    const ElfW(Rela) *rela, *jmprel;
    size_t rela_size, jmprel_size;
};

/* glibc relocates the d_ptr entries of .dynamic when it loads an object on
 * most targets; others keep them as offsets from the load base. */
static const void *dynamic_address(ElfW(Addr) value, ElfW(Addr) base)
{
    return (const void *)(value < base ? value + base : value);
}

static bool names_hook(const struct dynamic_tables *t, const ElfW(Rela) *rel, size_t size)
{
    for (size_t i = 0; i < size / sizeof *rel; i++) {
        size_t index = RELOCATION_SYMBOL(rel[i].r_info);
        if (index != 0 && strcmp(t->strtab + t->symtab[index].st_name, HOOK_NAME) == 0)
            return true;
    }
    return false;
}

static int find_reference(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    bool *references = data;
    if (info->dlpi_name[0] != '\0') /* the main program comes first */
        return 1;
    const ElfW(Dyn) *dyn = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    if (!dyn) /* static executable */
        return 1;
    struct dynamic_tables t = {0};
    bool rela_plt = true;
    for (; dyn->d_tag != DT_NULL; dyn++) {
        switch (dyn->d_tag) {
        case DT_SYMTAB: t.symtab = dynamic_address(dyn->d_un.d_ptr, info->dlpi_addr); break;
        case DT_STRTAB: t.strtab = dynamic_address(dyn->d_un.d_ptr, info->dlpi_addr); break;
        case DT_RELA: t.rela = dynamic_address(dyn->d_un.d_ptr, info->dlpi_addr); break;
        case DT_RELASZ: t.rela_size = dyn->d_un.d_val; break;
        case DT_JMPREL: t.jmprel = dynamic_address(dyn->d_un.d_ptr, info->dlpi_addr); break;
        case DT_PLTRELSZ: t.jmprel_size = dyn->d_un.d_val; break;
        case DT_PLTREL: rela_plt = dyn->d_un.d_val == DT_RELA; break;
        default: break;
        }
    }
    if (!t.symtab || !t.strtab)
        return 1;
    *references = (t.rela && names_hook(&t, t.rela, t.rela_size)) ||
                  (t.jmprel && rela_plt && names_hook(&t, t.jmprel, t.jmprel_size));
    return 1;
}

bool ht_runtime_speaks_for_job(void)
{
    static const char *const rank_variables[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                                 "SLURM_PROCID"};
    for (size_t i = 0; i < sizeof rank_variables / sizeof *rank_variables; i++) {
        const char *rank = getenv(rank_variables[i]);
        if (rank && *rank)
            return strcmp(rank, "0") == 0;
    }
    return true;
}

void ht_runtime_check_hook_binding(void)
{
    void *bound = dlsym(RTLD_DEFAULT, HOOK_NAME);
    Dl_info bound_info, own_info;
    if (!bound || !dladdr(bound, &bound_info) ||
        !dladdr((void *)&ht_runtime_check_hook_binding, &own_info))
        return;
    if (bound_info.dli_fbase == own_info.dli_fbase) /* ours (or all static) */
        return;
    bool references = false;
    dl_iterate_phdr(find_reference, &references);
    if (!references || !ht_runtime_speaks_for_job())
        return;
    fprintf(stderr,
            "hooktrace: warning: this program was compiled with -finstrument-functions but its "
            "hooks bind to %s, not to libhooktrace (%s): no function will be profiled.\n"
            "hooktrace: link libhooktrace AFTER the program's objects and outside --as-needed: "
            "use `hooktrace mpicc ...` or `pkg-config --libs hooktrace` (docs/troubleshooting.md)\n",
            bound_info.dli_fname ? bound_info.dli_fname : "another object",
            own_info.dli_fname ? own_info.dli_fname : "libhooktrace");
}
