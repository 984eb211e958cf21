/* Scenarios for the wait states (docs/analyze.md, "Wait states").  Times
 * in ns (the default clock of 1e9 ticks/s); every MPI record lies inside
 * its MPI routine's Enter/Leave, as hooktrace and Score-P write them. */
#include <otf2/otf2.h>

#include "scenarios.h"

#define NONE OTF2_UNDEFINED_UINT32

/* A blocking collective: Enter at `enter`, Begin 1 ns later, End at
 * `end`, Leave 1 ns later. */
static void collective(struct tw *tw, uint64_t loc, uint32_t region, uint64_t enter,
                       uint64_t end, uint8_t op, uint32_t comm, uint32_t root)
{
    tw_enter_region(tw, loc, enter, region);
    tw_collective(tw, loc, enter + 1, end, op, comm, root);
    tw_leave_region(tw, loc, end + 1, region);
}

/* Two ranks; rank 0 receives inside main > recv_phase, rank 1 sends
 * inside main > send_phase.
 *   MPI_Recv entered at 10, send entered at 50:     late sender 40
 *   MPI_Recv entered at 200, send entered at 210:   late sender 10
 *   MPI_Wait entered at 410 completes an Irecv whose
 *   MPI_Isend was entered at 450:                   late sender 40
 *   MPI_Waitall entered at 510 completes two Irecvs,
 *   their sends entered at 530 and 550:             late sender 40, once
 *   MPI_Recv entered at 700 after the send entered
 *   at 650 (and left at 656):                       nothing
 * Expected at rank 0: late_sender [main, recv_phase, MPI_Recv] 2 x 50 ns,
 * [main, recv_phase, MPI_Waitall] 1 x 40 ns, [main, recv_phase,
 * MPI_Wait] 1 x 40 ns; nothing else (no late receiver: every receive
 * was posted before its send began, or after it ended). */
void scenario_late_sender(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    uint64_t r0 = tw_rank_location(tw, 0), r1 = tw_rank_location(tw, 1);
    uint32_t main_ = tw_region(tw, "main"), recv_phase = tw_region(tw, "recv_phase");
    uint32_t send_phase = tw_region(tw, "send_phase"), recv = tw_region(tw, "MPI_Recv");
    uint32_t send = tw_region(tw, "MPI_Send"), irecv = tw_region(tw, "MPI_Irecv");
    uint32_t isend = tw_region(tw, "MPI_Isend"), wait = tw_region(tw, "MPI_Wait");
    uint32_t waitall = tw_region(tw, "MPI_Waitall");

    tw_enter_region(tw, r0, 0, main_);
    tw_enter_region(tw, r0, 5, recv_phase);
    tw_enter_region(tw, r1, 0, main_);
    tw_enter_region(tw, r1, 2, send_phase);

    tw_enter_region(tw, r0, 10, recv);
    tw_enter_region(tw, r1, 50, send);
    tw_send(tw, r1, 55, 0, TW_COMM_WORLD, 0, 8);
    tw_leave_region(tw, r1, 56, send);
    tw_recv(tw, r0, 100, 1, TW_COMM_WORLD, 0, 8);
    tw_leave_region(tw, r0, 101, recv);

    tw_enter_region(tw, r0, 200, recv);
    tw_enter_region(tw, r1, 210, send);
    tw_send(tw, r1, 215, 0, TW_COMM_WORLD, 0, 8);
    tw_leave_region(tw, r1, 216, send);
    tw_recv(tw, r0, 260, 1, TW_COMM_WORLD, 0, 8);
    tw_leave_region(tw, r0, 261, recv);

    tw_enter_region(tw, r0, 400, irecv);
    tw_irecv_request(tw, r0, 401, 1);
    tw_leave_region(tw, r0, 402, irecv);
    tw_enter_region(tw, r0, 410, wait);
    tw_enter_region(tw, r1, 450, isend);
    tw_isend(tw, r1, 451, 0, TW_COMM_WORLD, 0, 8, 7);
    tw_leave_region(tw, r1, 452, isend);
    tw_enter_region(tw, r1, 453, wait);
    tw_isend_complete(tw, r1, 454, 7);
    tw_leave_region(tw, r1, 455, wait);
    tw_irecv(tw, r0, 480, 1, TW_COMM_WORLD, 0, 8, 1);
    tw_leave_region(tw, r0, 481, wait);

    tw_enter_region(tw, r0, 500, irecv);
    tw_irecv_request(tw, r0, 501, 2);
    tw_leave_region(tw, r0, 502, irecv);
    tw_enter_region(tw, r0, 503, irecv);
    tw_irecv_request(tw, r0, 504, 3);
    tw_leave_region(tw, r0, 505, irecv);
    tw_enter_region(tw, r0, 510, waitall);
    tw_enter_region(tw, r1, 530, send);
    tw_send(tw, r1, 531, 0, TW_COMM_WORLD, 1, 8);
    tw_leave_region(tw, r1, 532, send);
    tw_enter_region(tw, r1, 550, send);
    tw_send(tw, r1, 551, 0, TW_COMM_WORLD, 2, 8);
    tw_leave_region(tw, r1, 552, send);
    tw_irecv(tw, r0, 570, 1, TW_COMM_WORLD, 1, 8, 2);
    tw_irecv(tw, r0, 580, 1, TW_COMM_WORLD, 2, 8, 3);
    tw_leave_region(tw, r0, 581, waitall);

    tw_enter_region(tw, r1, 650, send);
    tw_send(tw, r1, 655, 0, TW_COMM_WORLD, 0, 8);
    tw_leave_region(tw, r1, 656, send);
    tw_enter_region(tw, r0, 700, recv);
    tw_recv(tw, r0, 705, 1, TW_COMM_WORLD, 0, 8);
    tw_leave_region(tw, r0, 706, recv);

    tw_leave_region(tw, r0, 800, recv_phase);
    tw_leave_region(tw, r0, 801, main_);
    tw_leave_region(tw, r1, 800, send_phase);
    tw_leave_region(tw, r1, 801, main_);
    tw_close(tw);
}

