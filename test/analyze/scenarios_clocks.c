/* Clocks across nodes: ClockOffset definitions and the repair of the
 * message order (docs/analyze.md#clocks).  Nanosecond ticks.
 *
 * clock_reference and clock_skewed hold the same messages between three
 * ranks.  In clock_skewed, rank 1's clock reads 50 ms behind rank 0's
 * and runs 200 ppm fast against it, rank 2's 30 ms ahead and 100 ppm
 * slow; each location carries two ClockOffsets (at local times B0 and B1)
 * that undo exactly that, as Score-P writes them, and rank 0 carries zero
 * ones.  The drifts are chosen so that global times are whole ticks:
 *   rank 1: global = local + 50e6 - (local - B0) / 5000    (-200 ppm)
 *   rank 2: global = local - 30e6 + (local - B0) / 10000   (+100 ppm)
 * so the analyzer must report the same messages, durations and matrix
 * from both, and clock_offsets rank 1: 0.05 s, -200 ppm; rank 2: -0.03 s,
 * +100 ppm (offset_s is what is added to the rank's clock).
 * clock_reference has no ClockOffsets: clock_offsets is empty. */
#include "scenarios.h"

#define B0 100000000ull
#define B1 (B0 + 100000000ull)
#define O1 50000000ll
#define O2 (-30000000ll)

/* Global time of grid point m of a rank's clock, and its local time. */
static uint64_t global_of(uint32_t rank, uint64_t m)
{
    return rank == 1 ? (uint64_t)((int64_t)B0 + O1) + 4999 * m
                     : (uint64_t)((int64_t)B0 + O2) + 10001 * m;
}

static uint64_t local_of(uint32_t rank, uint64_t m)
{
    return B0 + (rank == 1 ? 5000 : 10000) * m;
}

/* The first grid point of rank at or after global time g. */
static uint64_t grid_after(uint32_t rank, uint64_t g)
{
    uint64_t base = global_of(rank, 0), step = rank == 1 ? 4999 : 10001;
    return g <= base ? 0 : (g - base + step - 1) / step;
}

static void clock_scenario(const char *dir, int skewed)
{
    struct tw *tw = tw_create(dir, 3);
    uint64_t loc[3] = {tw_rank_location(tw, 0), tw_rank_location(tw, 1),
                       tw_rank_location(tw, 2)};
    /* time of an event of rank r at grid point m (ranks 1, 2) or global g */
#define AT(r, m) (skewed ? local_of(r, m) : global_of(r, m))
    uint64_t m1 = 20;
    for (int i = 0; i < 10; i++) {
        /* rank 1 -> rank 0, 700 ns */
        uint64_t g = global_of(1, m1);
        tw_send(tw, loc[1], AT(1, m1), 0, TW_COMM_WORLD, 1, 100 + (uint64_t)i);
        tw_recv(tw, loc[0], g + 700, 1, TW_COMM_WORLD, 1, 100 + (uint64_t)i);
        /* rank 0 -> rank 2, from 1000 ns after */
        uint64_t m2 = grid_after(2, g + 1000 + 600 + 50 * (uint64_t)i);
        tw_send(tw, loc[0], g + 1000, 2, TW_COMM_WORLD, 2, 1000);
        tw_recv(tw, loc[2], AT(2, m2), 0, TW_COMM_WORLD, 2, 1000);
        /* rank 2 -> rank 1 */
        uint64_t next = grid_after(1, global_of(2, m2 + 1) + 900);
        tw_send(tw, loc[2], AT(2, m2 + 1), 1, TW_COMM_WORLD, 3, 8);
        tw_recv(tw, loc[1], AT(1, next), 2, TW_COMM_WORLD, 3, 8);
        m1 = next + 1;
    }
#undef AT
    if (skewed) {
        tw_clock_offset(tw, loc[0], B0, 0, 0.0);
        tw_clock_offset(tw, loc[0], B1, 0, 0.0);
        tw_clock_offset(tw, loc[1], B0, O1, 120.0);
        tw_clock_offset(tw, loc[1], B1, O1 - (int64_t)((B1 - B0) / 5000), 130.0);
        tw_clock_offset(tw, loc[2], B0, O2, 80.0);
        tw_clock_offset(tw, loc[2], B1, O2 + (int64_t)((B1 - B0) / 10000), 90.0);
    }
    tw_close(tw);
}

void scenario_clock_reference(const char *dir)
{
    clock_scenario(dir, 0);
}

void scenario_clock_skewed(const char *dir)
{
    clock_scenario(dir, 1);
}

/* One ClockOffset per location: a constant offset (OTF2 applies none by
 * itself).  Rank 1 reads 2 ms behind: it sends at local 1000, rank 0
 * receives at 2001500 (duration 500 ns once corrected). */
void scenario_clock_single_offset(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    uint64_t r0 = tw_rank_location(tw, 0), r1 = tw_rank_location(tw, 1);
    tw_send(tw, r1, 1000, 0, TW_COMM_WORLD, 0, 64);
    tw_recv(tw, r0, 2001500, 1, TW_COMM_WORLD, 0, 64);
    tw_clock_offset(tw, r0, 10, 0, 0.0);
    tw_clock_offset(tw, r1, 10, 2000000, 0.0);
    tw_close(tw);
}

/* Violations of message order left to repair (no ClockOffsets):
 *   A: rank 0 sends at 1000, rank 1 receives at 900: moved 101 ns
 *      (rank 1 from then on 101 ns later), duration 1 ns;
 *   B: rank 0 sends at 2000, rank 1 receives at 2050 (+101): 151 ns;
 *   C: rank 1 sends at 3000 (+101 = 3101), rank 0 receives at 3050:
 *      moved 52 ns (rank 0 from then on 52 ns later), duration 1 ns;
 *   D: rank 0 sends at 4000 (+52), rank 1 receives at 4000 (+101): 49 ns.
 * Two violations, 153 ns moved in all, at most 101; durations 1, 151, 1,
 * 49 ns; two nonpositive_duration warnings (as the clocks gave them). */
void scenario_order_violations(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    uint64_t r0 = tw_rank_location(tw, 0), r1 = tw_rank_location(tw, 1);
    tw_recv(tw, r1, 900, 0, TW_COMM_WORLD, 0, 10);
    tw_send(tw, r0, 1000, 1, TW_COMM_WORLD, 0, 10);
    tw_send(tw, r0, 2000, 1, TW_COMM_WORLD, 0, 20);
    tw_recv(tw, r1, 2050, 0, TW_COMM_WORLD, 0, 20);
    tw_send(tw, r1, 3000, 0, TW_COMM_WORLD, 0, 30);
    tw_recv(tw, r0, 3050, 1, TW_COMM_WORLD, 0, 30);
    tw_send(tw, r0, 4000, 1, TW_COMM_WORLD, 0, 40);
    tw_recv(tw, r1, 4000, 0, TW_COMM_WORLD, 0, 40);
    tw_close(tw);
}
