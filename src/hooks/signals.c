/* sigaction and signal, interposed so that a program's own handler for
 * SIGTERM, SIGINT or SIGHUP chains behind hooktrace's instead of replacing
 * it (src/runtime/signals.c, docs/what_happens.md).
 *
 * Without this, a program that installs a handler which cleans up and then
 * re-raises the signal with its default action (the usual way to die "of"
 * a signal after cleaning up) left no profile: its handler had replaced
 * ours.  Now the kernel keeps ours; the program's action is recorded and
 * answered back to it (a query sees what the program set, never our
 * handler), and our handler runs the program's.  Signals hooktrace does not
 * hold pass straight through.
 *
 * Only in the shared library, like dlclose.c: a program linked with
 * libhooktrace.a keeps the plain rule (its handler replaces ours).  The
 * C library's functions are found with dlsym(RTLD_NEXT). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>

#include "hooks/hooks.h"
#include "runtime/runtime.h"

#if defined(PIC)

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef sighandler_t (*signal_fn)(int, sighandler_t);

static void *next_symbol(void **cache, const char *name)
{
    void *sym = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (!sym) {
        sym = dlsym(RTLD_NEXT, name);
        __atomic_store_n(cache, sym, __ATOMIC_RELEASE);
    }
    return sym;
}

HT_EXPORT HT_NOINSTR int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    int rc;
    if (ht_signals_program_action(sig, act, old, &rc))
        return rc;
    static void *cache;
    void *sym = next_symbol(&cache, "sigaction");
    sigaction_fn next;
    /* ISO C forbids the object-to-function pointer cast; POSIX requires it
     * to work. */
    __builtin_memcpy(&next, &sym, sizeof next);
    if (!next) {
        errno = ENOSYS;
        return -1;
    }
    return next(sig, act, old);
}

/* glibc's signal(): BSD semantics (SA_RESTART, the signal blocked in its
 * handler). */
HT_EXPORT HT_NOINSTR sighandler_t signal(int sig, sighandler_t handler)
{
    struct sigaction act = {.sa_handler = handler, .sa_flags = SA_RESTART}, old;
    sigemptyset(&act.sa_mask);
    if (sig > 0 && sig < NSIG)
        sigaddset(&act.sa_mask, sig);
    int rc;
    if (ht_signals_program_action(sig, &act, &old, &rc))
        return rc == 0 ? old.sa_handler : SIG_ERR;
    static void *cache;
    void *sym = next_symbol(&cache, "signal");
    signal_fn next;
    __builtin_memcpy(&next, &sym, sizeof next);
    if (!next) {
        errno = ENOSYS;
        return SIG_ERR;
    }
    return next(sig, handler);
}

#endif
