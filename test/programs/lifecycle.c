/* How a run ends (test/integration/lifecycle.py): known call counts, then
 * the way out the first argument names.
 *
 *   lifecycle wait N          N calls of work(), creates "ready", then waits
 *                             for a signal in pause() (in wait_here())
 *   lifecycle own N           the same with its own SIGTERM handler, which
 *                             says so; main then returns normally
 *   lifecycle cleanup N       the same with its own SA_SIGINFO handler for
 *                             SIGTERM that says so, then re-raises it with
 *                             SIG_DFL (clean up, then die of the signal);
 *                             it first prints what a query of SIGTERM's
 *                             action shows before and after it set its own
 *   lifecycle lockstderr N    the same holding stderr's lock while it waits
 *   lifecycle fork N M        N calls of work(), fork; the child makes M
 *                             calls of child_work() and exits; the parent,
 *                             after waiting for it, 2 calls of after_fork()
 *   lifecycle calls N         N calls of work(), then returns
 *   lifecycle status N S      N calls of work(), prints "status S" (left
 *                             in stdio's buffer until exit), returns S
 *   lifecycle together N K    N calls of work(), then waits until K runs
 *                             in this folder got there too (files
 *                             started-<pid>), so that they overlap */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;
static volatile sig_atomic_t got_term;

__attribute__((noinline)) static void work(int i) { sink += i * 0.5; }
__attribute__((noinline)) static void child_work(int i) { sink += i; }
__attribute__((noinline)) static void after_fork(void) { sink += 1; }

static void own_handler(int sig)
{
    (void)sig;
    got_term = 1;
}

static void cleanup_handler(int sig, siginfo_t *info, void *context)
{
    (void)info;
    (void)context;
    static const char said[] = "cleanup handler ran\n";
    ssize_t r = write(STDOUT_FILENO, said, sizeof said - 1);
    (void)r;
    signal(sig, SIG_DFL);
    raise(sig);
}

/* What a query of SIGTERM's action shows: the program's own view. */
static const char *term_action(void)
{
    struct sigaction now;
    if (sigaction(SIGTERM, NULL, &now) != 0)
        return "error";
    if (now.sa_flags & SA_SIGINFO)
        return now.sa_sigaction == cleanup_handler ? "cleanup_handler" : "another handler";
    return now.sa_handler == SIG_DFL ? "SIG_DFL" : now.sa_handler == SIG_IGN ? "SIG_IGN" : "another handler";
}

__attribute__((noinline)) static void wait_here(void)
{
    FILE *f = fopen("ready", "w");
    if (f)
        fclose(f);
    while (!got_term)
        pause();
}

/* Not recorded: the rendezvous is no part of the figures. */
__attribute__((no_instrument_function)) static void rendezvous(int runs)
{
    char name[64];
    snprintf(name, sizeof name, "started-%ld", (long)getpid());
    FILE *f = fopen(name, "w");
    if (f)
        fclose(f);
    for (;;) {
        int seen = 0;
        DIR *d = opendir(".");
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL)
            seen += strncmp(e->d_name, "started-", 8) == 0;
        if (d)
            closedir(d);
        if (seen >= runs)
            return;
        struct timespec ts = {0, 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    const char *mode = argv[1];
    int n = atoi(argv[2]);
    for (int i = 0; i < n; i++)
        work(i);
    if (strcmp(mode, "own") == 0) {
        signal(SIGTERM, own_handler);
        wait_here();
        printf("own handler ran\n");
        return 0;
    }
    if (strcmp(mode, "cleanup") == 0) {
        printf("before: %s\n", term_action());
        struct sigaction own = {.sa_sigaction = cleanup_handler, .sa_flags = SA_SIGINFO};
        sigemptyset(&own.sa_mask);
        sigaction(SIGTERM, &own, NULL);
        printf("after: %s\n", term_action());
        fflush(stdout);
        wait_here();
        return 0;
    }
    if (strcmp(mode, "lockstderr") == 0)
        flockfile(stderr);
    if (strcmp(mode, "wait") == 0 || strcmp(mode, "lockstderr") == 0) {
        wait_here();
        return 0;
    }
    if (strcmp(mode, "fork") == 0 && argc > 3) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            for (int i = 0; i < atoi(argv[3]); i++)
                child_work(i);
            exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        after_fork();
        after_fork();
        printf("child %ld status %d\n", (long)pid, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return 0;
    }
    if (strcmp(mode, "status") == 0 && argc > 3) {
        printf("status %d\n", atoi(argv[3]));
        return atoi(argv[3]);
    }
    if (strcmp(mode, "together") == 0 && argc > 3)
        rendezvous(atoi(argv[3]));
    return strcmp(mode, "calls") == 0 || strcmp(mode, "together") == 0 ? 0 : 2;
}
