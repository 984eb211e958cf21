/* sigaction and the old-style signal APIs (signal, bsd_signal, ssignal,
 * sysv_signal, sigset, sigignore, siginterrupt), interposed so that a
 * program's own handler for SIGTERM, SIGINT or SIGHUP chains behind
 * hooktrace's instead of replacing it (src/runtime/signals.c,
 * docs/what_happens.md).
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

/* The old-style entry points: glibc implements them with its internal
 * sigaction, past this interposer, so each is redone here through the same
 * path, with glibc's semantics, for the signals hooktrace holds; any other
 * signal goes to the C library's own. */

/* Signals siginterrupt() asked to interrupt system calls: signal() then
 * sets no SA_RESTART for them (glibc's _sigintr). */
static sigset_t interrupting;

static bool valid(int sig, sighandler_t handler)
{
    if (handler == SIG_ERR || sig < 1 || sig >= NSIG) {
        errno = EINVAL;
        return false;
    }
    return true;
}

static sighandler_t set_handler(int sig, sighandler_t handler, int flags, bool block_self)
{
    struct sigaction act = {.sa_handler = handler, .sa_flags = flags}, old;
    sigemptyset(&act.sa_mask);
    if (block_self)
        sigaddset(&act.sa_mask, sig);
    int rc;
    ht_signals_program_action(sig, &act, &old, &rc);
    return rc == 0 ? old.sa_handler : SIG_ERR;
}

static sighandler_t next_signal(void **cache, const char *name, int sig, sighandler_t handler)
{
    void *sym = next_symbol(cache, name);
    signal_fn next;
    __builtin_memcpy(&next, &sym, sizeof next);
    if (!next) {
        errno = ENOSYS;
        return SIG_ERR;
    }
    return next(sig, handler);
}

/* signal(), bsd_signal(), ssignal(): BSD semantics (the signal blocked in
 * its handler, SA_RESTART unless siginterrupt said otherwise). */
static sighandler_t bsd_signal_held(int sig, sighandler_t handler)
{
    if (!valid(sig, handler))
        return SIG_ERR;
    return set_handler(sig, handler, sigismember(&interrupting, sig) ? 0 : SA_RESTART, true);
}

HT_EXPORT HT_NOINSTR sighandler_t signal(int sig, sighandler_t handler)
{
    static void *cache;
    return ht_signals_held(sig) ? bsd_signal_held(sig, handler)
                                : next_signal(&cache, "signal", sig, handler);
}

HT_EXPORT HT_NOINSTR sighandler_t bsd_signal(int sig, sighandler_t handler)
{
    static void *cache;
    return ht_signals_held(sig) ? bsd_signal_held(sig, handler)
                                : next_signal(&cache, "bsd_signal", sig, handler);
}

HT_EXPORT HT_NOINSTR sighandler_t ssignal(int sig, sighandler_t handler)
{
    static void *cache;
    return ht_signals_held(sig) ? bsd_signal_held(sig, handler)
                                : next_signal(&cache, "ssignal", sig, handler);
}

/* System V semantics: reset to SIG_DFL on delivery, not blocked in its
 * handler, no SA_RESTART.  __sysv_signal is what signal() becomes in a
 * program compiled for strict ISO C or POSIX (no _DEFAULT_SOURCE). */
static sighandler_t sysv_signal_held(int sig, sighandler_t handler)
{
    if (!valid(sig, handler))
        return SIG_ERR;
    return set_handler(sig, handler, SA_RESETHAND | SA_NODEFER, false);
}

HT_EXPORT HT_NOINSTR sighandler_t sysv_signal(int sig, sighandler_t handler)
{
    static void *cache;
    return ht_signals_held(sig) ? sysv_signal_held(sig, handler)
                                : next_signal(&cache, "sysv_signal", sig, handler);
}

HT_EXPORT HT_NOINSTR sighandler_t __sysv_signal(int sig, sighandler_t handler)
{
    static void *cache;
    return ht_signals_held(sig) ? sysv_signal_held(sig, handler)
                                : next_signal(&cache, "__sysv_signal", sig, handler);
}

/* System V's sigset(): SIG_HOLD blocks the signal and leaves its action;
 * any other disposition is set with no flags and unblocks it; SIG_HOLD is
 * returned when the signal was blocked. */
HT_EXPORT HT_NOINSTR sighandler_t sigset(int sig, sighandler_t disp)
{
    static void *cache;
    if (!ht_signals_held(sig))
        return next_signal(&cache, "sigset", sig, disp);
    sigset_t set, was;
    sigemptyset(&set);
    sigaddset(&set, sig);
    if (disp == SIG_HOLD) {
        if (sigprocmask(SIG_BLOCK, &set, &was) < 0)
            return SIG_ERR;
        if (sigismember(&was, sig))
            return SIG_HOLD;
        struct sigaction now;
        int rc;
        ht_signals_program_action(sig, NULL, &now, &rc);
        return rc == 0 ? now.sa_handler : SIG_ERR;
    }
    sighandler_t before = set_handler(sig, disp, 0, false);
    if (before == SIG_ERR || sigprocmask(SIG_UNBLOCK, &set, &was) < 0)
        return SIG_ERR;
    return sigismember(&was, sig) ? SIG_HOLD : before;
}

HT_EXPORT HT_NOINSTR int sigignore(int sig)
{
    static void *cache;
    if (!ht_signals_held(sig)) {
        void *sym = next_symbol(&cache, "sigignore");
        int (*next)(int);
        __builtin_memcpy(&next, &sym, sizeof next);
        if (!next) {
            errno = ENOSYS;
            return -1;
        }
        return next(sig);
    }
    return set_handler(sig, SIG_IGN, 0, false) == SIG_ERR ? -1 : 0;
}

/* SA_RESTART cleared (interrupt) or set on the current action, and
 * remembered for later signal() calls. */
HT_EXPORT HT_NOINSTR int siginterrupt(int sig, int interrupt)
{
    static void *cache;
    if (!ht_signals_held(sig)) {
        void *sym = next_symbol(&cache, "siginterrupt");
        int (*next)(int, int);
        __builtin_memcpy(&next, &sym, sizeof next);
        if (!next) {
            errno = ENOSYS;
            return -1;
        }
        return next(sig, interrupt);
    }
    struct sigaction act = {.sa_handler = SIG_DFL};
    int rc;
    ht_signals_program_action(sig, NULL, &act, &rc);
    if (rc != 0)
        return -1;
    if (interrupt) {
        sigaddset(&interrupting, sig);
        act.sa_flags &= ~SA_RESTART;
    } else {
        sigdelset(&interrupting, sig);
        act.sa_flags |= SA_RESTART;
    }
    ht_signals_program_action(sig, &act, NULL, &rc);
    return rc;
}

#endif
