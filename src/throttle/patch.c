#define _GNU_SOURCE
#include "throttle/patch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/compiler.h"
#include "throttle/code_range.h"
#include "throttle/mappings.h"
#include "throttle/site_proof.h"

#define OP_CALL_REL32 0xE8    /* call rel32 */
#define OP_CMP_EAX_IMM32 0x3D /* cmp $imm32, %eax: same length, flags only */
#define OP_GROUP5 0xFF        /* with ModRM 0x15: call *disp32(%rip) */
#define OP_LEA 0x8D           /* with ModRM 0x15: lea disp32(%rip), %edx */
#define MODRM_RIP_RELATIVE_2 0x15
#define OP_JMP_REL32 0xE9      /* jmp rel32 */
#define MODRM_RIP_RELATIVE_4 0x25 /* with 0xFF: jmp *disp32(%rip) */
#define OP_RET 0xC3

static uintptr_t hook_address[3]; /* enter, exit, the hand-over of inlined calls */
static uintptr_t page_size;
static int patch_lock;
static int refused_errno;
static uint64_t sites_patched, sites_unpatched;

static void before_fork(void);
static void parent_after_fork(void);
static void child_after_fork(void);

void ht_patch_init(void)
{
    page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
    /* Read now, so that the first patch, made while other threads may be
     * waiting for it, does not have to. */
    ht_mappings_load();
    pthread_atfork(before_fork, parent_after_fork, child_after_fork);
}

void ht_patch_stats(struct ht_patch_stats *out)
{
    out->sites_patched = __atomic_load_n(&sites_patched, __ATOMIC_RELAXED);
    out->sites_unpatched = __atomic_load_n(&sites_unpatched, __ATOMIC_RELAXED);
    out->refused_errno = __atomic_load_n(&refused_errno, __ATOMIC_RELAXED);
}

/* --- what was tried, seen and rewritten ----------------------------------- */

/* Open-addressing tables keyed by code address, under patch_lock, mmap'ed
 * when first used.  A key of a closed library is replaced by a tombstone
 * (ht_patch_forget), which lookups step over; when full, nothing more is
 * added (a site then is tried again, or not rewritten). */
#define TABLE_SLOTS 16384u
#define TOMBSTONE ((uintptr_t)1)
struct table {
    uintptr_t *keys, *values;
    size_t used;
    uintptr_t lowest, highest; /* of the keys ever added: a library closed
                                  outside them costs no sweep */
};

/* Call sites that cannot be rewritten, and functions whose code was
 * searched for jumps to the hook, so that a throttled call through one of
 * them costs a lookup, not a new attempt. */
static struct table tried;
/* Each hook call site, with the function it was first reached for;
 * SHARED once it was reached for another (it is then never rewritten). */
static struct table seen_with;
#define SHARED ((uintptr_t)1 << 63)
/* Each byte rewritten, with what it was: site_proof.c reads the code as
 * compiled. */
static struct table rewritten;

static size_t slot_of(uintptr_t address)
{
    return (size_t)(((uint64_t)address * 0x9E3779B97F4A7C15ull) >> 50) & (TABLE_SLOTS - 1);
}

static uintptr_t *table_find(const struct table *t, uintptr_t key)
{
    if (!t->keys)
        return NULL;
    for (size_t s = slot_of(key); t->keys[s]; s = (s + 1) & (TABLE_SLOTS - 1))
        if (t->keys[s] == key)
            return &t->values[s];
    return NULL;
}

