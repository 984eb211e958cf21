/* Scenarios for the non-blocking translation rules of seed 004.  Times are
 * nanoseconds (the writer's default clock); the comment above each states
 * the answer the tests expect and why a wrong rule gives another. */
#include "scenarios.h"

/* Rank 0: Isend 100 B (t 10), Send 200 B (t 20), IsendComplete (t 30).
 * Rank 1: Recv 100 B (t 40), Recv 200 B (t 50), all tag 1.
 * The Send waits behind the pending Isend, so the Isend is first in its
 * key: 100 B sent at 10 -> 40 (30 ns), 200 B sent at 20 -> 50 (30 ns), no
 * warning.  Not blocking would pair 200 B with the 100 B receive. */
void scenario_blocking_behind_isend(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    uint64_t r0 = tw_rank_location(tw, 0), r1 = tw_rank_location(tw, 1);
    tw_isend(tw, r0, 10, 1, TW_COMM_WORLD, 1, 100, 1);
    tw_send(tw, r0, 20, 1, TW_COMM_WORLD, 1, 200);
    tw_isend_complete(tw, r0, 30, 1);
    tw_recv(tw, r1, 40, 0, TW_COMM_WORLD, 1, 100);
    tw_recv(tw, r1, 50, 0, TW_COMM_WORLD, 1, 200);
    tw_close(tw);
}

/* Rank 0: Isends A 10 B (t 10, req 7), B 20 B (t 11, req 8), C 30 B
 * (t 12, req 9), completed C (t 20), A (t 21), B (t 22).
 * Rank 1: IrecvRequest q1 (t 1), q2 (t 2), a blocking Recv 30 B (t 35)
 * issued behind them, Irecv q2 20 B (t 40), Irecv q1 10 B (t 41).
 * Issue order on both sides: A-q1 10 B 31 ns, B-q2 20 B 29 ns, C-Recv
 * 30 B 23 ns, no warnings.  Completion order would give other pairs, byte
 * counts that disagree, and send_longer_than_receive warnings. */
void scenario_out_of_order(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    uint64_t r0 = tw_rank_location(tw, 0), r1 = tw_rank_location(tw, 1);
    tw_irecv_request(tw, r1, 1, 1);
    tw_irecv_request(tw, r1, 2, 2);
    tw_isend(tw, r0, 10, 1, TW_COMM_WORLD, 5, 10, 7);
    tw_isend(tw, r0, 11, 1, TW_COMM_WORLD, 5, 20, 8);
    tw_isend(tw, r0, 12, 1, TW_COMM_WORLD, 5, 30, 9);
    tw_isend_complete(tw, r0, 20, 9);
    tw_isend_complete(tw, r0, 21, 7);
    tw_isend_complete(tw, r0, 22, 8);
    tw_recv(tw, r1, 35, 0, TW_COMM_WORLD, 5, 30);
    tw_irecv(tw, r1, 40, 0, TW_COMM_WORLD, 5, 20, 2);
    tw_irecv(tw, r1, 41, 0, TW_COMM_WORLD, 5, 10, 1);
    tw_close(tw);
}

/* Rank 0: Isend X 50 B (t 10, req 1), Isend Y 60 B (t 11, req 2),
 * X cancelled (t 12), Y completed (t 13), a cancel of request 99 that
 * matches nothing (t 14).
 * Rank 1: IrecvRequest r5 (t 5), r6 (t 6), r5 cancelled (t 20), Irecv r6
 * 60 B (t 21).
 * One message, Y -> r6, 60 B, 10 ns; one unmatched_cancel; nothing else.
 * Ignoring the cancels leaves X pending (isend_not_completed, then a
 * missing receive) and r5 first in line for Y. */
void scenario_cancelled(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    uint64_t r0 = tw_rank_location(tw, 0), r1 = tw_rank_location(tw, 1);
    tw_irecv_request(tw, r1, 5, 5);
    tw_irecv_request(tw, r1, 6, 6);
    tw_isend(tw, r0, 10, 1, TW_COMM_WORLD, 3, 50, 1);
    tw_isend(tw, r0, 11, 1, TW_COMM_WORLD, 3, 60, 2);
    tw_cancelled(tw, r0, 12, 1);
    tw_isend_complete(tw, r0, 13, 2);
    tw_cancelled(tw, r0, 14, 99);
    tw_cancelled(tw, r1, 20, 5);
    tw_irecv(tw, r1, 21, 0, TW_COMM_WORLD, 3, 60, 6);
    tw_close(tw);
}

