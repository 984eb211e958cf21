/* The program's own action for SIGTERM, SIGINT and SIGHUP while hooktrace
 * holds the kernel's handler (signals.c, src/hooks/signals.c).
 *
 * Transparency asks that the program cannot tell: a query returns what the
 * kernel would (the flags glibc adds, the mask without SIGKILL and SIGSTOP,
 * only the kernel's 64 bits of it written back), SIG_IGN and SIG_DFL are
 * dispositions whatever sa_flags say, and SA_RESETHAND resets the action
 * once per delivery however many threads take the signal at once.
 *
 * The handler may run on any thread while another one changes the action,
 * so each action is a sequence lock: a writer makes the count odd, writes,
 * makes it even; a reader copies and retries if the count moved.  A writer
 * blocks every signal in its own thread first, so no reader ever waits for
 * the thread it interrupted.  The SA_RESETHAND reset is a writer that only
 * wins if the version it read is still the current one. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "runtime/runtime.h"
#include "runtime/signal_actions.h"

const int ht_signals_watched[HT_SIGNALS_WATCHED] = {SIGTERM, SIGINT, SIGHUP};

/* The C library's own: sigaction itself is interposed in the shared
 * library (src/hooks/signals.c), and would send us back here. */
extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *old);

/* What the kernel's sigset_t holds, and glibc copies back into a query's
 * answer (the rest of the caller's 1024 bits stays as it was). */
#define KERNEL_SIGSET_BYTES ((NSIG - 1) / 8)

struct program_action {
    unsigned seq;             /* even: stable; odd: being written */
    bool held;                /* the kernel's handler is ours */
    struct sigaction action;  /* as the kernel would report it */
};
static struct program_action actions[HT_SIGNALS_WATCHED];
static pid_t owner;

int ht_signals_slot(int sig)
{
    for (unsigned i = 0; i < HT_SIGNALS_WATCHED; i++)
        if (ht_signals_watched[i] == sig)
            return (int)i;
    return -1;
}

void ht_signals_set_owner(void)
{
    __atomic_store_n(&owner, getpid(), __ATOMIC_RELEASE);
}

pid_t ht_signals_owner(void)
{
    return __atomic_load_n(&owner, __ATOMIC_ACQUIRE);
}

static void lock(unsigned slot, sigset_t *saved)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, saved);
    for (;;) {
        unsigned s = __atomic_load_n(&actions[slot].seq, __ATOMIC_RELAXED);
        if (!(s & 1) && __atomic_compare_exchange_n(&actions[slot].seq, &s, s + 1, false,
                                                    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return;
    }
}

static void unlock(unsigned slot, const sigset_t *saved)
{
    __atomic_fetch_add(&actions[slot].seq, 1, __ATOMIC_RELEASE);
    pthread_sigmask(SIG_SETMASK, saved, NULL);
}

void ht_signals_read(unsigned slot, struct sigaction *out, unsigned *seq, bool foreign)
{
    for (unsigned long tries = 0;; tries++) {
        unsigned s = __atomic_load_n(&actions[slot].seq, __ATOMIC_ACQUIRE);
        bool give_up = foreign && tries > (1ul << 24);
        if ((s & 1) && !give_up)
            continue;
        memcpy(out, &actions[slot].action, sizeof *out);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&actions[slot].seq, __ATOMIC_RELAXED) == s || give_up) {
            *seq = s;
            return;
        }
    }
}

bool ht_signals_reset_once(unsigned slot, unsigned seq)
{
    /* Nothing may interrupt the write in this thread: with SA_NODEFER the
     * same signal would wait for it forever. */
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved);
    unsigned expected = seq;
    bool won = !(seq & 1) && __atomic_compare_exchange_n(&actions[slot].seq, &expected, seq + 1,
                                                        false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
    if (won) {
        /* As the kernel does: the handler only; flags and mask stay. */
        actions[slot].action.sa_handler = SIG_DFL;
        __atomic_store_n(&actions[slot].seq, seq + 2, __ATOMIC_RELEASE);
    }
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    return won;
}

void ht_signals_after_fork(void)
{
    for (unsigned i = 0; i < HT_SIGNALS_WATCHED; i++)
        __atomic_fetch_and(&actions[i].seq, ~1u, __ATOMIC_RELEASE);
    ht_signals_set_owner();
}

