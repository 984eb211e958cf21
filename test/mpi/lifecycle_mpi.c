/* How an MPI job ends (test/mpi/lifecycle.py).  Every rank r first makes
 * r + 2 calls of work() and one MPI_Sendrecv round a ring (8 bytes to
 * r + 1, from r - 1), then:
 *
 *   signal      writes its PID to ready.<r> and waits in pause() to be
 *               killed (SIGTERM from the test or the launcher)
 *   abort       rank 1 calls MPI_Abort(MPI_COMM_WORLD, 3); the others wait
 *               in pause() (the launcher kills them)
 *   fork M      forks; the child makes M + r calls of child_work() and
 *               exits; the parent waits for it and calls MPI_Finalize
 *   fds         rank 0 lists its open descriptors after MPI_Init and after
 *               MPI_Finalize: number and target, digits in the target made
 *               N (pipe and socket inodes, PIDs, job ids), in number order
 *   merge       rank 1 waits in pause(); the others write ready.<r> and
 *               call MPI_Finalize, where hooktrace's merge waits for rank 1
 *               (a signal during the job's merge) */
#include <dirent.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile double sink;

__attribute__((noinline)) static void work(int i) { sink += i * 0.5; }
__attribute__((noinline)) static void child_work(int i) { sink += i; }

/* Not in the profile: the tests count every stack. */
__attribute__((no_instrument_function)) static void say_ready(int rank)
{
    /* Renamed into place: the test never reads half a PID. */
    char name[32], tmp[40];
    snprintf(name, sizeof name, "ready.%d", rank);
    snprintf(tmp, sizeof tmp, "%s.tmp", name);
    FILE *f = fopen(tmp, "w");
    if (f) {
        fprintf(f, "%ld\n", (long)getpid());
        fclose(f);
        rename(tmp, name);
    }
}

__attribute__((noinline)) static void wait_here(int rank)
{
    say_ready(rank);
    for (;;)
        pause();
}

__attribute__((no_instrument_function)) static void list_descriptors(const char *when)
{
    char line[64][600];
    int fds[64], n = 0;
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    while (d && (e = readdir(d)) && n < 64) {
        if (e->d_name[0] == '.' || atoi(e->d_name) == dirfd(d))
            continue;
        char path[300], target[500] = "";
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        ssize_t len = readlink(path, target, sizeof target - 1);
        target[len > 0 ? len : 0] = '\0';
        char *w = line[n];
        for (const char *c = target; *c; c++)
            if (!(*c >= '0' && *c <= '9'))
                *w++ = *c;
            else if (w == line[n] || w[-1] != 'N')
                *w++ = 'N';
        *w = '\0';
        fds[n++] = atoi(e->d_name);
    }
    if (d)
        closedir(d);
    for (int lo = -1;;) { /* in number order */
        int next = -1;
        for (int k = 0; k < n; k++)
            if (fds[k] > lo && (next < 0 || fds[k] < fds[next]))
                next = k;
        if (next < 0)
            break;
        printf("%s %d %s\n", when, fds[next], line[next]);
        lo = fds[next];
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < rank + 2; i++)
        work(i);
    double out = rank, in = -1;
    MPI_Sendrecv(&out, 1, MPI_DOUBLE, (rank + 1) % size, 0, &in, 1, MPI_DOUBLE,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "fds") == 0 && rank == 0)
        list_descriptors("init");
    if (strcmp(mode, "signal") == 0)
        wait_here(rank);
    if (strcmp(mode, "abort") == 0) {
        if (rank == 1)
            MPI_Abort(MPI_COMM_WORLD, 3);
        wait_here(rank);
    }
    if (strcmp(mode, "merge") == 0) {
        if (rank == 1)
            wait_here(rank);
        say_ready(rank);
    }
    if (strcmp(mode, "fork") == 0 && argc > 2) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            for (int i = 0; i < atoi(argv[2]) + rank; i++)
                child_work(i);
            exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        printf("rank %d child %ld status %d\n", rank, (long)pid,
               WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    MPI_Finalize();
    if (strcmp(mode, "fds") == 0 && rank == 0)
        list_descriptors("finalized");
    return 0;
}
