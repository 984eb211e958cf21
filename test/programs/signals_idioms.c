/* Signal-handling idioms, run plain and instrumented by
 * test/integration/signals_diff.py, which compares exit status and
 * standard output exactly.  `signals_idioms MODE N`: N calls of work(),
 * then MODE; what a query of an action shows is printed with the flags as
 * the kernel reports them. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* sigset, sigignore, siginterrupt and bsd_signal are deprecated: they are
 * what this program tests. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* What signal() becomes in a program compiled for strict ISO C or POSIX. */
extern sighandler_t __sysv_signal(int sig, sighandler_t handler);
/* Declared by glibc only for XPG before POSIX 2008. */
extern sighandler_t bsd_signal(int sig, sighandler_t handler);

/* The same pointer twice, out of the compiler's sight (sigaction's
 * parameters are restrict-qualified, yet programs do this). */
#ifdef __clang__ /* no noipa: optnone keeps its body, and what it returns, unknown */
__attribute__((noinline, optnone)) static struct sigaction *same(struct sigaction *a)
#else
__attribute__((noinline, noipa)) static struct sigaction *same(struct sigaction *a)
#endif
{
    return a;
}

static volatile double sink;
static volatile sig_atomic_t depth, handled, runs;
static int pipe_fds[2];
static pthread_t raiser;

__attribute__((noinline)) static void work(int i) { sink += i * 0.5; }

static void say(const char *s)
{
    ssize_t r = write(STDOUT_FILENO, s, strlen(s));
    (void)r;
}

static void plain_handler(int sig)
{
    (void)sig;
    runs++;
    say("plain_handler ran\n");
}

static void other_handler(int sig)
{
    (void)sig;
    runs++;
    say("other_handler ran\n");
}

static void info_handler(int sig, siginfo_t *info, void *context)
{
    (void)context;
    runs++;
    say(info->si_signo == sig ? "info_handler ran with its siginfo\n" : "info_handler: wrong siginfo\n");
}

static const char *name_of(const struct sigaction *a)
{
    if (a->sa_handler == SIG_DFL)
        return "SIG_DFL";
    if (a->sa_handler == SIG_IGN)
        return "SIG_IGN";
    if (a->sa_handler == plain_handler)
        return "plain_handler";
    if (a->sa_handler == other_handler)
        return "other_handler";
    if (a->sa_sigaction == info_handler)
        return "info_handler";
    return "another handler";
}

static const char *disposition(sighandler_t h)
{
    struct sigaction a = {.sa_handler = h};
    if (h == SIG_ERR)
        return "SIG_ERR";
    if (h == SIG_HOLD)
        return "SIG_HOLD";
    return name_of(&a);
}

/* The program's view of sig's action. */
static void show(const char *when, int sig)
{
    struct sigaction now;
    memset(&now, 0, sizeof now);
    if (sigaction(sig, NULL, &now) != 0) {
        printf("%s: query failed\n", when);
        return;
    }
    printf("%s: %s flags=%#x mask:self=%d,usr1=%d,kill=%d\n", when, name_of(&now),
           (unsigned)now.sa_flags, sigismember(&now.sa_mask, sig),
           sigismember(&now.sa_mask, SIGUSR1), sigismember(&now.sa_mask, SIGKILL));
    fflush(stdout);
}

static void set(int sig, void (*handler)(int), int flags)
{
    struct sigaction a = {.sa_handler = handler, .sa_flags = flags};
    sigemptyset(&a.sa_mask);
    sigaction(sig, &a, NULL);
}

static void show_in_handler(int sig)
{
    runs++;
    struct sigaction now;
    sigaction(sig, NULL, &now);
    say(now.sa_handler == SIG_DFL ? "in the handler the action is SIG_DFL\n"
                                  : "in the handler the action is still set\n");
}

/* SA_NODEFER: a signal raised in its own handler nests at once; without
 * it, it waits until the handler returns. */
static void nesting_handler(int sig)
{
    char line[32];
    int d = ++depth;
    snprintf(line, sizeof line, "enter %d\n", d);
    say(line);
    if (runs++ == 0)
        raise(sig);
    snprintf(line, sizeof line, "leave %d\n", d);
    say(line);
    depth--;
}

