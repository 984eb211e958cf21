/* libhooktrace interposes dlclose: what hooktrace must note before a
 * library is unmapped, and retire after, is the runtime's
 * (src/runtime/libraries.c, ht_runtime_dlclose), which then calls the C
 * library's dlclose.
 *
 * Only in the shared library (libtool defines PIC there), like longjmp.c:
 * libhooktrace comes before the C library in the program's search order,
 * and the C library's dlclose is found with dlsym(RTLD_NEXT). */
#include "common/compiler.h"
#include "runtime/runtime.h"

#if defined(PIC)

HT_EXPORT HT_NOINSTR int dlclose(void *handle)
{
    return ht_runtime_dlclose(handle);
}

#endif
