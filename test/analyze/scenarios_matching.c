/* Scenarios for matching (seed 004), timing and the trace as a whole. */
#include "scenarios.h"

/* Rank 0 sends three 10 B messages tag 1 (t 10, 20, 30); rank 1 receives
 * two (t 15, 25), and one 12 B with tag 2 (t 40) nobody sent.
 * Two messages of 5 ns; one missing_receive (the third send, 10 B); one
 * receive_without_send (12 B).  With Enter/Leave around everything: the
 * analyzer must skip them, and count them as events. */
void scenario_missing_receive(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    uint64_t r0 = tw_rank_location(tw, 0), r1 = tw_rank_location(tw, 1);
    tw_enter(tw, r0, 1);
    tw_enter(tw, r1, 1);
    tw_send(tw, r0, 10, 1, TW_COMM_WORLD, 1, 10);
    tw_recv(tw, r1, 15, 0, TW_COMM_WORLD, 1, 10);
    tw_send(tw, r0, 20, 1, TW_COMM_WORLD, 1, 10);
    tw_recv(tw, r1, 25, 0, TW_COMM_WORLD, 1, 10);
    tw_send(tw, r0, 30, 1, TW_COMM_WORLD, 1, 10);
    tw_recv(tw, r1, 40, 0, TW_COMM_WORLD, 2, 12);
    tw_leave(tw, r0, 50);
    tw_leave(tw, r1, 50);
    tw_close(tw);
}

/* Clock trouble between rank 0 and rank 1, tag 0:
 *   sent t 100, received t 50       duration -50 ns   nonpositive_duration
 *                                   repaired: rank 1 moves 51 ns, 1 ns
 *   sent t 200, received t 149      (+51) duration 0  nonpositive_duration
 *                                   repaired: rank 1 moves 1 ns more, 1 ns
 *   sent 64 B t 300, received 32 B
 *     t 310                         (+52) 62 ns       send_longer_than_receive
 * Three messages, 10 + 10 + 64 = 84 bytes; durations once repaired 1, 1
 * and 62 ns: mean bandwidth 84 B / 64 ns = 1.3125e9 bytes/s. */
void scenario_negative_duration(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    uint64_t r0 = tw_rank_location(tw, 0), r1 = tw_rank_location(tw, 1);
    tw_recv(tw, r1, 50, 0, TW_COMM_WORLD, 0, 10);
    tw_send(tw, r0, 100, 1, TW_COMM_WORLD, 0, 10);
    tw_send(tw, r0, 200, 1, TW_COMM_WORLD, 0, 10);
    tw_recv(tw, r1, 149, 0, TW_COMM_WORLD, 0, 10);
    tw_send(tw, r0, 300, 1, TW_COMM_WORLD, 0, 64);
    tw_recv(tw, r1, 310, 0, TW_COMM_WORLD, 0, 32);
    tw_close(tw);
}

/* A clock of 1e6 ticks/s with offset 1000: rank 0 sends 1000 B at tick
 * 1010 (10 us), rank 1 receives at tick 1510 (510 us): duration 500 us,
 * 2e6 bytes/s. */
void scenario_clock(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    tw_set_clock(tw, 1000000, 1000);
    tw_send(tw, tw_rank_location(tw, 0), 1010, 1, TW_COMM_WORLD, 0, 1000);
    tw_recv(tw, tw_rank_location(tw, 1), 1510, 0, TW_COMM_WORLD, 0, 1000);
    tw_close(tw);
}

/* No ClockProperties: times stay ticks.  One message 3 ticks long. */
void scenario_no_clock(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    tw_omit_clock(tw);
    tw_send(tw, tw_rank_location(tw, 0), 7, 1, TW_COMM_WORLD, 0, 9);
    tw_recv(tw, tw_rank_location(tw, 1), 10, 0, TW_COMM_WORLD, 0, 9);
    tw_close(tw);
}

/* Two ranks, no events at all. */
void scenario_empty(const char *dir)
{
    tw_close(tw_create(dir, 2));
}

