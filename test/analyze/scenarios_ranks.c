/* Scenarios for rank mapping (seed 003). */
#include <otf2/otf2.h>

#include "scenarios.h"

/* Four ranks, every message on a communicator whose local ranks differ
 * from the world ranks (times in ns; every message takes 10 ns):
 *   pair_a = world {3, 1}: local 0 (world 3) sends 100 B to local 1
 *            (world 1)                                      3 -> 1
 *   pair_b = world {1, 3}: the same two processes the other way round;
 *            local 0 (world 1) sends 200 B to local 1        1 -> 3
 *   inter  = {0} and {2, 3}: world 0 sends 300 B to remote rank 1
 *            (world 3); world 3 receives from remote rank 0  0 -> 3
 *   MPI_COMM_SELF: world 2 sends 5 B to itself (rank 0)      2 -> 2
 *   global = world {2, 0} with GLOBAL_MEMBERS: event ranks are world
 *            ranks; world 0 sends 7 B to "2"                 0 -> 2
 *   a second thread of world 1 sends 11 B to world 2 on
 *   MPI_COMM_WORLD                                           1 -> 2
 * Treating local ranks as world ranks, or location references as ranks,
 * gives other pairs. */
void scenario_communicators(const char *dir)
{
    struct tw *tw = tw_create(dir, 4);
    uint64_t loc[4];
    for (uint32_t r = 0; r < 4; r++)
        loc[r] = tw_rank_location(tw, r);
    uint64_t thread1 = tw_add_thread(tw, 1);
    const uint32_t a[] = {3, 1}, b[] = {1, 3}, side_a[] = {0}, side_b[] = {2, 3}, g[] = {2, 0};
    uint32_t pair_a = tw_add_comm(tw, "pair_a", 2, a, OTF2_GROUP_FLAG_NONE);
    uint32_t pair_b = tw_add_comm(tw, "pair_b", 2, b, OTF2_GROUP_FLAG_NONE);
    uint32_t inter = tw_add_inter_comm(tw, "inter", 1, side_a, 2, side_b);
    uint32_t global = tw_add_comm(tw, "global", 2, g, OTF2_GROUP_FLAG_GLOBAL_MEMBERS);

    tw_send(tw, loc[3], 100, 1, pair_a, 0, 100);
    tw_recv(tw, loc[1], 110, 0, pair_a, 0, 100);
    tw_send(tw, loc[1], 200, 1, pair_b, 0, 200);
    tw_recv(tw, loc[3], 210, 0, pair_b, 0, 200);
    tw_send(tw, loc[0], 300, 1, inter, 0, 300);
    tw_recv(tw, loc[3], 310, 0, inter, 0, 300);
    tw_send(tw, loc[2], 400, 0, TW_COMM_SELF, 0, 5);
    tw_recv(tw, loc[2], 410, 0, TW_COMM_SELF, 0, 5);
    tw_send(tw, loc[0], 500, 2, global, 0, 7);
    tw_recv(tw, loc[2], 510, 0, global, 0, 7);
    tw_send(tw, thread1, 600, 2, TW_COMM_WORLD, 0, 11);
    tw_recv(tw, loc[2], 610, 1, TW_COMM_WORLD, 0, 11);
    tw_close(tw);
}

/* No COMM_LOCATIONS group: nothing can be mapped.  One Send and one Recv:
 * two unmapped_rank warnings, no message. */
void scenario_no_world_group(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    tw_omit_world_group(tw);
    tw_send(tw, tw_rank_location(tw, 0), 10, 1, TW_COMM_WORLD, 0, 8);
    tw_recv(tw, tw_rank_location(tw, 1), 20, 0, TW_COMM_WORLD, 0, 8);
    tw_close(tw);
}

/* Ranks outside their communicator: rank 0 sends to local rank 2 of
 * pair = {0, 1} and rank 1 receives from rank 5 of MPI_COMM_WORLD (of 2):
 * two unmapped_rank warnings.  Then one good message 0 -> 1, 4 B, which
 * must still match. */
void scenario_rank_out_of_range(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    const uint32_t members[] = {0, 1};
    uint32_t pair = tw_add_comm(tw, "pair", 2, members, OTF2_GROUP_FLAG_NONE);
    uint64_t r0 = tw_rank_location(tw, 0), r1 = tw_rank_location(tw, 1);
    tw_send(tw, r0, 10, 2, pair, 0, 8);
    tw_recv(tw, r1, 20, 5, TW_COMM_WORLD, 0, 8);
    tw_send(tw, r0, 30, 1, pair, 0, 4);
    tw_recv(tw, r1, 40, 0, pair, 0, 4);
    tw_close(tw);
}

/* Rank 0 sends 8 B to rank 1 (t 10 -> 20); rank 1 has a second thread
 * (location 502) that records nothing.  The tests delete that thread's
 * empty event file: a location announcing no events needs none. */
void scenario_idle_thread(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    tw_add_thread(tw, 1);
    tw_send(tw, tw_rank_location(tw, 0), 10, 1, TW_COMM_WORLD, 0, 8);
    tw_recv(tw, tw_rank_location(tw, 1), 20, 0, TW_COMM_WORLD, 0, 8);
    tw_close(tw);
}

/* MPI_COMM_WORLD defined twice, the second time on the COMM_SELF group:
 * the first definition counts, so rank 0's 8 B to rank 1 (t 10 -> 20)
 * maps to 0 -> 1; one duplicate definition is reported. */
void scenario_duplicate_definition(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    tw_duplicate_world_comm(tw);
    tw_send(tw, tw_rank_location(tw, 0), 10, 1, TW_COMM_WORLD, 0, 8);
    tw_recv(tw, tw_rank_location(tw, 1), 20, 0, TW_COMM_WORLD, 0, 8);
    tw_close(tw);
}