/* Two ranks.  Rank 0's MPI_Ssend is entered at 10 and left at 101; rank
 * 1's MPI_Recv is entered at 90: late receiver 80 at rank 0, [main,
 * MPI_Ssend].  Then rank 0's MPI_Send is entered at 200 and left at 206
 * (eager), rank 1's MPI_Recv entered at 300: nothing (the send did not
 * wait, and the receive did not wait either). */
void scenario_late_receiver(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    uint64_t r0 = tw_rank_location(tw, 0), r1 = tw_rank_location(tw, 1);
    uint32_t main_ = tw_region(tw, "main"), ssend = tw_region(tw, "MPI_Ssend");
    uint32_t send = tw_region(tw, "MPI_Send"), recv = tw_region(tw, "MPI_Recv");
    tw_enter_region(tw, r0, 0, main_);
    tw_enter_region(tw, r1, 0, main_);
    tw_enter_region(tw, r0, 10, ssend);
    tw_enter_region(tw, r1, 90, recv);
    tw_send(tw, r0, 100, 1, TW_COMM_WORLD, 3, 64);
    tw_leave_region(tw, r0, 101, ssend);
    tw_recv(tw, r1, 100, 0, TW_COMM_WORLD, 3, 64);
    tw_leave_region(tw, r1, 102, recv);
    tw_enter_region(tw, r0, 200, send);
    tw_send(tw, r0, 205, 1, TW_COMM_WORLD, 3, 64);
    tw_leave_region(tw, r0, 206, send);
    tw_enter_region(tw, r1, 300, recv);
    tw_recv(tw, r1, 305, 0, TW_COMM_WORLD, 3, 64);
    tw_leave_region(tw, r1, 306, recv);
    tw_leave_region(tw, r0, 400, main_);
    tw_leave_region(tw, r1, 400, main_);
    tw_close(tw);
}

/* Four ranks, collectives on MPI_COMM_WORLD inside main, and one on
 * pair = world {3, 1} inside main > sub.  Enter times by rank 0..3:
 *   MPI_Barrier     10  20  30  70  end 80    wait_at_barrier 60 50 40 -
 *   MPI_Allreduce  100 150 110 120  end 200   wait_at_nxn     50  - 40 30
 *   MPI_Allreduce  300 300 300 340  end 400   wait_at_nxn     40 40 40  -
 *   MPI_Bcast root 2: 500 510 560 520 end 600 late_broadcast  60 50  - 40
 *   MPI_Reduce root 1: 730 700 720 760 end 800 early_reduce    - 20  -  -
 *   MPI_Scan       900 950 900 900  end 990   (no pattern)
 *   MPI_Allgather 1000 on all       end 1010  (nobody waits)
 *   pair: MPI_Bcast root local 0 (world 3): world 3 enters at 1100,
 *   world 1 at 1050, end 1200:                late_broadcast at 1: 50
 * Expected, by rank: barrier 1 x 60, 1 x 50, 1 x 40 at 0, 1, 2;
 * wait_at_nxn 2 x 90 (0), 1 x 40 (1), 2 x 80 (2), 1 x 30 (3);
 * late_broadcast [main, MPI_Bcast] 1 x 60 (0), 1 x 50 (1), 1 x 40 (3);
 * late_broadcast [main, sub, MPI_Bcast] 1 x 50 (1); early_reduce 1 x 20
 * at 1, [main, MPI_Reduce]. */