/* Our handler in the kernel for the program's action a (SIG_IGN as it is,
 * so that it survives exec), with a's mask and flags so that its handler
 * runs as it asked; *reported: what a query must now return. */
static int install(int sig, const struct sigaction *a, struct sigaction *reported)
{
    if (a->sa_handler == SIG_IGN) {
        if (__sigaction(sig, a, NULL) != 0)
            return -1;
        return __sigaction(sig, NULL, reported);
    }
    struct sigaction ours = *a;
    ours.sa_sigaction = ht_signals_on_signal;
    ours.sa_flags = (a->sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
    if (__sigaction(sig, &ours, NULL) != 0 || __sigaction(sig, NULL, reported) != 0)
        return -1;
    /* The kernel's view (glibc's SA_RESTORER and restorer, the mask it
     * kept), with the program's handler and its own SA_SIGINFO and
     * SA_RESETHAND. */
    memcpy(&reported->sa_handler, &a->sa_handler, sizeof reported->sa_handler);
    const int ours_only = SA_SIGINFO | SA_RESETHAND;
    reported->sa_flags = (reported->sa_flags & ~ours_only) | (a->sa_flags & ours_only);
    return 0;
}

/* Field by field, as glibc fills in a query's answer. */
static void report(const struct sigaction *from, struct sigaction *to)
{
    memcpy(&to->sa_handler, &from->sa_handler, sizeof to->sa_handler);
    memcpy(&to->sa_mask, &from->sa_mask, KERNEL_SIGSET_BYTES);
    to->sa_flags = from->sa_flags;
    to->sa_restorer = from->sa_restorer;
}

bool ht_signals_hold(unsigned slot, const struct sigaction *now)
{
    struct sigaction installed;
    if (install(ht_signals_watched[slot], now, &installed) != 0)
        return false;
    /* What the kernel said before ours was there: the flags glibc adds
     * appear only once the program sets an action itself. */
    actions[slot].action = *now;
    __atomic_store_n(&actions[slot].held, true, __ATOMIC_RELEASE);
    return true;
}

void ht_signals_release(unsigned slot)
{
    __atomic_store_n(&actions[slot].held, false, __ATOMIC_RELEASE);
}

bool ht_signals_held(int sig)
{
    int slot = ht_signals_slot(sig);
    return slot >= 0 && __atomic_load_n(&actions[slot].held, __ATOMIC_ACQUIRE);
}

/* A process that does not own the actions (a vfork child shares them with
 * its parent): the kernel's table is its own, the memory may not be.  It
 * asks the kernel, answering the recorded action where ours is there. */
static int foreign_action(unsigned slot, int sig, const struct sigaction *act,
                          struct sigaction *old)
{
    struct sigaction kernel;
    int rc = __sigaction(sig, act, &kernel);
    if (rc == 0 && old) {
        if (kernel.sa_sigaction == ht_signals_on_signal) {
            unsigned seq;
            ht_signals_read(slot, &kernel, &seq, true);
        }
        report(&kernel, old);
    }
    return rc;
}

bool ht_signals_program_action(int sig, const struct sigaction *act, struct sigaction *old, int *rc)
{
    int slot = ht_signals_slot(sig);
    if (slot < 0 || !__atomic_load_n(&actions[slot].held, __ATOMIC_ACQUIRE))
        return false;
    /* Copied before *old is written: act and old may be the same. */
    struct sigaction want;
    if (act)
        want = *act;
    if (getpid() != ht_signals_owner()) {
        *rc = foreign_action((unsigned)slot, sig, act ? &want : NULL, old);
        return true;
    }
    sigset_t saved;
    lock((unsigned)slot, &saved);
    struct sigaction before = actions[slot].action;
    *rc = 0;
    int error = 0;
    if (act) {
        struct sigaction reported;
        if ((*rc = install(sig, &want, &reported)) == 0)
            actions[slot].action = reported;
        else
            error = errno;
    }
    unlock((unsigned)slot, &saved);
    if (*rc != 0)
        errno = error;
    else if (old)
        report(&before, old);
    return true;
}
