/* The one timestamp a hook takes.
 *
 * Where the CPU has an invariant TSC, a tick is one TSC cycle (rdtsc costs a
 * few nanoseconds and needs no system call); elsewhere a tick is one
 * nanosecond of CLOCK_MONOTONIC.  Ticks become seconds only at output time,
 * with a ratio measured over the whole run against CLOCK_MONOTONIC. */
#ifndef HT_COMMON_CLOCK_H
#define HT_COMMON_CLOCK_H

#include <stdint.h>
#include <time.h>
#include <x86intrin.h>

#include "common/compiler.h"

extern int ht_clock_uses_tsc;

HT_NOINSTR static inline uint64_t ht_clock_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

HT_NOINSTR static inline uint64_t ht_clock_now(void)
{
    if (HT_LIKELY(ht_clock_uses_tsc))
        return __rdtsc();
    return ht_clock_monotonic_ns();
}

/* ht_clock_now as a function, for code that is given a clock. */
uint64_t ht_clock_now_fn(void);

/* Chooses the tick source and remembers the start of the run.  Idempotent. */
void ht_clock_init(void);

/* Freezes the tick -> second ratio, measured from ht_clock_init to now.
 * Called once before the first conversion; later calls keep the ratio. */
void ht_clock_calibrate(void);

double ht_clock_seconds_per_tick(void);
double ht_clock_ticks_to_seconds(uint64_t ticks);

/* The tick rate measured from start-up to now, without freezing the ratio
 * used for output (for settings converted once, such as poll intervals). */
double ht_clock_ticks_per_second_estimate(void);

/* The same without sleeping, for a hook: measured over at least 10 us
 * since start-up (spinning until then), so within about 1%. */
double ht_clock_ticks_per_second_quick(void);

/* "tsc" or "clock_gettime(CLOCK_MONOTONIC)", for the logfile header. */
const char *ht_clock_source_name(void);

/* For tests: force a tick source before ht_clock_init (1 = TSC if present,
 * 0 = clock_gettime). */
void ht_clock_force_source(int use_tsc);

#endif
