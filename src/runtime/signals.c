/* SIGTERM, SIGINT, SIGHUP: what a batch scheduler sends at the walltime, a
 * user's ^C, a closed terminal.  Without this the process dies with nothing
 * written.  With it, each process (each MPI rank) writes a partial profile of
 * its own, marked partial, and then dies of the same signal (a shell still
 * sees 128 + signal).
 *
 * Nothing is written from inside the handler: it may have interrupted
 * malloc or stdio.  The handler wakes a watcher thread (started at
 * start-up with every signal blocked, so no signal is ever delivered to it,
 * and never recorded: it runs library code only) through a word in memory
 * and a futex, and waits on a second word for at most signal_timeout_ms:
 * plain system calls, async-signal-safe, and no descriptor, which a
 * program that closes every descriptor it did not open and opens its own
 * files would get back and have written into.  If the interrupted thread holds a lock the writer
 * needs, the wait times out, standard error says the profile was not
 * written, and the process dies all the same.
 *
 * The rule for the program's own handlers (docs/what_happens.md): a signal
 * whose disposition is not SIG_DFL at start-up (ignored, or handled by a
 * preloaded library) is left alone.  For the others hooktrace holds the
 * kernel's handler from then on: sigaction and the old-style entry points
 * are interposed (src/hooks/signals.c), and what the program (or a library
 * it loads) sets is recorded as the program's action (signal_actions.c),
 * which our handler carries out: its handler is called, with its flags and
 * mask; SIG_IGN is set in the kernel as it is (so that it survives exec).
 * hooktrace writes a partial profile only where the program's action is
 * the default one, death: at once, or when its handler cleans up and
 * re-raises the signal with SIG_DFL.  A handler that calls exit() gets the
 * complete profile at exit; one that returns lets the program go on, still
 * recorded.  Only the process that started the watcher writes: a vfork
 * child, or a fork child the signal reaches before its set-up, shares or
 * copies our state, and acts as the kernel would without us.
 *
 * An MPI rank does not die before RANK_LINGER_MS have passed since the
 * signal reached it, even when its files are written sooner: Open MPI's
 * mpirun sends SIGKILL to the other ranks as soon as the first one dies
 * (its 1 s wait, sleep(1), ends early on the first SIGCHLD and sleep
 * rounds the second left down to 0), and hydra kills them outright then.
 * So the first rank to die decides how long all have to write their
 * partial profiles; the linger gives them all the same 0.75 s, within
 * Open MPI's default 1 s. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "output/output.h"
#include "runtime/runtime.h"
#include "runtime/signal_actions.h"
#include "throttle/patch.h"

static const char *const watched_names[HT_SIGNALS_WATCHED] = {"SIGTERM", "SIGINT", "SIGHUP"};

/* request: handler -> watcher, 0 until a signal asks, then 1 + the
 * signal's index; done: watcher -> handler, 0 until the profile is
 * written, then 1 for every handler waiting. */
static int request_word, done_word;

static long futex(int *word, int op, int value, const struct timespec *timeout)
{
    return syscall(SYS_futex, word, op, value, timeout, NULL, 0);
}
static int handling;
static unsigned timeout_ms;

extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *old);
static struct ht_partial why = {.reason = "signal"};

#define RANK_LINGER_MS 750
/* Set by the watcher before it says done: the handler waits until the
 * linger is over (an MPI rank). */
static int linger;

/* arrived + ms, on CLOCK_MONOTONIC */
static struct timespec after(struct timespec arrived, unsigned ms)
{
    arrived.tv_sec += ms / 1000;
    arrived.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (arrived.tv_nsec >= 1000000000L) {
        arrived.tv_sec++;
        arrived.tv_nsec -= 1000000000L;
    }
    return arrived;
}

static void say(const char *a, const char *b, const char *c)
{
    /* write(2): the handler may not use stdio. */
    ssize_t r = write(STDERR_FILENO, a, strlen(a));
    r = write(STDERR_FILENO, b, strlen(b));
    r = write(STDERR_FILENO, c, strlen(c));
    (void)r;
}

/* Dies of sig with no profile: the default action, delivered as soon as
 * the handler returns (the signal is blocked while it runs). */
static void die_of(int sig)
{
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    sigemptyset(&dfl.sa_mask);
    __sigaction(sig, &dfl, NULL);
    raise(sig);
}

/* The program's action for the signal, as the kernel would carry it out.
 * Returns false when that action is the default one (death). */
static bool program_action(int slot, int sig, siginfo_t *info, void *context, bool foreign,
                           int saved_errno)
{
    for (;;) {
        struct sigaction program;
        unsigned seq;
        ht_signals_read((unsigned)slot, &program, &seq, foreign);
        /* SIG_IGN and SIG_DFL are dispositions whatever sa_flags say
         * (SA_SIGINFO included), as in the kernel. */
        if (program.sa_handler == SIG_IGN)
            return true;
        if (program.sa_handler == SIG_DFL)
            return false;
        if (program.sa_flags & SA_RESETHAND) {
            if (foreign) {
                /* This process's own table: the owner's record is not
                 * ours to change (a vfork child shares its memory). */
                struct sigaction dfl = {.sa_handler = SIG_DFL};
                sigemptyset(&dfl.sa_mask);
                __sigaction(sig, &dfl, NULL);
            } else if (!ht_signals_reset_once((unsigned)slot, seq)) {
                continue; /* another delivery reset it first */
            }
        }
        errno = saved_errno;
        if (program.sa_flags & SA_SIGINFO)
            program.sa_sigaction(sig, info, context);
        else
            program.sa_handler(sig);
        return true;
    }
}

