/* Linked into bench/hook_kernel_counters: three software-defined PAPI
 * events (COUNTERS_BENCH::a, ::b, ::c) for make bench-counters to read
 * (bench/counters_cost.py).  Registered before main, not instrumented, so
 * the kernel's calls stay exactly 3 per iteration. */
#include <sde_lib.h>

static long long a, b, c;

__attribute__((constructor, no_instrument_function)) static void register_bench_counters(void)
{
    papi_handle_t h = papi_sde_init("COUNTERS_BENCH");
    papi_sde_register_counter(h, "a", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &a);
    papi_sde_register_counter(h, "b", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &b);
    papi_sde_register_counter(h, "c", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &c);
}
