/* dlclose unmaps a library, and with it what hooktrace needs to name the
 * functions recorded in it: the profile is named at shut-down, when
 * dl_iterate_phdr no longer lists the library.  libhooktrace interposes
 * dlclose so that, just before the C library's dlclose runs, the library's
 * path, load bias, segments and an open descriptor of its file are noted
 * (src/symbols/closed.c); shut-down then names its addresses from that
 * file (docs/symbols.md, "Libraries closed with dlclose").
 *
 * It also retires what throttling knew of the library's code once the C
 * library's dlclose has unmapped it (src/throttle/throttle.h): a library
 * loaded later at the same address is a new function to it.
 *
 * Only in the shared library (libtool defines PIC there), like longjmp.c.
 * The C library's dlclose is found with dlsym(RTLD_NEXT): libhooktrace
 * comes before the C library in the program's search order. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

#include "hooks/hooks.h"
#include "mpit/mpit.h"
#include "runtime/exclusions.h"
#include "runtime/runtime.h"
#include "symbols/symbols.h"
#include "throttle/throttle.h"

#if defined(PIC)

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

typedef int (*dlclose_fn)(void *);

HT_EXPORT HT_NOINSTR int dlclose(void *handle)
{
    static dlclose_fn real;
    dlclose_fn next = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (!next) {
        void *sym = dlsym(RTLD_NEXT, "dlclose");
        /* ISO C forbids the object-to-function pointer cast; POSIX
         * requires it to work. */
        __builtin_memcpy(&next, &sym, sizeof next);
        if (!next)
            return -1; /* no C library dlclose: nothing was closed */
        __atomic_store_n(&real, next, __ATOMIC_RELEASE);
    }
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
        return next(handle);
    struct extent closing;
    bool known = extent_of(handle, &closing);
    int result = next(handle);
    if (result == 0 && known && !still_loaded(&closing)) {
        ht_throttle_code_unmapped(closing.lo, closing.hi);
        ht_exclusions_unmapped(closing.lo, closing.hi);
    }
    return result;
}

#endif