static bool table_add(struct table *t, uintptr_t key, uintptr_t value)
{
    if (!t->keys) {
        void *p = mmap(NULL, 2 * TABLE_SLOTS * sizeof *t->keys, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return false;
        t->keys = p;
        t->values = t->keys + TABLE_SLOTS;
    }
    if (t->used * 4 >= TABLE_SLOTS * 3)
        return false;
    size_t s = slot_of(key);
    while (t->keys[s])
        s = (s + 1) & (TABLE_SLOTS - 1);
    t->keys[s] = key;
    t->values[s] = value;
    if (t->used == 0 || key < t->lowest)
        t->lowest = key;
    if (t->used == 0 || key > t->highest)
        t->highest = key;
    t->used++;
    return true;
}

static void table_forget(struct table *t, uintptr_t lo, uintptr_t hi)
{
    if (!t->keys || t->used == 0 || hi <= t->lowest || lo > t->highest)
        return;
    for (size_t s = 0; s < TABLE_SLOTS; s++)
        if (t->keys[s] >= lo && t->keys[s] < hi)
            t->keys[s] = TOMBSTONE;
}

static bool tried_before(uintptr_t address)
{
    return table_find(&tried, address) != NULL;
}

static void remember_tried(uintptr_t address)
{
    table_add(&tried, address, 0);
}

static enum ht_patch_result give_up(uintptr_t site)
{
    sites_unpatched++;
    remember_tried(site);
    return HT_PATCH_CANNOT;
}

static uint8_t original_byte(uintptr_t at)
{
    const uintptr_t *was = table_find(&rewritten, at);
    return was ? (uint8_t)*was : *(const volatile uint8_t *)at;
}

/* A hook call site reached for `function`: false if it was reached for
 * another before, now or then (such a call serves two functions). */
static bool serves_one_so_far(uintptr_t site, uintptr_t function)
{
    uintptr_t *first = table_find(&seen_with, site);
    if (!first)
        return table_add(&seen_with, site, function);
    if (*first != function)
        *first |= SHARED;
    return !(*first & SHARED);
}

/* --- decoding the call ----------------------------------------------------- */

static int32_t read_i32(const uint8_t *p)
{
    int32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static bool is_hook(uintptr_t a)
{
    return a != 0 && (a == hook_address[0] || a == hook_address[1] || a == hook_address[2]);
}

/* A GOT slot holding the hook's address. */
static bool slot_holds_hook(uintptr_t slot, bool *reloaded)
{
    if (!ht_mapped(slot, slot + sizeof(uintptr_t), HT_PERM_R, reloaded))
        return false;
    uintptr_t value;
    memcpy(&value, (const void *)slot, sizeof value);
    return is_hook(value);
}

/* The target of a direct call: the hook itself (a static link), or a PLT
 * entry jumping through a GOT slot that holds it: `jmp *disp32(%rip)`,
 * possibly after endbr64 and a bnd prefix. */
static bool reaches_hook(uintptr_t target, bool *reloaded)
{
    if (is_hook(target))
        return true;
    if (!ht_mapped(target, target + 16, HT_PERM_R | HT_PERM_X, reloaded))
        return false;
    const uint8_t *q = (const uint8_t *)target;
    static const uint8_t endbr64[4] = {0xF3, 0x0F, 0x1E, 0xFA};
    if (memcmp(q, endbr64, sizeof endbr64) == 0)
        q += sizeof endbr64;
    if (q[0] == 0xF2) /* bnd */
        q++;
    if (q[0] != 0xFF || q[1] != 0x25)
        return false;
    uintptr_t slot = (uintptr_t)(q + 6) + (uintptr_t)(intptr_t)read_i32(q + 2);
    return slot_holds_hook(slot, reloaded);
}

/* --- writing code -------------------------------------------------------- */

/* Another thread may be running the very code rewritten.  x86 asks that a
 * processor executing modified code serialise before it does (Intel SDM
 * volume 3A, "Handling Self- and Cross-Modifying Code"); the kernel's own
 * text poking does this with an IPI to every CPU.  membarrier's
 * PRIVATE_EXPEDITED_SYNC_CORE is that IPI for this process's threads.
 * Without it (Linux before 4.16, or refused), code is rewritten only while
 * the process has a single thread, for which returning from mprotect and
 * the jumps before the code runs again are enough. */
static int core_sync; /* 0 not asked yet, 1 membarrier, -1 none */

#define MAX_QUIET 4
static long quiet_threads[MAX_QUIET];

void ht_patch_thread_runs_no_program_code(long tid)
{
    for (int i = 0; i < MAX_QUIET; i++) {
        long expected = 0;
        if (__atomic_compare_exchange_n(&quiet_threads[i], &expected, tid, false,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return;
    }
}

static bool quiet(const char *name)
{
    long tid = 0;
    for (; *name >= '0' && *name <= '9'; name++)
        tid = tid * 10 + (*name - '0');
    for (int i = 0; i < MAX_QUIET; i++)
        if (tid != 0 && __atomic_load_n(&quiet_threads[i], __ATOMIC_ACQUIRE) == tid)
            return true;
    return false;
}

/* One thread runs the program's code: this one (hooktrace's own watcher
 * aside). */
static bool single_threaded(void)
{
    int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char buf[1024];
    long got;
    int entries = 0;
    while ((got = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
        for (long off = 0; off < got;) {
            const struct dirent64 *d = (const struct dirent64 *)(void *)(buf + off);
            if (d->d_name[0] != '.' && !quiet(d->d_name))
                entries++;
            off += d->d_reclen;
        }
    close(fd);
    return got == 0 && entries == 1;
}

static bool may_write_code(void)
{
    if (core_sync == 0) {
        long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
        core_sync = cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE) &&
                            syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE,
                                    0, 0) == 0
                        ? 1
                        : -1;
    }
    return core_sync > 0 || single_threaded();
}

/* The page being written, and the protection it goes back to: a child
 * forked meanwhile (only from this thread: before_fork keeps other threads
 * from forking until the write is over) restores it. */
static uintptr_t writable_page;
static int writable_page_prot;

static int prot_of(unsigned perms)
{
    return (perms & HT_PERM_R ? PROT_READ : 0) | (perms & HT_PERM_W ? PROT_WRITE : 0) |
           (perms & HT_PERM_X ? PROT_EXEC : 0);
}

static void say_refused(int why)
{
    __atomic_store_n(&refused_errno, why ? why : EPERM, __ATOMIC_RELAXED);
    static const char head[] = "hooktrace: cannot rewrite the calls of throttled functions "
                               "(mprotect: ";
    static const char tail[] = "); their hooks skip them by a check instead\n";
    const char *text = strerrordesc_np(why);
    if (!text)
        text = "error";
    ssize_t unused = write(STDERR_FILENO, head, sizeof head - 1);
    unused = write(STDERR_FILENO, text, strlen(text));
    unused = write(STDERR_FILENO, tail, sizeof tail - 1);
    (void)unused;
}

/* The store itself: the byte at `at`, in mapping m, becomes `replacement`;
 * the page is made writable for it and given back the protection the
 * mapping had.  Signals are blocked meanwhile, so that no handler runs
 * (and forks) while the page is writable. */
static enum ht_patch_result store_byte(uintptr_t at, uint8_t replacement,
                                       const struct ht_mapping *m)
{
    if (!may_write_code() || !table_add(&rewritten, at, *(const uint8_t *)at)) {
        sites_unpatched++;
        return HT_PATCH_CANNOT;
    }
    uintptr_t page = at & ~(page_size - 1);
    int prot = prot_of(m->perms);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    writable_page_prot = prot;
    __atomic_store_n(&writable_page, page, __ATOMIC_SEQ_CST);
    if (mprotect((void *)page, page_size, prot | PROT_WRITE) != 0) {
        int why = errno;
        __atomic_store_n(&writable_page, 0, __ATOMIC_SEQ_CST);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        say_refused(why);
        sites_unpatched++;
        return HT_PATCH_CANNOT;
    }
    __atomic_store_n((uint8_t *)at, replacement, __ATOMIC_SEQ_CST);
    mprotect((void *)page, page_size, prot);
    __atomic_store_n(&writable_page, 0, __ATOMIC_SEQ_CST);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (core_sync > 0 &&
        syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0) != 0)
        core_sync = -1; /* not registered after all: single-threaded from now */
    sites_patched++;
    return HT_PATCH_DONE;
}

static enum ht_patch_result patch_tail_jumps_locked(uintptr_t function, uintptr_t ret);

/* scope: for a hand-over of inlined calls (hooks->counts), the scope it
 * was made for, which %rdx must hold as well; 0 for a hook call. */
static enum ht_patch_result patch_locked(uintptr_t ret, uintptr_t function, bool exit,
                                         uintptr_t scope)
{
    if (tried_before(ret))
        return exit ? patch_tail_jumps_locked(function, ret) : HT_PATCH_CANNOT;
    bool reloaded = false;
    if (ret < 6 || !ht_mapped(ret - 6, ret, HT_PERM_R | HT_PERM_X, &reloaded))
        return give_up(ret);
    const uint8_t *p = (const uint8_t *)ret;
    uintptr_t at = 0;
    uint8_t replacement = 0;
    if (p[-5] == OP_CALL_REL32 &&
        reaches_hook(ret + (uintptr_t)(intptr_t)read_i32(p - 4), &reloaded)) {
        at = ret - 5;
        replacement = OP_CMP_EAX_IMM32;
    } else if (p[-6] == OP_GROUP5 && p[-5] == MODRM_RIP_RELATIVE_2 &&
               slot_holds_hook(ret + (uintptr_t)(intptr_t)read_i32(p - 4), &reloaded)) {
        at = ret - 6;
        replacement = OP_LEA;
    } else if (p[-5] == OP_CMP_EAX_IMM32 || (p[-6] == OP_LEA && p[-5] == MODRM_RIP_RELATIVE_2)) {
        return HT_PATCH_ALREADY; /* we ran the old instruction a moment ago */
    } else if (exit) {
        /* Not a call to the hook: the function jumped to it (below), and
         * this is its caller's call. */
        remember_tried(ret);
        return patch_tail_jumps_locked(function, ret);
    } else {
        return give_up(ret);
    }
    /* Only a call that serves this function alone (site_proof.h): one
     * reached for two functions, or whose %rdi may hold another, stays.
     * A hand-over is declined for its scope alone, whatever copy it counts
     * (its id in %rdi, which the compiler may reload from a stack slot
     * that no proof follows), so its %rdx is what must be proven.  Nor
     * while code cannot be written safely: remembered, not retried. */
    uintptr_t served = scope ? scope : function;
    unsigned reg = scope ? HT_REG_RDX : HT_REG_RDI;
    if (!serves_one_so_far(ret, served) || !may_write_code() ||
        !ht_site_register_holds(at, reg, served, original_byte))
        return give_up(ret);
    /* Only the text of a loaded object: private, readable, executable and
     * not writable, which is also what it goes back to. */
    const struct ht_mapping *m = ht_mapping_of(at, at + 1);
    if (!m || m->perms != (HT_PERM_R | HT_PERM_X | HT_PERM_PRIVATE))
        return give_up(ret);
    return store_byte(at, replacement, m);
}

/* Where the code that jumped to an exit hook for `function` is: its own,
 * or for an inlined copy's id (data: docs/plugin.md) the function called
 * by the direct call that returns to ret (an indirect one names none). */
static bool tail_code_range(uintptr_t function, uintptr_t ret, uintptr_t *start, uintptr_t *end,
                            bool *reloaded)
{
    if (ht_code_range(function, start, end))
        return true;
    if (ret < 5 || !ht_mapped(ret - 5, ret, HT_PERM_R | HT_PERM_X, reloaded))
        return false;
    const uint8_t *p = (const uint8_t *)ret;
    return p[-5] == OP_CALL_REL32 &&
           ht_code_range(ret + (uintptr_t)(intptr_t)read_i32(p - 4), start, end);
}

/* A function whose exit hook is its last call is compiled to jump to the
 * hook (a sibling call), so the hook returns straight to the function's
 * caller (at ret) and its return address says nothing of where the jump
 * is.  The unwind tables say where the function's code is; in it, every
 * `jmp rel32` or `jmp *disp32(%rip)` that reaches a hook for `function`
 * alone becomes `ret`: at a sibling call the stack is already as at a
 * return, so the function now returns where the hook would have. */
static enum ht_patch_result patch_tail_jumps_locked(uintptr_t function, uintptr_t ret)
{
    bool reloaded = false;
    uintptr_t start, end;
    bool found = tail_code_range(function, ret, &start, &end, &reloaded);
    /* Each function's code is searched once, whatever comes of it: by its
     * start, since one inlined copy's id may end several functions. */
    uintptr_t searched = found ? start : function;
    if (tried_before(searched))
        return HT_PATCH_ALREADY;
    remember_tried(searched);
    if (!found || end - start < 5 || !ht_mapped(start, end, HT_PERM_R | HT_PERM_X, &reloaded)) {
        sites_unpatched++;
        return HT_PATCH_CANNOT;
    }
    enum ht_patch_result result = HT_PATCH_CANNOT;
    sites_unpatched++; /* until a jump is found */
    for (uintptr_t a = start; a + 5 <= end; a++) {
        const uint8_t *q = (const uint8_t *)a;
        bool jump = false;
        if (q[0] == OP_JMP_REL32)
            jump = reaches_hook(a + 5 + (uintptr_t)(intptr_t)read_i32(q + 1), &reloaded);
        else if (q[0] == OP_GROUP5 && q[1] == MODRM_RIP_RELATIVE_4 && a + 6 <= end)
            jump = slot_holds_hook(a + 6 + (uintptr_t)(intptr_t)read_i32(q + 2), &reloaded);
        /* Bytes that only look like such a jump (inside another
         * instruction) are not an instruction start: the proof says no. */
        if (!jump || !ht_site_serves_only(a, function, original_byte))
            continue;
        const struct ht_mapping *m = ht_mapping_of(a, a + 1);
        if (!m || m->perms != (HT_PERM_R | HT_PERM_X | HT_PERM_PRIVATE)) {
            sites_unpatched++;
            continue;
        }
        if (store_byte(a, OP_RET, m) != HT_PATCH_DONE)
            return HT_PATCH_CANNOT;
        if (result != HT_PATCH_DONE)
            sites_unpatched--;
        result = HT_PATCH_DONE;
    }
    return result;
}

/* Another thread is patching, quite likely this very call (threads run the
 * same loops): wait for it, so that each thread reaches a throttled call's
 * hook at most once more.  The holder decodes a function and makes a few
 * system calls, so the wait is short unless it was descheduled; it is
 * bounded all the same (LOCK_WAIT_NS), after which the call is left for
 * next time.  A thread never waits for itself: a signal handler running
 * instrumented code may interrupt its own patching.  fork waits for the
 * lock (before_fork), so that no child starts with a page made writable by
 * a thread it does not have. */
#define LOCK_WAIT_NS 100000000ull
static __thread bool holding __attribute__((tls_model("initial-exec")));

static bool lock(void)
{
    if (holding)
        return false;
    if (__atomic_exchange_n(&patch_lock, 1, __ATOMIC_ACQUIRE)) {
        struct timespec start, now;
        clock_gettime(CLOCK_MONOTONIC, &start);
        for (unsigned spins = 0;; spins++) {
            if (!__atomic_load_n(&patch_lock, __ATOMIC_RELAXED) &&
                !__atomic_exchange_n(&patch_lock, 1, __ATOMIC_ACQUIRE))
                break;
            if (spins < 1000) {
                __builtin_ia32_pause();
                continue;
            }
            sched_yield();
            clock_gettime(CLOCK_MONOTONIC, &now);
            uint64_t waited = (uint64_t)(now.tv_sec - start.tv_sec) * 1000000000ull +
                              (uint64_t)now.tv_nsec - (uint64_t)start.tv_nsec;
            if (waited > LOCK_WAIT_NS)
                return false;
        }
    }
    holding = true;
    return true;
}

static void unlock(void)
{
    holding = false;
    __atomic_store_n(&patch_lock, 0, __ATOMIC_RELEASE);
}

static void lock_unbounded(void)
{
    while (__atomic_exchange_n(&patch_lock, 1, __ATOMIC_ACQUIRE))
        sched_yield();
    holding = true;
}

static __thread bool locked_for_fork __attribute__((tls_model("initial-exec")));

static void before_fork(void)
{
    if (holding) /* forking from a handler that interrupted our patching */
        return;
    lock_unbounded();
    locked_for_fork = true;
}

static void parent_after_fork(void)
{
    if (locked_for_fork) {
        locked_for_fork = false;
        unlock();
    }
}

static void child_after_fork(void)
{
    locked_for_fork = false;
    holding = false;
    core_sync = 0; /* the child registers its own */
    /* Only if forked from this thread mid-write, which blocked signals:
     * a fork that bypassed the atfork handlers, or the patcher's own. */
    uintptr_t page = __atomic_load_n(&writable_page, __ATOMIC_SEQ_CST);
    if (page) {
        mprotect((void *)page, page_size, writable_page_prot);
        __atomic_store_n(&writable_page, 0, __ATOMIC_SEQ_CST);
    }
    __atomic_store_n(&patch_lock, 0, __ATOMIC_RELEASE);
}

void ht_patch_forget(uintptr_t lo, uintptr_t hi)
{
    if (page_size == 0)
        return;
    bool locked = !holding;
    if (locked)
        lock_unbounded();
    table_forget(&tried, lo, hi);
    table_forget(&seen_with, lo, hi);
    table_forget(&rewritten, lo, hi);
    ht_mappings_forget();
    ht_site_proof_forget();
    if (locked)
        unlock();
}

enum ht_patch_result ht_patch_hook_call(uintptr_t return_address, uintptr_t function, bool exit,
                                        const struct ht_hook_pair *hooks)
{
    if (__atomic_load_n(&refused_errno, __ATOMIC_RELAXED) || page_size == 0)
        return HT_PATCH_CANNOT;
    int saved_errno = errno; /* the program's, whatever we call */
    enum ht_patch_result r = HT_PATCH_BUSY;
    if (lock()) {
        hook_address[0] = hooks->enter;
        hook_address[1] = hooks->exit;
        hook_address[2] = hooks->counts;
        r = patch_locked(return_address, function, exit, 0);
        unlock();
    }
    errno = saved_errno;
    return r;
}

enum ht_patch_result ht_patch_counts_call(uintptr_t return_address, uintptr_t id, uintptr_t scope,
                                          const struct ht_hook_pair *hooks)
{
    if (__atomic_load_n(&refused_errno, __ATOMIC_RELAXED) || page_size == 0 || !scope)
        return HT_PATCH_CANNOT;
    int saved_errno = errno;
    enum ht_patch_result r = HT_PATCH_BUSY;
    if (lock()) {
        /* Only the hand-over itself: a hook call reached from here would
         * be a mistake of the caller's. */
        hook_address[0] = hook_address[1] = 0;
        hook_address[2] = hooks->counts;
        r = patch_locked(return_address, id, false, scope);
        unlock();
    }
    errno = saved_errno;
    return r;
}
