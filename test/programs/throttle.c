/* Throttling (docs/throttle.md), driven by test/integration/throttle.py with
 * small thresholds.  In hot(), N times each:
 *   tiny      a leaf that is not inlined, called from one site
 *   pick      an accessor inlined at two sites (GCC keeps its hook calls)
 *   touch     a void leaf whose exit hook is its last call: GCC jumps to it
 *   shared_scaled  a leaf in a shared library (sharedlib_lib.c), called N
 *             times by shared_loop there: its hook calls are in the
 *             library's text
 *   depth     a recursion three calls deep, throttled while its outer
 *             frames are still open
 *   kept      as cheap as tiny, but named in the config's "never"
 *   slow      N_SLOW calls of at least 200 us each: never cheap enough
 *   after     once, after the loops: must sit under hot, not under a
 *             throttled function
 * Modes (argv[1]):
 *   serial    the above
 *   threads   4 threads run hot() at once
 *   openmp    an OpenMP loop over 4 threads calls tiny
 *   seccomp   serial, with mprotect refused (as some hardened systems do)
 * argv[2] is N.  The program prints a checksum that must not depend on
 * whether the profiler is there. */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define N_SLOW 30
#define NTHREADS 4

static volatile long sink;

long shared_loop(long n); /* test/programs/sharedlib_lib.c */

__attribute__((noinline)) long tiny(long x)
{
    return x * 3 + 1;
}

static inline long pick(const long *v, long i)
{
    return v[i & 7];
}

__attribute__((noinline)) void touch(long x)
{
    sink += x;
}

__attribute__((noinline)) long depth(int k)
{
    return k > 0 ? depth(k - 1) + sink : 1;
}

__attribute__((noinline)) long kept(long x)
{
    return x ^ 0x55;
}

__attribute__((noinline)) void slow(void)
{
    struct timespec ts = {0, 200000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

__attribute__((noinline)) long after(long x)
{
    return x + 7;
}

__attribute__((noinline)) long hot(long n)
{
    static const long values[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    long s = 0;
    for (long i = 0; i < n; i++)
        s += tiny(i);
    for (long i = 0; i < n; i++)
        s += pick(values, i) - pick(values, i + 1);
    for (long i = 0; i < n; i++)
        touch(i);
    s += shared_loop(n);
    for (long i = 0; i < n; i++)
        s += depth(2);
    for (long i = 0; i < n; i++)
        s += kept(i);
    for (int i = 0; i < N_SLOW; i++)
        slow();
    return after(s);
}

static void *thread_main(void *arg)
{
    long *n = arg;
    long r = hot(*n);
    __atomic_add_fetch(&sink, r & 0xff, __ATOMIC_RELAXED);
    return NULL;
}

static long run_threads(long n)
{
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        if (pthread_create(&t[i], NULL, thread_main, &n) != 0)
            return -1;
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    return 0;
}

static long run_openmp(long n)
{
    long s = 0;
#ifdef _OPENMP
    omp_set_num_threads(NTHREADS);
#pragma omp parallel for reduction(+ : s) schedule(static)
    for (long i = 0; i < n * NTHREADS; i++)
        s += tiny(i);
#else
    (void)n;
#endif
    return s;
}

/* mprotect asking for write and execute at once fails with EPERM, as under
 * SELinux's execmod denial or PaX; everything else is allowed. */
static int refuse_writable_code(void)
{
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mprotect, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_WRITE | PROT_EXEC, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {sizeof filter / sizeof filter[0], filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "serial";
    long n = argc > 2 ? atol(argv[2]) : 5000;
    long result;
    if (strcmp(mode, "threads") == 0) {
        result = run_threads(n);
    } else if (strcmp(mode, "openmp") == 0) {
        result = run_openmp(n);
    } else if (strcmp(mode, "seccomp") == 0) {
        if (refuse_writable_code() != 0) {
            perror("seccomp");
            return 2;
        }
        result = hot(n);
    } else {
        result = hot(n);
    }
    /* Threads race on sink: only the serial checksum is deterministic. */
    bool serial = strcmp(mode, "threads") != 0 && strcmp(mode, "openmp") != 0;
    printf("throttle %s: %ld %ld\n", mode, result, serial ? (long)sink : 0L);
    return 0;
}