void scenario_collective_waits(const char *dir)
{
    struct tw *tw = tw_create(dir, 4);
    uint64_t loc[4];
    for (uint32_t r = 0; r < 4; r++)
        loc[r] = tw_rank_location(tw, r);
    const uint32_t members[] = {3, 1};
    uint32_t pair = tw_add_comm(tw, "pair", 2, members, OTF2_GROUP_FLAG_NONE);
    uint32_t main_ = tw_region(tw, "main"), sub = tw_region(tw, "sub");
    uint32_t barrier = tw_region(tw, "MPI_Barrier"), allreduce = tw_region(tw, "MPI_Allreduce");
    uint32_t bcast = tw_region(tw, "MPI_Bcast"), reduce = tw_region(tw, "MPI_Reduce");
    uint32_t scan = tw_region(tw, "MPI_Scan"), allgather = tw_region(tw, "MPI_Allgather");
    static const uint64_t t_barrier[] = {10, 20, 30, 70}, t_ar1[] = {100, 150, 110, 120},
                          t_ar2[] = {300, 300, 300, 340}, t_bcast[] = {500, 510, 560, 520},
                          t_reduce[] = {730, 700, 720, 760}, t_scan[] = {900, 950, 900, 900};
    for (uint32_t r = 0; r < 4; r++) {
        uint64_t l = loc[r];
        tw_enter_region(tw, l, 0, main_);
        collective(tw, l, barrier, t_barrier[r], 80, OTF2_COLLECTIVE_OP_BARRIER, TW_COMM_WORLD,
                   NONE);
        collective(tw, l, allreduce, t_ar1[r], 200, OTF2_COLLECTIVE_OP_ALLREDUCE, TW_COMM_WORLD,
                   NONE);
        collective(tw, l, allreduce, t_ar2[r], 400, OTF2_COLLECTIVE_OP_ALLREDUCE, TW_COMM_WORLD,
                   NONE);
        collective(tw, l, bcast, t_bcast[r], 600, OTF2_COLLECTIVE_OP_BCAST, TW_COMM_WORLD, 2);
        collective(tw, l, reduce, t_reduce[r], 800, OTF2_COLLECTIVE_OP_REDUCE, TW_COMM_WORLD, 1);
        collective(tw, l, scan, t_scan[r], 990, OTF2_COLLECTIVE_OP_SCAN, TW_COMM_WORLD, NONE);
        collective(tw, l, allgather, 1000, 1010, OTF2_COLLECTIVE_OP_ALLGATHER, TW_COMM_WORLD,
                   NONE);
        if (r == 1 || r == 3) {
            tw_enter_region(tw, l, 1020, sub);
            collective(tw, l, bcast, r == 3 ? 1100 : 1050, 1200, OTF2_COLLECTIVE_OP_BCAST, pair,
                       0);
            tw_leave_region(tw, l, 1250, sub);
        }
        tw_leave_region(tw, l, 1300, main_);
    }
    tw_close(tw);
}

/* No wait anywhere: every send begins before the routine that receives
 * it (an eager MPI_Send, a Ssend after the Irecv was posted but before
 * its MPI_Wait, an Isend), and all ranks enter each collective at the
 * same tick.  Expected: "wait_states": []. */
