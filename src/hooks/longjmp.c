/* longjmp leaves instrumented functions without running their exit hooks.
 * libhooktrace interposes the longjmp family so that, just before the jump,
 * it closes exactly the calls the jump leaves: those entered below the stack
 * pointer that setjmp saved.  glibc stores that pointer mangled (PTR_MANGLE:
 * xor with the thread's pointer guard at %fs:0x30, rotate left 17); the value
 * is used only if it lies above us on this thread's stack, and otherwise the
 * tree's stack-address check on the next entry does what it can.
 *
 * Only in the shared library (libtool defines PIC there): a program linked
 * statically against libhooktrace.a keeps its C library's own longjmp. */
/* Distributions build with -D_FORTIFY_SOURCE (Debian's dpkg-buildflags):
 * <setjmp.h> then renames longjmp and siglongjmp to __longjmp_chk by asm
 * labels, and the interposers below would all define that one symbol. */
#undef _FORTIFY_SOURCE
#define _GNU_SOURCE
#include <dlfcn.h>
#include <setjmp.h>
#include <stdlib.h>

#include "hooks/hooks.h"
#include "trace/trace.h"
#include "runtime/runtime.h"

#if defined(PIC)

typedef void (*jump_fn)(struct __jmp_buf_tag *, int);

#if defined(__SANITIZE_ADDRESS__)
/* The jump skips our own frames' epilogues, which would unpoison their
 * AddressSanitizer redzones; ASan's own longjmp interceptor calls this for
 * the same reason, but before our frames existed. */
void __asan_handle_no_return(void);
#define BEFORE_NO_RETURN() __asan_handle_no_return()
#else
#define BEFORE_NO_RETURN() ((void)0)
#endif

static jump_fn real_longjmp, real_underscore_longjmp, real_siglongjmp, real_longjmp_chk;

/* Resolved before main (and before the program's own constructors, which
 * may jump), so that a jump from a signal handler never has to call dlsym. */
__attribute__((constructor(101))) static void resolve_real_jumps(void)
{
    real_longjmp = (jump_fn)dlsym(RTLD_NEXT, "longjmp");
    real_underscore_longjmp = (jump_fn)dlsym(RTLD_NEXT, "_longjmp");
    real_siglongjmp = (jump_fn)dlsym(RTLD_NEXT, "siglongjmp");
    real_longjmp_chk = (jump_fn)dlsym(RTLD_NEXT, "__longjmp_chk");
}

static uintptr_t saved_stack_pointer(const struct __jmp_buf_tag *env)
{
#if defined(__x86_64__) && defined(__GLIBC__)
    enum { JB_RSP = 6 };
    uintptr_t guard, sp = (uintptr_t)env->__jmpbuf[JB_RSP];
    __asm__("mov %%fs:0x30, %0" : "=r"(guard));
    sp = (sp >> 17) | (sp << (64 - 17));
    return sp ^ guard;
#else
    (void)env;
    return 0;
#endif
}

HT_NOINSTR static void close_left_calls(const struct __jmp_buf_tag *env)
{
    struct ht_thread *t = ht_thread_self;
    if (!t || !__atomic_load_n(&ht_recording, __ATOMIC_RELAXED))
        return;
    uintptr_t target = saved_stack_pointer(env);
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    if (target <= here || target - here >= HT_STACK_SPAN)
        return; /* not a jump up this stack as we understand it */
    if (t->in_hook) {
        /* From a signal handler that interrupted a hook of this thread:
         * a jump within the handler leaves that hook to finish its work;
         * a jump above it means it never will. */
        if (target <= t->hook_frame)
            return;
        t->in_hook = 0;
    }
    struct ht_node *before = t->tree.current;
    /* Calls left while paused end at the pause's start, as they would
     * returning (hooks.c, ht_hook_leave_paused). */
    uint64_t now = __atomic_load_n(&ht_recording, __ATOMIC_RELAXED) == HT_RECORDING_PAUSED
                       ? ht_runtime_pause_start()
                       : ht_clock_now();
    ht_tree_unwind_longjmp(&t->tree, target, now);
    ht_trace_moved(t, before, now);
}

HT_NOINSTR static void jump(jump_fn *real, const char *name, struct __jmp_buf_tag *env, int val)
{
    close_left_calls(env);
    if (!*real) /* a longjmp before our constructor ran */
        *real = (jump_fn)dlsym(RTLD_NEXT, name);
    if (!*real)
        abort();
    BEFORE_NO_RETURN();
    (*real)(env, val);
    abort(); /* not reached: the C library's longjmp does not return */
}

HT_EXPORT HT_NOINSTR void longjmp(struct __jmp_buf_tag env[1], int val)
{
    jump(&real_longjmp, "longjmp", env, val);
    __builtin_unreachable();
}

HT_EXPORT HT_NOINSTR void _longjmp(struct __jmp_buf_tag env[1], int val)
{
    jump(&real_underscore_longjmp, "_longjmp", env, val);
    __builtin_unreachable();
}

HT_EXPORT HT_NOINSTR void siglongjmp(struct __jmp_buf_tag env[1], int val)
{
    jump(&real_siglongjmp, "siglongjmp", env, val);
    __builtin_unreachable();
}

/* What longjmp becomes under -D_FORTIFY_SOURCE. */
void __longjmp_chk(struct __jmp_buf_tag env[1], int val) __attribute__((noreturn));
HT_EXPORT HT_NOINSTR void __longjmp_chk(struct __jmp_buf_tag env[1], int val)
{
    jump(&real_longjmp_chk, "__longjmp_chk", env, val);
    __builtin_unreachable();
}

#endif
