/* What hooktrace does when a library is closed, whoever closes it: the
 * program (through the dlclose interposer, src/hooks/dlclose.c) or
 * hooktrace itself (ht_library_close, src/common/library_close.h, which
 * reaches ht_runtime_dlclose through the registration made at start-up).
 *
 * The profile is named at shut-down, when dl_iterate_phdr no longer lists
 * a closed library: so just before the C library's dlclose runs, the
 * library's path, load bias, segments and an open descriptor of its file
 * are noted (src/symbols/closed.c), and shut-down names its addresses from
 * that file (docs/symbols.md, "Libraries closed with dlclose").  Open
 * MPI's components that MPI_Init closes are held for MPI_T (src/mpit/mpit.h).
 * Once the C library's dlclose has unmapped it, what throttling and the
 * exclusions knew of the library's code is retired: a library loaded later
 * at the same address is a new one to them. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

#include "common/library_close.h"
#include "mpit/mpit.h"
#include "runtime/exclusions.h"
#include "runtime/runtime.h"
#include "symbols/symbols.h"
#include "throttle/throttle.h"

/* A library's extent: from its lowest to its highest loadable segment. */
struct extent {
    uintptr_t bias;
    uint64_t name_hash;
    uintptr_t lo, hi;
};

HT_NOINSTR static uint64_t hash_name(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

HT_NOINSTR static int find_extent(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct extent *e = data;
    if (info->dlpi_addr != e->bias || !info->dlpi_name || hash_name(info->dlpi_name) != e->name_hash)
        return 0;
    for (size_t i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t lo = e->bias + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (e->hi == 0 || lo < e->lo)
            e->lo = lo;
        if (hi > e->hi)
            e->hi = hi;
    }
    return 1;
}

/* Where the library of handle lies, while it is loaded; false if unknown. */
HT_NOINSTR static bool extent_of(void *handle, struct extent *e)
{
    struct link_map *lm = NULL;
    if (!handle || dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_name ||
        !lm->l_name[0])
        return false;
    e->bias = lm->l_addr;
    e->name_hash = hash_name(lm->l_name);
    e->lo = e->hi = 0;
    dl_iterate_phdr(find_extent, e);
    return e->hi > e->lo;
}

HT_NOINSTR static bool still_loaded(struct extent *e)
{
    struct extent again = *e;
    again.lo = again.hi = 0;
    return dl_iterate_phdr(find_extent, &again) != 0;
}

HT_NOINSTR int ht_runtime_dlclose(void *handle)
{
    /* Only while a profile is being recorded: after it is written (as MPI
     * implementations close their components in MPI_Finalize) nothing
     * will be named any more. */
    if (__atomic_load_n(&ht_recording, __ATOMIC_RELAXED))
        ht_symbols_note_closing(handle);
    /* Open MPI's components MPI_Init closes, kept for MPI_T (mpit.h). */
    ht_mpit_hold_closing(handle);
    /* Throttling on, or functions excluded: note the extent before,
     * retire it if unmapped after (a library still referenced elsewhere
     * stays, and so does its state); a library loaded there later is read
     * for excluded functions afresh. */
    if (!ht_throttle_in_use())
        return ht_libc_dlclose(handle);
    struct extent closing;
    bool known = extent_of(handle, &closing);
    int result = ht_libc_dlclose(handle);
    if (result == 0 && known && !still_loaded(&closing)) {
        ht_throttle_code_unmapped(closing.lo, closing.hi);
        ht_exclusions_unmapped(closing.lo, closing.hi);
    }
    return result;
}
