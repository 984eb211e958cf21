/* Rewriting hook calls touches only what it may (docs/rewriting.md, "Which
 * calls are rewritten"), driven by test/integration/throttle_code.py with
 * min_calls 1000.  Modes (argv[1]), argv[2] is N:
 *   shared  run_shared's loop inlines alpha (odd i) or beta (even i);
 *           compiled at -Os, GCC cross-jumps the identical tails of the
 *           two branches, so alpha's and beta's exit hooks are one call
 *           instruction.  alpha is throttled; beta is in "never".
 *   reload  argv[3] is a library (libdlclosefix.so): dlc_alpha is called N
 *           times, the library closed and opened again (at the same
 *           address) and dlc_alpha called N times more.
 *   fork    leaf is called N times.  While its first hook call is being
 *           rewritten (inside the mprotect that makes the page writable,
 *           interposed below) another thread forks; the child counts the
 *           writable and executable mappings it has.
 *   nobarrier  membarrier refused (a seccomp filter, as on kernels before
 *           4.16); leaf is called N times while a second thread waits:
 *           the code must not be rewritten.  "nobarrier1": the same with
 *           one thread, where rewriting is safe without it.
 *   handover  scoped is called N times; each call hands one count of a
 *           counted copy over to hooktrace with scoped as its scope, the
 *           copy's id read from a stack slot whose address a call took,
 *           as GCC reloads an id several hand-overs share after a call
 *           that may write the frame: the hand-over's call is rewritten
 *           once scoped is throttled, all the same.
 *   copytail  copy_tail and copy_tail_b are called N times each: each
 *           stands for a function with an inlined copy (the same one)
 *           that keeps its hooks, the copy's exit hook its last call,
 *           which GCC makes a jump (a sibling call), so the hook is
 *           reached with the copy's id and returns to the function's
 *           caller: once the copy is throttled, both jumps become returns.
 * Every mode ends by counting the writable and executable mappings of the
 * process.  The output does not depend on whether the profiler is there. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile long sink;

__attribute__((always_inline)) static inline long alpha(long x)
{
    return x * 3 + sink;
}

__attribute__((always_inline)) static inline long beta(long x)
{
    return x * 5 + sink;
}

/* (clang has no per-function -O: minsize is its -Oz, for a build of the
 * tests by clang, where throttle_code.py's GCC shape does not hold.) */
#ifdef __clang__
__attribute__((noinline, minsize)) long run_shared(long n)
#else
__attribute__((noinline, optimize("Os"))) long run_shared(long n)
#endif
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += (i & 1) ? alpha(i) : beta(i);
    return s;
}

typedef int (*int_fn)(int);

__attribute__((noinline)) long reload_round(int_fn f, long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += f((int)i);
    return s;
}

/* Opens the library, calls dlc_alpha n times, closes it; *where: the
 * function's address. */
static long reload_cycle(const char *path, long n, void **where)
{
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    void *sym = lib ? dlsym(lib, "dlc_alpha") : NULL;
    if (!sym) {
        fprintf(stderr, "throttle_code: %s\n", dlerror());
        exit(2);
    }
    int_fn f;
    memcpy(&f, &sym, sizeof f);
    long s = reload_round(f, n);
    *where = sym;
    if (dlclose(lib) != 0)
        exit(2);
    return s;
}

__attribute__((noinline)) long leaf(long x)
{
    return x * 7 + 1;
}

/* Mappings both writable and executable. */
static int writable_code(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return -1;
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char perms[8];
        if (sscanf(line, "%*x-%*x %7s", perms) == 1 && perms[1] == 'w' && perms[2] == 'x')
            n++;
    }
    fclose(f);
    return n;
}

/* --- fork mode ------------------------------------------------------------ */

static int fork_asked, fork_done, child_writable = -1;

