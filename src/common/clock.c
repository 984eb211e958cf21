#include "common/clock.h"

#include <cpuid.h>
#include <stdbool.h>
#include <unistd.h>

int ht_clock_uses_tsc;

static bool initialised;
static int forced_source = -1;
static uint64_t start_ticks, start_ns;
static double seconds_per_tick;

/* CPUID leaf 0x80000007, EDX bit 8: the TSC runs at a constant rate in every
 * P-, C- and T-state, so tick differences measure time on any core. */
static bool cpu_has_invariant_tsc(void)
{
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u)
        return false;
    __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
    return (edx >> 8) & 1u;
}

HT_NOINSTR uint64_t ht_clock_now_fn(void)
{
    return ht_clock_now();
}

void ht_clock_force_source(int use_tsc)
{
    forced_source = use_tsc;
}

void ht_clock_init(void)
{
    if (initialised)
        return;
    bool tsc = cpu_has_invariant_tsc();
    if (forced_source == 0)
        tsc = false;
    ht_clock_uses_tsc = tsc;
    start_ns = ht_clock_monotonic_ns();
    start_ticks = ht_clock_now();
    seconds_per_tick = 0.0;
    initialised = true;
}

void ht_clock_calibrate(void)
{
    if (seconds_per_tick > 0.0)
        return;
    if (!initialised)
        ht_clock_init();
    if (!ht_clock_uses_tsc) {
        seconds_per_tick = 1e-9;
        return;
    }
    /* A very short run gives too few nanoseconds for a precise ratio; wait
     * until at least 2 ms have passed since start-up (costs nothing on any
     * run longer than that). */
    uint64_t ns, ticks;
    for (;;) {
        ns = ht_clock_monotonic_ns();
        ticks = __rdtsc();
        if (ns - start_ns >= 2000000u)
            break;
        usleep(200);
    }
    seconds_per_tick = (double)(ns - start_ns) * 1e-9 / (double)(ticks - start_ticks);
}

/* The tick rate against CLOCK_MONOTONIC since start-up, over at least
 * min_ns of reference (waited for, sleeping between reads if `sleep`), or
 * the calibrated rate once there is one. */
static double rate_since_start(uint64_t min_ns, bool sleep)
{
    if (!initialised)
        ht_clock_init();
    if (!ht_clock_uses_tsc)
        return 1e9;
    if (seconds_per_tick > 0.0)
        return 1.0 / seconds_per_tick;
    uint64_t ns = ht_clock_monotonic_ns(), ticks = __rdtsc();
    while (ns - start_ns < min_ns) {
        if (sleep)
            usleep(100);
        ns = ht_clock_monotonic_ns();
        ticks = __rdtsc();
    }
    return (double)(ticks - start_ticks) / ((double)(ns - start_ns) * 1e-9);
}

double ht_clock_ticks_per_second_estimate(void)
{
    return rate_since_start(1000000u, true); /* at least 1 ms of reference */
}

double ht_clock_ticks_per_second_quick(void)
{
    return rate_since_start(10000u, false); /* 10 us at most, without sleeping */
}

double ht_clock_seconds_per_tick(void)
{
    ht_clock_calibrate();
    return seconds_per_tick;
}

double ht_clock_ticks_to_seconds(uint64_t ticks)
{
    return (double)ticks * ht_clock_seconds_per_tick();
}

const char *ht_clock_source_name(void)
{
    return ht_clock_uses_tsc ? "invariant TSC (rdtsc)" : "clock_gettime(CLOCK_MONOTONIC)";
}