/* A long run in which few messages are in flight at any time: 8 ranks in a
 * ring, 25000 rounds; in round k every rank r Isends 1000 + r bytes to
 * r + 1 (tag k % 7), Recvs from r - 1, and completes its Isend, all
 * within the round's 100 ns.  Every fifth round the receive is an
 * IrecvRequest/Irecv pair instead.  200000 messages, 25000 * (8 * 1000 +
 * 28) = 200700000 bytes, 25000 per pair; every message takes 30 ns.  As
 * each message is received within its round, the ends held at once stay
 * a few per rank however long the run: the test checks that bound. */
void scenario_ring(const char *dir)
{
    enum { RANKS = 8, ROUNDS = 25000 };
    struct tw *tw = tw_create(dir, RANKS);
    uint64_t loc[RANKS];
    for (uint32_t r = 0; r < RANKS; r++)
        loc[r] = tw_rank_location(tw, r);
    for (uint64_t k = 0; k < ROUNDS; k++) {
        uint64_t t = 1000 + k * 100;
        uint32_t tag = (uint32_t)(k % 7);
        for (uint32_t r = 0; r < RANKS; r++) {
            uint32_t next = (r + 1) % RANKS, prev = (r + RANKS - 1) % RANKS;
            tw_enter(tw, loc[r], t);
            /* Request ids are per location: even for sends, odd for
             * receives. */
            tw_isend(tw, loc[r], t + 10, next, TW_COMM_WORLD, tag, 1000 + r, 2 * k);
            if (k % 5 == 4) {
                tw_irecv_request(tw, loc[r], t + 20, 2 * k + 1);
                tw_irecv(tw, loc[r], t + 40, prev, TW_COMM_WORLD, tag, 1000 + prev, 2 * k + 1);
            } else {
                tw_recv(tw, loc[r], t + 40, prev, TW_COMM_WORLD, tag, 1000 + prev);
            }
            tw_isend_complete(tw, loc[r], t + 50, 2 * k);
            tw_leave(tw, loc[r], t + 60);
        }
    }
    tw_close(tw);
}

/* A new tag per message, as codes that tag by iteration do: 8 ranks in a
 * ring, 20000 rounds.  In round k each rank sends tag k to r + 1 (10 + r
 * bytes) and receives tag k - 3 from r - 1, so three messages per pair
 * wait at any time and every match empties its queue for good.  The last
 * three rounds' messages are never received (24 unmatched sends); rank 0
 * also receives tag 1000000 that nobody sent (one unmatched receive).
 * Matched: 8 * 19997 messages, pair r -> r + 1 carrying 19997 * (10 + r)
 * bytes; every message takes 3 rounds of 100 ns plus 20 ns. */
void scenario_tags(const char *dir)
{
    enum { RANKS = 8, ROUNDS = 20000, LAG = 3 };
    struct tw *tw = tw_create(dir, RANKS);
    uint64_t loc[RANKS];
    for (uint32_t r = 0; r < RANKS; r++)
        loc[r] = tw_rank_location(tw, r);
    for (uint64_t k = 0; k < ROUNDS; k++) {
        uint64_t t = 1000 + k * 100;
        for (uint32_t r = 0; r < RANKS; r++) {
            uint32_t next = (r + 1) % RANKS, prev = (r + RANKS - 1) % RANKS;
            tw_enter(tw, loc[r], t);
            tw_send(tw, loc[r], t + 10, next, TW_COMM_WORLD, (uint32_t)k, 10 + r);
            if (k >= LAG)
                tw_recv(tw, loc[r], t + 30, prev, TW_COMM_WORLD, (uint32_t)(k - LAG), 10 + prev);
            tw_leave(tw, loc[r], t + 60);
        }
    }
    tw_recv(tw, loc[0], 1000 + ROUNDS * 100, RANKS - 1, TW_COMM_WORLD, 1000000, 5);
    tw_close(tw);
}