static void *forker(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&fork_asked, __ATOMIC_ACQUIRE))
        usleep(1000);
    pid_t pid = fork();
    if (pid == 0)
        _exit(writable_code());
    int status = 0;
    if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
        child_writable = WEXITSTATUS(status);
    __atomic_store_n(&fork_done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static int fork_mode;

/* The program's mprotect is the one libhooktrace calls.  The first that
 * makes code writable asks the other thread to fork, and waits for the
 * fork to be over, at most 2 s: a profiler that holds forks off until the
 * page is restored makes it wait the 2 s, and the child is forked after.
 * Not instrumented: it runs inside a hook. */
__attribute__((no_instrument_function)) int mprotect(void *addr, size_t len, int prot)
{
    long r = syscall(SYS_mprotect, addr, len, prot);
    if (r == 0 && fork_mode && (prot & PROT_WRITE) && (prot & PROT_EXEC) &&
        !__atomic_exchange_n(&fork_asked, 1, __ATOMIC_ACQ_REL)) {
        for (int waited = 0; waited < 2000 && !__atomic_load_n(&fork_done, __ATOMIC_ACQUIRE);
             waited++)
            usleep(1000);
    }
    return (int)r;
}

/* --- handover mode -------------------------------------------------------- */

/* What the compiler plugins call (docs/plugin.md, "Inlined copies"). */
void hooktrace_inlined_calls_in(const void *id, unsigned long count, const void *scope);

/* Stands for a counted copy's id, named as the plugins name theirs. */
const char handed_over_copy[8] __asm__("__hooktrace_inlined.handed_over_copy") = "copy";

/* Takes the slot's address, so that the slot may have changed after it as
 * far as any reading of the code can tell.  noipa: GCC would otherwise
 * know that it keeps %rdx and set the hand-over's %rdx before calling it
 * (clang has no such attribute, nor does it need one). */
#ifdef __clang__
#define HT_TEST_NOIPA noinline
#else
#define HT_TEST_NOIPA noipa
#endif
__attribute__((HT_TEST_NOIPA, no_instrument_function)) void look_at(const void *volatile *slot)
{
    __asm__ volatile("" : : "r"(slot) : "memory");
}

__attribute__((noinline)) long scoped(long i)
{
    const void *volatile id = handed_over_copy;
    look_at(&id);
    hooktrace_inlined_calls_in(id, 1, (const void *)scoped);
    return i + sink;
}

/* --- copytail mode -------------------------------------------------------- */

/* A kept copy's id, named as the plugins name theirs: data, not code. */
const char tail_copy[8] __asm__("__hooktrace_inlined.tail_copy") = "tail";

void __cyg_profile_func_enter(void *function, void *site);
void __cyg_profile_func_exit(void *function, void *site);

/* The copy's hooks, as the plugin leaves them, and no others
 * (no_instrument_function): the exit hook is the last call.  The copy
 * ends two functions, as one inlined into two would. */
#define COPY_TAIL(name, add)                                                      \
    __attribute__((noinline, no_instrument_function)) void name(long i)           \
    {                                                                             \
        __cyg_profile_func_enter((void *)tail_copy, __builtin_return_address(0)); \
        sink += add;                                                              \
        __cyg_profile_func_exit((void *)tail_copy, __builtin_return_address(0));  \
    }
COPY_TAIL(copy_tail, i)
COPY_TAIL(copy_tail_b, 2 * i)

/* --- nobarrier mode ------------------------------------------------------- */

static int refuse_membarrier(void)
{
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_membarrier, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {sizeof filter / sizeof filter[0], filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

static int wake[2];

static void *waiter(void *arg)
{
    (void)arg;
    char c;
    while (read(wake[0], &c, 1) < 0 && errno == EINTR)
        ;
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "shared";
    long n = argc > 2 ? atol(argv[2]) : 5000;
    long result = 0;
    if (strcmp(mode, "shared") == 0) {
        result = run_shared(n);
    } else if (strcmp(mode, "reload") == 0 && argc > 3) {
        void *first, *second;
        result = reload_cycle(argv[3], n, &first);
        result += reload_cycle(argv[3], n, &second);
        printf("same address: %s\n", first == second ? "yes" : "no");
    } else if (strcmp(mode, "fork") == 0) {
        fork_mode = 1;
        pthread_t t;
        if (pthread_create(&t, NULL, forker, NULL) != 0)
            return 2;
        for (long i = 0; i < n; i++)
            result += leaf(i);
        __atomic_store_n(&fork_asked, 1, __ATOMIC_RELEASE); /* uninstrumented: fork anyway */
        pthread_join(t, NULL);
        printf("child's writable code mappings: %d\n", child_writable);
    } else if (strcmp(mode, "handover") == 0) {
        for (long i = 0; i < n; i++)
            result += scoped(i);
    } else if (strcmp(mode, "copytail") == 0) {
        for (long i = 0; i < n; i++) {
            copy_tail(i);
            copy_tail_b(i);
        }
        result = sink;
    } else if (strcmp(mode, "nobarrier") == 0 || strcmp(mode, "nobarrier1") == 0) {
        if (refuse_membarrier() != 0)
            return 2;
        pthread_t t;
        bool two = strcmp(mode, "nobarrier") == 0;
        if (two && (pipe(wake) != 0 || pthread_create(&t, NULL, waiter, NULL) != 0))
            return 2;
        for (long i = 0; i < n; i++)
            result += leaf(i);
        if (two && (write(wake[1], "x", 1) != 1 || pthread_join(t, NULL) != 0))
            return 2;
    } else {
        return 2;
    }
    printf("throttle_code %s: %ld; writable code mappings: %d\n", mode, result, writable_code());
    return 0;
}