/* Wildcard receives: rank 2 posts two IrecvRequests (t 1, 2) before it
 * knows who will send; rank 0 sends 8 B tag 9 (t 10), rank 1 sends 16 B
 * tag 4 (t 11); the first request completes with rank 1's message (t 20),
 * the second with rank 0's (t 21).  A blocking Recv whose source was a
 * wildcard records the actual source: rank 0 sends 4 B tag 2 (t 30),
 * rank 2 receives it (t 35).
 * Messages: 1->2 16 B 9 ns, 0->2 8 B 11 ns, 0->2 4 B 5 ns. */
void scenario_wildcard(const char *dir)
{
    struct tw *tw = tw_create(dir, 3);
    uint64_t r0 = tw_rank_location(tw, 0), r1 = tw_rank_location(tw, 1);
    uint64_t r2 = tw_rank_location(tw, 2);
    tw_irecv_request(tw, r2, 1, 100);
    tw_irecv_request(tw, r2, 2, 101);
    tw_send(tw, r0, 10, 2, TW_COMM_WORLD, 9, 8);
    tw_send(tw, r1, 11, 2, TW_COMM_WORLD, 4, 16);
    tw_irecv(tw, r2, 20, 1, TW_COMM_WORLD, 4, 16, 100);
    tw_irecv(tw, r2, 21, 0, TW_COMM_WORLD, 9, 8, 101);
    tw_send(tw, r0, 30, 2, TW_COMM_WORLD, 2, 4);
    tw_recv(tw, r2, 35, 0, TW_COMM_WORLD, 2, 4);
    tw_close(tw);
}

/* Request records that do not fit, on rank 0 unless said otherwise:
 *   IsendComplete of request 42, never started       unknown_request
 *   Irecv of request 43, never requested, carrying a
 *     receive of 8 B from rank 1 tag 6 (t 30), which
 *     rank 1 sent (t 25): still matched, 5 ns           unknown_request
 *   Isend request 5 (t 40, 16 B to rank 1 tag 7), then
 *     Isend request 5 again (t 41, 32 B) before the
 *     first completes: the first counts as sent          request_reused
 *   the second request 5 completes (t 42); rank 1
 *     receives 16 B (t 50) and 32 B (t 51): matched
 *   Isend request 6 (t 60, 64 B to rank 1 tag 8),
 *     never completed: counted as sent, rank 1
 *     receives it (t 70): matched, 10 ns                 isend_not_completed
 *   rank 1: IrecvRequest 9 (t 80), never completed       irecv_not_completed
 *   Send on communicator 77, never defined (t 90)        unmapped_rank
 * Four messages matched, no missing receive. */
void scenario_request_errors(const char *dir)
{
    struct tw *tw = tw_create(dir, 2);
    uint64_t r0 = tw_rank_location(tw, 0), r1 = tw_rank_location(tw, 1);
    tw_isend_complete(tw, r0, 20, 42);
    tw_send(tw, r1, 25, 0, TW_COMM_WORLD, 6, 8);
    tw_irecv(tw, r0, 30, 1, TW_COMM_WORLD, 6, 8, 43);
    tw_isend(tw, r0, 40, 1, TW_COMM_WORLD, 7, 16, 5);
    tw_isend(tw, r0, 41, 1, TW_COMM_WORLD, 7, 32, 5);
    tw_isend_complete(tw, r0, 42, 5);
    tw_recv(tw, r1, 50, 0, TW_COMM_WORLD, 7, 16);
    tw_recv(tw, r1, 51, 0, TW_COMM_WORLD, 7, 32);
    tw_isend(tw, r0, 60, 1, TW_COMM_WORLD, 8, 64, 6);
    tw_recv(tw, r1, 70, 0, TW_COMM_WORLD, 8, 64);
    tw_irecv_request(tw, r1, 80, 9);
    tw_send(tw, r0, 90, 1, 77, 0, 1);
    tw_close(tw);
}
