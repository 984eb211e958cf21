/* Closing a library from inside hooktrace, and the C library's dlclose.
 *
 * libhooktrace interposes dlclose (src/hooks/dlclose.c) so that what it
 * knows of a library is noted before the library is unmapped and retired
 * after.  hooktrace's own closes (the Open MPI components MPI_T held,
 * src/mpit/mpit_late.c; the demangler, src/symbols/names.c) need the same
 * bookkeeping, but a call to dlclose from a service would be a call up
 * into src/hooks.  So the runtime registers the function that does the
 * bookkeeping here at start-up, and the services close through
 * ht_library_close, which reaches it without knowing where it lives. */
#ifndef HT_COMMON_LIBRARY_CLOSE_H
#define HT_COMMON_LIBRARY_CLOSE_H

typedef int (*ht_library_closer)(void *handle);

/* The closer every ht_library_close goes through (the runtime's, once). */
void ht_library_close_register(ht_library_closer closer);

/* dlclose(handle) through the registered closer; the C library's dlclose
 * if none is registered (a unit test, a static library). */
int ht_library_close(void *handle);

/* The C library's own dlclose, the one after libhooktrace's (RTLD_NEXT);
 * -1 if there is none. */
int ht_libc_dlclose(void *handle);

#endif