void scenario_no_wait(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    uint64_t r0 = tw_rank_location(tw, 0), r1 = tw_rank_location(tw, 1);
    uint32_t main_ = tw_region(tw, "main"), send = tw_region(tw, "MPI_Send");
    uint32_t ssend = tw_region(tw, "MPI_Ssend"), recv = tw_region(tw, "MPI_Recv");
    uint32_t isend = tw_region(tw, "MPI_Isend"), irecv = tw_region(tw, "MPI_Irecv");
    uint32_t wait = tw_region(tw, "MPI_Wait"), allreduce = tw_region(tw, "MPI_Allreduce");
    uint32_t bcast = tw_region(tw, "MPI_Bcast"), reduce = tw_region(tw, "MPI_Reduce");
    tw_enter_region(tw, r0, 0, main_);
    tw_enter_region(tw, r1, 0, main_);
    /* eager send before the receive */
    tw_enter_region(tw, r0, 10, send);
    tw_send(tw, r0, 11, 1, TW_COMM_WORLD, 0, 8);
    tw_leave_region(tw, r0, 12, send);
    tw_enter_region(tw, r1, 20, recv);
    tw_recv(tw, r1, 21, 0, TW_COMM_WORLD, 0, 8);
    tw_leave_region(tw, r1, 22, recv);
    /* receive posted (Irecv) before the Ssend began: no late receiver;
     * the send began before the wait: no late sender */
    tw_enter_region(tw, r1, 30, irecv);
    tw_irecv_request(tw, r1, 31, 5);
    tw_leave_region(tw, r1, 32, irecv);
    tw_enter_region(tw, r0, 40, ssend);
    tw_send(tw, r0, 45, 1, TW_COMM_WORLD, 1, 8);
    tw_leave_region(tw, r0, 46, ssend);
    tw_enter_region(tw, r1, 50, wait);
    tw_irecv(tw, r1, 51, 0, TW_COMM_WORLD, 1, 8, 5);
    tw_leave_region(tw, r1, 52, wait);
    /* Isend before the receive */
    tw_enter_region(tw, r1, 60, isend);
    tw_isend(tw, r1, 61, 0, TW_COMM_WORLD, 2, 8, 9);
    tw_leave_region(tw, r1, 62, isend);
    tw_enter_region(tw, r0, 70, recv);
    tw_recv(tw, r0, 71, 1, TW_COMM_WORLD, 2, 8);
    tw_leave_region(tw, r0, 72, recv);
    tw_enter_region(tw, r1, 80, wait);
    tw_isend_complete(tw, r1, 81, 9);
    tw_leave_region(tw, r1, 82, wait);
    for (int r = 0; r < 2; r++) {
        uint64_t l = r ? r1 : r0;
        collective(tw, l, allreduce, 100, 110, OTF2_COLLECTIVE_OP_ALLREDUCE, TW_COMM_WORLD,
                   NONE);
        collective(tw, l, bcast, 200, 210, OTF2_COLLECTIVE_OP_BCAST, TW_COMM_WORLD, 0);
        collective(tw, l, reduce, 300, 310, OTF2_COLLECTIVE_OP_REDUCE, TW_COMM_WORLD, 0);
        tw_leave_region(tw, l, 400, main_);
    }
    tw_close(tw);
}

/* Edges, on a clock of 1e6 ticks/s (times in µs), three ranks:
 *   rank 0's MPI_Recv is entered at 10 and its MpiRecv is at 30, but
 *   rank 1's MPI_Send is entered at 50 (a clock that is off): the late
 *   sender is clipped at the receive's record, 20 µs, and the message
 *   has a nonpositive_duration warning;
 *   MPI_Barrier entered at 300, 310, 320, end 330: wait_at_barrier 20 µs
 *   at rank 0, 10 µs at rank 1;
 *   an MPI_Allreduce that ranks 0 and 1 enter (at 400 and 450) and rank
 *   2 never does: dropped at the end, no wait. */
void scenario_wait_edges(const char *dir)
{
    struct tw *tw = tw_create(dir, 3);
    tw_set_clock(tw, 1000000, 0);
    uint64_t loc[3];
    for (uint32_t r = 0; r < 3; r++)
        loc[r] = tw_rank_location(tw, r);
    uint32_t main_ = tw_region(tw, "main"), recv = tw_region(tw, "MPI_Recv");
    uint32_t send = tw_region(tw, "MPI_Send"), barrier = tw_region(tw, "MPI_Barrier");
    uint32_t allreduce = tw_region(tw, "MPI_Allreduce");
    static const uint64_t t_barrier[] = {300, 310, 320};
    for (uint32_t r = 0; r < 3; r++)
        tw_enter_region(tw, loc[r], 0, main_);
    tw_enter_region(tw, loc[0], 10, recv);
    tw_recv(tw, loc[0], 30, 1, TW_COMM_WORLD, 0, 8);
    tw_leave_region(tw, loc[0], 31, recv);
    tw_enter_region(tw, loc[1], 50, send);
    tw_send(tw, loc[1], 55, 0, TW_COMM_WORLD, 0, 8);
    tw_leave_region(tw, loc[1], 56, send);
    for (uint32_t r = 0; r < 3; r++)
        collective(tw, loc[r], barrier, t_barrier[r], 330, OTF2_COLLECTIVE_OP_BARRIER,
                   TW_COMM_WORLD, NONE);
    for (uint32_t r = 0; r < 2; r++)
        collective(tw, loc[r], allreduce, r ? 450 : 400, 500, OTF2_COLLECTIVE_OP_ALLREDUCE,
                   TW_COMM_WORLD, NONE);
    for (uint32_t r = 0; r < 3; r++)
        tw_leave_region(tw, loc[r], 600, main_);
    tw_close(tw);
}