/* Handler chains: a library's handler installed over the program's, which
 * it calls afterwards (or, over SIG_DFL, restores and re-raises). */
static struct sigaction chained;

static void library_handler(int sig, siginfo_t *info, void *context)
{
    say("library_handler ran\n");
    if (chained.sa_handler == SIG_DFL || chained.sa_handler == SIG_IGN) {
        sigaction(sig, &chained, NULL);
        raise(sig);
    } else if (chained.sa_flags & SA_SIGINFO) {
        chained.sa_sigaction(sig, info, context);
    } else {
        chained.sa_handler(sig);
    }
}

static void marking_handler(int sig)
{
    (void)sig;
    handled = 1;
}

static void *send_when_reading(void *arg)
{
    pid_t tid = *(pid_t *)arg;
    char path[64], stat[256];
    snprintf(path, sizeof path, "/proc/self/task/%ld/stat", (long)tid);
    /* Until the main thread sleeps in read(). */
    for (;;) {
        FILE *f = fopen(path, "r");
        size_t n = f ? fread(stat, 1, sizeof stat - 1, f) : 0;
        if (f)
            fclose(f);
        stat[n] = 0;
        char *state = strrchr(stat, ')');
        if (state && state[1] == ' ' && state[2] == 'S')
            break;
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    kill(getpid(), SIGINT);
    while (!handled) {
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    ssize_t r = write(pipe_fds[1], "data", 4);
    (void)r;
    return NULL;
}

/* A read() interrupted by SIGINT: restarted, or failing with EINTR.  Not
 * SIGHUP: UCX (loaded with MPICH) owns it, and signal() would return its
 * handler. */
static void interrupted_read(void)
{
    sigset_t intr;
    sigemptyset(&intr);
    sigaddset(&intr, SIGINT);
    if (pipe(pipe_fds) != 0)
        exit(3);
    pid_t tid = gettid();
    pthread_sigmask(SIG_BLOCK, &intr, NULL); /* the helper never takes it */
    pthread_t helper;
    pthread_create(&helper, NULL, send_when_reading, &tid);
    pthread_sigmask(SIG_UNBLOCK, &intr, NULL);
    char buf[8];
    ssize_t n = read(pipe_fds[0], buf, sizeof buf);
    if (n < 0) {
        printf("read: %s\n", errno == EINTR ? "EINTR" : "another error");
        n = read(pipe_fds[0], buf, sizeof buf);
    }
    printf("read %zd bytes, handled %d\n", n, (int)handled);
    pthread_join(helper, NULL);
}

static void thread_handler(int sig)
{
    (void)sig;
    say(pthread_equal(pthread_self(), raiser) ? "handled in the raising thread\n"
                                              : "handled in another thread\n");
}

static void *raise_it(void *arg)
{
    raiser = pthread_self();
    raise(*(int *)arg);
    return NULL;
}

static void raise_from_thread(int sig)
{
    pthread_create(&raiser, NULL, raise_it, &sig);
    pthread_join(raiser, NULL);
}

static int wait_child(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(status))
        printf("child: signal %d\n", WTERMSIG(status));
    else
        printf("child: exit %d\n", WEXITSTATUS(status));
    return status;
}

/* SA_RESETHAND with the handler still running in one thread: the action
 * is already SIG_DFL, so the same signal in another thread kills. */
static volatile sig_atomic_t entered;

static void staying_handler(int sig)
{
    (void)sig;
    entered = 1;
    say("staying_handler entered\n");
    for (;;)
        pause();
}

static void *raise_when_entered(void *arg)
{
    (void)arg;
    while (!entered) {
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    raise(SIGTERM);
    return NULL;
}

/* "nested": test/integration/signals_diff.py stops the program under gdb in
 * the hook of fresh()'s entry and delivers SIGUSR1 there. */
__attribute__((noinline)) static void in_handler(void) { sink += 2; }

static void on_usr1(int sig)
{
    (void)sig;
    in_handler();
    runs++;
}

__attribute__((noinline)) static void fresh(void) { sink += 3; }

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    const char *mode = argv[1];
    int n = atoi(argv[2]);
    for (int i = 0; i < n; i++)
        work(i);
    setvbuf(stdout, NULL, _IOLBF, 0);

    if (strcmp(mode, "ignore_siginfo") == 0) {
        /* SIG_IGN with SA_SIGINFO in sa_flags is still SIG_IGN. */
        struct sigaction a = {.sa_handler = SIG_IGN, .sa_flags = SA_SIGINFO};
        sigemptyset(&a.sa_mask);
        sigaction(SIGHUP, &a, NULL);
        show("SIGHUP", SIGHUP);
        raise(SIGHUP);
        printf("still here\n");
        return 0;
    }
    if (strcmp(mode, "query_set_default") == 0) {
        /* Query, change the handler, set: SA_SIGINFO stays in the flags. */
        struct sigaction a = {.sa_sigaction = info_handler, .sa_flags = SA_SIGINFO};
        sigemptyset(&a.sa_mask);
        sigaction(SIGTERM, &a, NULL);
        raise(SIGTERM);
        struct sigaction now;
        sigaction(SIGTERM, NULL, &now);
        now.sa_handler = SIG_DFL;
        sigaction(SIGTERM, &now, NULL);
        show("SIGTERM", SIGTERM);
        raise(SIGTERM);
        printf("not reached\n");
        return 0;
    }
    if (strcmp(mode, "same_pointer") == 0) {
        /* sigaction(sig, &sa, &sa): sa is set, then holds the old one. */
        set(SIGTERM, plain_handler, 0);
        struct sigaction a = {.sa_handler = other_handler, .sa_flags = SA_RESTART};
        sigemptyset(&a.sa_mask);
        sigaddset(&a.sa_mask, SIGUSR1);
        sigaddset(&a.sa_mask, SIGKILL); /* the kernel drops it */
        int rc = sigaction(SIGTERM, &a, same(&a));
        printf("rc %d, old: %s flags=%#x\n", rc, name_of(&a), (unsigned)a.sa_flags);
        show("SIGTERM", SIGTERM);
        raise(SIGTERM);
        return runs == 1 ? 0 : 1;
    }
    if (strcmp(mode, "resethand") == 0) {
        /* Reset to SIG_DFL on delivery, once: the second one kills. */
        set(SIGTERM, show_in_handler, SA_RESETHAND);
        raise(SIGTERM);
        show("after", SIGTERM);
        raise(SIGTERM);
        printf("not reached\n");
        return 0;
    }
    if (strcmp(mode, "nodefer") == 0 || strcmp(mode, "defer") == 0) {
        set(SIGINT, nesting_handler, strcmp(mode, "nodefer") == 0 ? SA_NODEFER : 0);
        raise(SIGINT);
        printf("handler runs: %d\n", (int)runs);
        return 0;
    }
    if (strcmp(mode, "restart") == 0 || strcmp(mode, "norestart") == 0) {
        set(SIGINT, marking_handler, strcmp(mode, "restart") == 0 ? SA_RESTART : 0);
        interrupted_read();
        return 0;
    }
    if (strcmp(mode, "restart_signal") == 0 || strcmp(mode, "siginterrupt") == 0) {
        if (strcmp(mode, "siginterrupt") == 0)
            siginterrupt(SIGINT, 1);
        printf("signal: %s\n", disposition(signal(SIGINT, marking_handler)));
        interrupted_read();
        return 0;
    }
    if (strcmp(mode, "chain") == 0 || strcmp(mode, "chain_default") == 0) {
        if (strcmp(mode, "chain") == 0)
            set(SIGINT, plain_handler, 0);
        struct sigaction lib = {.sa_sigaction = library_handler, .sa_flags = SA_SIGINFO};
        sigemptyset(&lib.sa_mask);
        sigaction(SIGINT, &lib, &chained);
        printf("chained over %s\n", name_of(&chained));
        raise(SIGINT);
        printf("after the chain\n");
        return 0;
    }
    if (strcmp(mode, "fork_kill") == 0) {
        /* A signal for a child that has just been forked is the child's. */
        for (int k = 0; k < 4; k++) {
            pid_t pid = fork();
            if (pid == 0) {
                for (;;)
                    pause();
            }
            kill(pid, SIGTERM);
            wait_child(pid);
        }
        for (int i = 0; i < n; i++)
            work(i);
        return 0;
    }
    if (strcmp(mode, "vfork_kill") == 0) {
        pid_t pid = vfork();
        if (pid == 0) {
            kill(getpid(), SIGTERM);
            _exit(3);
        }
        wait_child(pid);
        show("SIGTERM", SIGTERM);
        for (int i = 0; i < n; i++)
            work(i);
        return 0;
    }
    if (strcmp(mode, "thread_handler") == 0) {
        set(SIGINT, thread_handler, 0);
        raise_from_thread(SIGINT);
        printf("after the thread\n");
        return 0;
    }
    if (strcmp(mode, "thread_default") == 0) {
        raise_from_thread(SIGTERM);
        printf("not reached\n");
        return 0;
    }
    if (strcmp(mode, "old_apis") == 0) {
        printf("signal: %s\n", disposition(signal(SIGINT, plain_handler)));
        show("SIGINT", SIGINT);
        raise(SIGINT);
        printf("signal: %s\n", disposition(signal(SIGINT, SIG_IGN)));
        raise(SIGINT);
        printf("bsd_signal: %s\n", disposition(bsd_signal(SIGINT, other_handler)));
        show("SIGINT", SIGINT);
        printf("sysv_signal: %s\n", disposition(sysv_signal(SIGINT, show_in_handler)));
        show("SIGINT", SIGINT);
        raise(SIGINT);
        show("SIGINT", SIGINT);
        printf("__sysv_signal: %s\n", disposition(__sysv_signal(SIGINT, plain_handler)));
        raise(SIGINT);
        printf("sigset hold: %s\n", disposition(sigset(SIGTERM, SIG_HOLD)));
        printf("sigset hold again: %s\n", disposition(sigset(SIGTERM, SIG_HOLD)));
        raise(SIGTERM);
        printf("SIGTERM held\n");
        printf("sigset: %s\n", disposition(sigset(SIGTERM, other_handler)));
        show("SIGTERM", SIGTERM);
        printf("sigset: %s\n", disposition(sigset(SIGTERM, SIG_DFL)));
        printf("sigignore: %d\n", sigignore(SIGINT));
        raise(SIGINT);
        show("SIGINT", SIGINT);
        printf("signal(SIG_ERR): %s\n", disposition(signal(SIGINT, SIG_ERR)));
        printf("handler runs: %d\n", (int)runs);
        return 0;
    }
    if (strcmp(mode, "resethand_threads") == 0) {
        set(SIGTERM, staying_handler, SA_RESETHAND);
        pthread_t other;
        pthread_create(&other, NULL, raise_when_entered, NULL);
        raise(SIGTERM);
        printf("not reached\n");
        return 0;
    }
    if (strcmp(mode, "nested") == 0) {
        set(SIGUSR1, on_usr1, 0);
        fresh();
        in_handler();
        printf("handler runs: %d\n", (int)runs);
        return 0;
    }
    if (strcmp(mode, "daemon_files") == 0) {
        /* A daemon's start: every descriptor but the standard ones closed,
         * its own files opened on the lowest numbers, then SIGTERM. */
        for (int fd = 3; fd < 1024; fd++)
            close(fd);
        int data = open("data.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int log = open("log.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        printf("data on %d, log on %d\n", data, log);
        if (write(data, "DATA\n", 5) != 5 || write(log, "LOG\n", 4) != 4)
            return 3;
        raise(SIGTERM);
        printf("not reached\n");
        return 0;
    }
    if (strcmp(mode, "sysv_twice") == 0) {
        sysv_signal(SIGINT, plain_handler);
        raise(SIGINT);
        raise(SIGINT);
        printf("not reached\n");
        return 0;
    }
    return 2;
}
