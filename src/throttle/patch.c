#define _GNU_SOURCE
#include "throttle/patch.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "common/compiler.h"
#include "throttle/code_range.h"

#define OP_CALL_REL32 0xE8    /* call rel32 */
#define OP_CMP_EAX_IMM32 0x3D /* cmp $imm32, %eax: same length, flags only */
#define OP_GROUP5 0xFF        /* with ModRM 0x15: call *disp32(%rip) */
#define OP_LEA 0x8D           /* with ModRM 0x15: lea disp32(%rip), %edx */
#define MODRM_RIP_RELATIVE_2 0x15
#define OP_JMP_REL32 0xE9      /* jmp rel32 */
#define MODRM_RIP_RELATIVE_4 0x25 /* with 0xFF: jmp *disp32(%rip) */
#define OP_RET 0xC3

static uintptr_t hook_address[2];
static uintptr_t page_size;
static int patch_lock;
static int refused_errno;
static uint64_t sites_patched, sites_unpatched;

static bool mappings_load(void);
static void child_after_fork(void);

void ht_patch_init(void)
{
    page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
    /* Read now, so that the first patch, made while other threads may be
     * waiting for it, does not have to. */
    mappings_load();
    pthread_atfork(NULL, NULL, child_after_fork);
}

void ht_patch_stats(struct ht_patch_stats *out)
{
    out->sites_patched = __atomic_load_n(&sites_patched, __ATOMIC_RELAXED);
    out->sites_unpatched = __atomic_load_n(&sites_unpatched, __ATOMIC_RELAXED);
    out->refused_errno = __atomic_load_n(&refused_errno, __ATOMIC_RELAXED);
}

/* --- the mappings, from /proc/self/maps ------------------------------------ */

#define MAX_MAPPINGS 16384
#define PERM_R 1u
#define PERM_W 2u
#define PERM_X 4u
#define PERM_PRIVATE 8u

struct mapping {
    uintptr_t lo, hi;
    unsigned perms;
};

/* All touched under patch_lock only. */
static struct mapping *mappings; /* sorted by address, as the kernel lists them */
static size_t nmappings;

/* One pass over the file with raw reads, a character at a time through a
 * small state machine: no stdio, no allocation, safe in a signal handler. */
