/* Ticks to seconds: exact for clock_gettime ticks; for TSC ticks, the ratio
 * measured at run time must agree with CLOCK_MONOTONIC over a known span.
 * (A correctness check with a wide margin, not a speed measurement.) */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "common/clock.h"

int main(int argc, char **argv)
{
    if (argc > 1 && argv[1][0] == 'm') {
        ht_clock_force_source(0);
        ht_clock_init();
        CHECK(!ht_clock_uses_tsc);
        CHECK(ht_clock_seconds_per_tick() == 1e-9);
        CHECK(ht_clock_ticks_to_seconds(2500000000u) == 2.5);
        CHECK_STR(ht_clock_source_name(), "clock_gettime(CLOCK_MONOTONIC)");
        return CHECK_DONE();
    }
    ht_clock_init();
    uint64_t ns0 = ht_clock_monotonic_ns(), t0 = ht_clock_now();
    usleep(100000);
    uint64_t ns1 = ht_clock_monotonic_ns(), t1 = ht_clock_now();
    double seconds = ht_clock_ticks_to_seconds(t1 - t0);
    double reference = (double)(ns1 - ns0) * 1e-9;
    printf("tick source %s: %.6f s by ticks, %.6f s by CLOCK_MONOTONIC\n",
           ht_clock_source_name(), seconds, reference);
    CHECK(seconds > reference * 0.99 && seconds < reference * 1.01);
    CHECK(t1 > t0);
    int status = CHECK_DONE();
    /* Run the forced clock_gettime variant in a fresh process. */
    if (status == 0 && argc > 0) {
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "'%s' monotonic", argv[0]);
        status = system(cmd) == 0 ? 0 : 1;
    }
    return status;
}
