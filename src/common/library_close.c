/* Closing a library through the registered closer (library_close.h). */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>

#include "common/compiler.h"
#include "common/library_close.h"

static ht_library_closer registered;

void ht_library_close_register(ht_library_closer closer)
{
    __atomic_store_n(&registered, closer, __ATOMIC_RELEASE);
}

HT_NOINSTR int ht_libc_dlclose(void *handle)
{
    static ht_library_closer real;
    ht_library_closer next = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (!next) {
        void *sym = dlsym(RTLD_NEXT, "dlclose");
        /* ISO C forbids the object-to-function pointer cast; POSIX
         * requires it to work. */
        __builtin_memcpy(&next, &sym, sizeof next);
        if (!next)
            return -1; /* no C library dlclose: nothing was closed */
        __atomic_store_n(&real, next, __ATOMIC_RELEASE);
    }
    return next(handle);
}

int ht_library_close(void *handle)
{
    ht_library_closer closer = __atomic_load_n(&registered, __ATOMIC_ACQUIRE);
    return closer ? closer(handle) : ht_libc_dlclose(handle);
}
