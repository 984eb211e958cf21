#include "trace/clock_skew.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "config/config.h"

#define VARIABLE "HOOKTRACE_CLOCK_SKEW_TEST"

bool ht_trace_skewed;
static bool read_once;
/* This rank's clock: tick + offset + drift * (tick - origin). */
static int64_t offset_ticks;
static double drift; /* ppm / 1e6 */
static uint64_t origin;

/* One "rank:offset_ns:drift_ppm" entry at p (up to ',' or the end);
 * returns the character after it, or NULL if it is malformed. */
static const char *parse_entry(const char *p, long *rank, long long *offset_ns, double *ppm)
{
    char *end;
    errno = 0;
    *rank = strtol(p, &end, 10);
    if (end == p || *end != ':' || *rank < 0 || errno)
        return NULL;
    p = end + 1;
    *offset_ns = strtoll(p, &end, 10);
    if (end == p || *end != ':' || errno)
        return NULL;
    p = end + 1;
    *ppm = strtod(p, &end);
    /* Beyond +-10^5 ppm (10%) no real clock drifts; such a value is a typo. */
    if (end == p || (*end != ',' && *end != '\0') || errno || *ppm <= -1e5 || *ppm >= 1e5)
        return NULL;
    return end;
}

void ht_trace_skew_init(int rank)
{
    if (read_once)
        return;
    read_once = true;
    const char *value = getenv(VARIABLE);
    if (!value || !*value || ht_config_secure_execution())
        return;
    bool found = false;
    long long mine_ns = 0;
    double mine_ppm = 0;
    const char *p = value;
    for (;;) {
        long r;
        long long ns;
        double ppm;
        p = parse_entry(p, &r, &ns, &ppm);
        if (!p) {
            if (rank == 0)
                fprintf(stderr, "hooktrace: " VARIABLE "=\"%s\": not a list of "
                                "rank:offset_ns:drift_ppm (e.g. 1:-50000000:200,3:30000000:-100); "
                                "ignored\n", value);
            return;
        }
        if (r == rank) {
            found = true;
            mine_ns = ns;
            mine_ppm = ppm;
        }
        if (*p == '\0')
            break;
        p++;
    }
    if (!found)
        return;
    /* The tick rate measured since start-up: exact enough here (the skew
     * must only be the same in the measurements and the events, which it
     * is: both go through ht_trace_skew_apply). */
    offset_ticks = (int64_t)((double)mine_ns * 1e-9 * ht_clock_ticks_per_second_estimate());
    drift = mine_ppm * 1e-6;
    origin = ht_clock_now();
    ht_trace_skewed = true;
}

uint64_t ht_trace_skew_apply(uint64_t tick)
{
    int64_t since = (int64_t)(tick - origin);
    int64_t shift = offset_ticks + (int64_t)(drift * (double)since);
    if (shift < 0 && (uint64_t)-shift > tick)
        return 0;
    return tick + (uint64_t)shift;
}