static bool mappings_load(void)
{
    if (!mappings) {
        void *p = mmap(NULL, MAX_MAPPINGS * sizeof *mappings, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return false;
        mappings = p;
    }
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    enum { LO, HI, PERMS, REST } state = LO;
    struct mapping m = {0, 0, 0};
    int perm_index = 0;
    size_t n = 0;
    char buf[4096];
    ssize_t got;
    while ((got = read(fd, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < got; i++) {
            char c = buf[i];
            int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            switch (state) {
            case LO:
                if (digit >= 0)
                    m.lo = m.lo << 4 | (uintptr_t)digit;
                else if (c == '-')
                    state = HI;
                break;
            case HI:
                if (digit >= 0)
                    m.hi = m.hi << 4 | (uintptr_t)digit;
                else if (c == ' ')
                    state = PERMS;
                break;
            case PERMS:
                if (c == ' ') {
                    state = REST;
                    break;
                }
                if ((perm_index == 0 && c == 'r') || (perm_index == 1 && c == 'w') ||
                    (perm_index == 2 && c == 'x') || (perm_index == 3 && c == 'p'))
                    m.perms |= 1u << perm_index;
                perm_index++;
                break;
            case REST:
                break;
            }
            if (c == '\n') {
                if (n < MAX_MAPPINGS && m.hi > m.lo)
                    mappings[n++] = m;
                m = (struct mapping){0, 0, 0};
                perm_index = 0;
                state = LO;
            }
        }
    }
    close(fd);
    nmappings = n;
    return n > 0;
}

static const struct mapping *mapping_of(uintptr_t lo, uintptr_t hi)
{
    size_t a = 0, b = nmappings;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (mappings[mid].hi <= lo)
            a = mid + 1;
        else
            b = mid;
    }
    if (a < nmappings && mappings[a].lo <= lo && hi <= mappings[a].hi)
        return &mappings[a];
    return NULL;
}

/* [lo, hi) lies in one mapping with these permissions (re-reading the maps
 * once if it lies in none we know: a library loaded since). */
static bool mapped(uintptr_t lo, uintptr_t hi, unsigned perms, bool *reloaded)
{
    const struct mapping *m = mapping_of(lo, hi);
    if (!m && !*reloaded) {
        *reloaded = true;
        if (mappings_load())
            m = mapping_of(lo, hi);
    }
    return m && (m->perms & perms) == perms;
}

/* --- what was tried already ------------------------------------------------- */

/* Call sites that cannot be rewritten, and functions whose code was searched
 * for jumps to the hook, so that a throttled call through one of them costs
 * a lookup, not a new attempt.  Open addressing, under patch_lock; when
 * full, they are simply tried again. */
#define TRIED_SLOTS 4096u
static uintptr_t *tried;
static size_t tried_count;

static size_t tried_slot(uintptr_t address)
{
    return (size_t)(((uint64_t)address * 0x9E3779B97F4A7C15ull) >> 52) & (TRIED_SLOTS - 1);
}

static bool tried_before(uintptr_t address)
{
    if (!tried)
        return false;
    for (size_t s = tried_slot(address); tried[s]; s = (s + 1) & (TRIED_SLOTS - 1))
        if (tried[s] == address)
            return true;
    return false;
}

static void remember_tried(uintptr_t address)
{
    if (!tried) {
        void *p = mmap(NULL, TRIED_SLOTS * sizeof *tried, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return;
        tried = p;
    }
    if (tried_count * 4 >= TRIED_SLOTS * 3)
        return;
    size_t s = tried_slot(address);
    while (tried[s])
        s = (s + 1) & (TRIED_SLOTS - 1);
    tried[s] = address;
    tried_count++;
}

static enum ht_patch_result give_up(uintptr_t site)
{
    sites_unpatched++;
    remember_tried(site);
    return HT_PATCH_CANNOT;
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
    return a == hook_address[0] || a == hook_address[1];
}

/* A GOT slot holding the hook's address. */
static bool slot_holds_hook(uintptr_t slot, bool *reloaded)
{
    if (!mapped(slot, slot + sizeof(uintptr_t), PERM_R, reloaded))
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
    if (!mapped(target, target + 16, PERM_R | PERM_X, reloaded))
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

/* The store itself: the byte at `at` becomes `replacement`, the page made
 * writable for it and restored. */
static enum ht_patch_result store_byte(uintptr_t at, uint8_t replacement)
{
    void *page = (void *)(at & ~(page_size - 1));
    if (mprotect(page, page_size, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
        int why = errno;
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
        sites_unpatched++;
        return HT_PATCH_CANNOT;
    }
    __atomic_store_n((uint8_t *)at, replacement, __ATOMIC_SEQ_CST);
    mprotect(page, page_size, PROT_READ | PROT_EXEC);
    sites_patched++;
    return HT_PATCH_DONE;
}

static enum ht_patch_result patch_tail_jumps_locked(uintptr_t function);

static enum ht_patch_result patch_locked(uintptr_t ret, uintptr_t function, bool exit)
{
    if (tried_before(ret))
        return exit ? patch_tail_jumps_locked(function) : HT_PATCH_CANNOT;
    bool reloaded = false;
    if (!mappings && !mappings_load())
        return HT_PATCH_CANNOT;
    if (ret < 6 || !mapped(ret - 6, ret, PERM_R | PERM_X, &reloaded))
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
        return patch_tail_jumps_locked(function);
    } else {
        return give_up(ret);
    }
    /* Only the text of a loaded object: private, readable, executable and
     * not writable, which is also what it goes back to. */
    const struct mapping *m = mapping_of(at, at + 1);
    if (!m || m->perms != (PERM_R | PERM_X | PERM_PRIVATE))
        return give_up(ret);
    return store_byte(at, replacement);
}

/* A function whose exit hook is its last call is compiled to jump to the
 * hook (a sibling call), so the hook returns straight to the function's
 * caller and its return address says nothing of where the jump is.  The
 * unwind tables say where the function's code is; in it, every `jmp rel32`
 * or `jmp *disp32(%rip)` that reaches a hook becomes `ret`: at a sibling
 * call the stack is already as at a return, so the function now returns
 * where the hook would have. */
static enum ht_patch_result patch_tail_jumps_locked(uintptr_t function)
{
    if (tried_before(function))
        return HT_PATCH_ALREADY;
    remember_tried(function); /* searched once, whatever comes of it */
    bool reloaded = false;
    uintptr_t start, end;
    if ((!mappings && !mappings_load()) || !ht_code_range(function, &start, &end) ||
        end - start < 5 || !mapped(start, end, PERM_R | PERM_X, &reloaded)) {
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
        if (!jump)
            continue;
        const struct mapping *m = mapping_of(a, a + 1);
        if (!m || m->perms != (PERM_R | PERM_X | PERM_PRIVATE)) {
            sites_unpatched++;
            continue;
        }
        if (store_byte(a, OP_RET) != HT_PATCH_DONE)
            return HT_PATCH_CANNOT;
        if (result != HT_PATCH_DONE)
            sites_unpatched--;
        result = HT_PATCH_DONE;
    }
    return result;
}

/* Another thread is patching, quite likely this very call (threads run the
 * same loops): wait for it, so that each thread reaches a throttled call's
 * hook at most once more.  The holder makes two mprotect calls and a few
 * stores, so the wait is short unless it was descheduled; it is bounded all
 * the same (LOCK_WAIT_NS), after which the call is left for next time.  A
 * thread never waits for itself: a signal handler running instrumented code
 * may interrupt its own patching.  A child forked while another thread held
 * the lock starts with it free (child_after_fork). */
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

static void child_after_fork(void)
{
    __atomic_store_n(&patch_lock, 0, __ATOMIC_RELEASE);
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
        r = patch_locked(return_address, function, exit);
        unlock();
    }
    errno = saved_errno;
    return r;
}
