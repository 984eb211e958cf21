/* Benchmark hook library: the floor.  Each hook reads the TSC once and
 * stores it to a thread-local variable (initial-exec TLS, as libhooktrace
 * uses), so an instrumented call takes two timestamps and nothing else.
 * Any profiler that times every call pays at least this. */
#include <stdint.h>
#include <x86intrin.h>

#define NOINSTR __attribute__((no_instrument_function))
#define EXPORT __attribute__((visibility("default")))

static __thread volatile uint64_t last_enter __attribute__((tls_model("initial-exec")));
static __thread volatile uint64_t last_exit __attribute__((tls_model("initial-exec")));

EXPORT NOINSTR void __cyg_profile_func_enter(void *function, void *call_site);
EXPORT NOINSTR void __cyg_profile_func_exit(void *function, void *call_site);

EXPORT NOINSTR void __cyg_profile_func_enter(void *function, void *call_site)
{
    (void)function;
    (void)call_site;
    last_enter = __rdtsc();
}

EXPORT NOINSTR void __cyg_profile_func_exit(void *function, void *call_site)
{
    (void)function;
    (void)call_site;
    last_exit = __rdtsc();
}