void ht_signals_on_signal(int sig, siginfo_t *info, void *context)
{
    int saved_errno = errno;
    struct timespec arrived;
    clock_gettime(CLOCK_MONOTONIC, &arrived);
    int slot = ht_signals_slot(sig);
    /* A process that did not start the watcher (a vfork child, a fork
     * child before its set-up) does its own thing and never wakes the
     * parent's watcher through the words it shares (vfork) or copied. */
    bool foreign = getpid() != ht_signals_owner();
    if (slot >= 0 && program_action(slot, sig, info, context, foreign, saved_errno))
        return; /* errno as the program's handler left it */
    if (foreign) {
        die_of(sig);
        errno = saved_errno;
        return;
    }
    const char *name = slot >= 0 ? watched_names[slot] : "a signal";
    /* The first signal asks for the profile; a second one (another thread,
     * another signal) waits for the same write. */
    bool first = !__atomic_exchange_n(&handling, 1, __ATOMIC_ACQ_REL);
    if (first) {
        __atomic_store_n(&request_word, 1 + (slot >= 0 ? slot : 0), __ATOMIC_RELEASE);
        futex(&request_word, FUTEX_WAKE_PRIVATE, 1, NULL);
    }
    struct timespec now, deadline;
    clock_gettime(CLOCK_MONOTONIC, &now);
    deadline = after(now, timeout_ms);
    bool written;
    while (!(written = __atomic_load_n(&done_word, __ATOMIC_ACQUIRE) != 0)) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        long long left = (long long)(deadline.tv_sec - now.tv_sec) * 1000000000LL +
                         (deadline.tv_nsec - now.tv_nsec);
        if (left <= 0)
            break;
        struct timespec wait = {(time_t)(left / 1000000000LL), (long)(left % 1000000000LL)};
        futex(&done_word, FUTEX_WAIT_PRIVATE, 0, &wait);
    }
    if (!written)
        say("hooktrace: ", name,
            ": the partial profile was not written in time (signal_timeout_ms; the "
            "interrupted code may hold a lock the writer needs)\n");
    else if (__atomic_load_n(&linger, __ATOMIC_ACQUIRE)) {
        /* clock_nanosleep is async-signal-safe; never past the timeout */
        struct timespec until =
            after(arrived, RANK_LINGER_MS < timeout_ms ? RANK_LINGER_MS : timeout_ms);
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
            ;
    }
    if (slot >= 0)
        ht_signals_release((unsigned)slot);
    die_of(sig);
    errno = saved_errno;
}

static int watcher_running;

static void *watch(void *unused)
{
    (void)unused;
    /* It runs none of the program's code, which patching rewrites. */
    ht_patch_thread_runs_no_program_code((long)gettid());
    __atomic_store_n(&watcher_running, 1, __ATOMIC_RELEASE);
    int word;
    while ((word = __atomic_load_n(&request_word, __ATOMIC_ACQUIRE)) == 0)
        futex(&request_word, FUTEX_WAIT_PRIVATE, 0, NULL);
    unsigned slot = (unsigned)(word - 1);
    why.signal = watched_names[slot < HT_SIGNALS_WATCHED ? slot : 0];
    __atomic_store_n(&linger, ht_runtime_is_running_rank(), __ATOMIC_RELEASE);
    ht_runtime_finish_partial(&why);
    __atomic_store_n(&done_word, 1, __ATOMIC_RELEASE);
    futex(&done_word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
    return NULL;
}

/* The watcher thread, with every signal blocked. */
static bool start_watcher(void)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int rc = pthread_create(&thread, &attr, watch, NULL);
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    /* Until the thread runs (at most 1 s): a fork child that exits at once
     * must not exit while its new thread is still being set up, which
     * deadlocked LeakSanitizer's check at exit against the thread's
     * start-up in AddressSanitizer's allocator (1 fork in 6 under ASan). */
    for (int waited = 0; rc == 0 && waited < 10000 &&
                         !__atomic_load_n(&watcher_running, __ATOMIC_ACQUIRE); waited++) {
        struct timespec pause = {0, 100 * 1000};
        nanosleep(&pause, NULL);
    }
    if (rc != 0) {
        fprintf(stderr, "hooktrace: cannot start the signal watcher thread (%s): SIGTERM, "
                        "SIGINT and SIGHUP will leave no profile\n", strerror(rc));
        return false;
    }
    return true;
}

void ht_signals_start(void)
{
    timeout_ms = ht_runtime_config()->signal_timeout_ms;
    if (!start_watcher())
        return;
    ht_signals_set_owner();
    for (unsigned i = 0; i < HT_SIGNALS_WATCHED; i++) {
        struct sigaction now;
        if (__sigaction(ht_signals_watched[i], NULL, &now) != 0 || now.sa_handler != SIG_DFL)
            continue; /* ignored or handled already: not ours */
        ht_signals_hold(i, &now);
    }
}

void ht_signals_restart(void)
{
    /* In a fork child: the watcher did not survive the fork; a new one,
     * on words of the child's own (private futexes: the parent's are the
     * parent's). */
    ht_signals_after_fork();
    __atomic_store_n(&request_word, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&done_word, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&handling, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&watcher_running, 0, __ATOMIC_RELEASE);
    start_watcher();
}
