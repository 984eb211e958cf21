/* dlclose unmaps a library, and with it what hooktrace needs to name the
 * functions recorded in it: the profile is named at shut-down, when
 * dl_iterate_phdr no longer lists the library.  libhooktrace interposes
 * dlclose so that, just before the C library's dlclose runs, the library's
 * path, load bias, segments and an open descriptor of its file are noted
 * (src/symbols/closed.c); shut-down then names its addresses from that
 * file (docs/symbols.md, "Libraries closed with dlclose").
 *
 * Only in the shared library (libtool defines PIC there), like longjmp.c.
 * The C library's dlclose is found with dlsym(RTLD_NEXT): libhooktrace
 * comes before the C library in the program's search order. */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "hooks/hooks.h"
#include "runtime/runtime.h"
#include "symbols/symbols.h"

#if defined(PIC)

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
    return next(handle);
}

#endif
