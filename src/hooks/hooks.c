/* The entry points GCC, Clang and gfortran call from every function compiled
 * with -finstrument-functions.  Everything here is on the hot path: one global
 * flag, one range check, one TLS load, one timestamp, then the tree. */
#include "config.h"

#include "hooks/hooks.h"
#include "hooktrace.h"

int ht_recording;
uintptr_t ht_self_text_start, ht_self_text_size;

HT_EXPORT HT_NOINSTR void __cyg_profile_func_enter(void *function, void *call_site)
{
    if (HT_UNLIKELY(!ht_recording))
        return;
    uintptr_t f = (uintptr_t)function;
    if (HT_UNLIKELY(f - ht_self_text_start < ht_self_text_size))
        return;
    struct ht_thread *t = ht_thread_self;
    if (HT_UNLIKELY(t == NULL) && (t = ht_thread_attach()) == NULL)
        return;
    ht_hook_enter(t, f, ht_stack_pointer(), (uintptr_t)call_site);
}

HT_EXPORT HT_NOINSTR void __cyg_profile_func_exit(void *function, void *call_site)
{
    (void)call_site;
    if (HT_UNLIKELY(!ht_recording))
        return;
    uintptr_t f = (uintptr_t)function;
    if (HT_UNLIKELY(f - ht_self_text_start < ht_self_text_size))
        return;
    struct ht_thread *t = ht_thread_self;
    if (HT_UNLIKELY(t == NULL))
        return; /* an exit without an enter on this thread */
    ht_hook_exit(t, f);
}

HT_EXPORT const char *hooktrace_version(void)
{
    return PACKAGE_VERSION;
}
