/* analyze_write_trace DIR RANKS ROUNDS: the benchmark archive of
 * `make bench-analyze` (BENCHMARKS.md).  RANKS processes in a ring; per
 * round every rank writes 8 events: Enter, Isend to the next rank,
 * IrecvRequest and Irecv from the previous one, IsendComplete, a blocking
 * Send to the previous rank and a Recv from the next, Leave.  That is
 * RANKS * ROUNDS * 8 events and RANKS * ROUNDS * 2 messages; every message
 * is received within its round, so few are in flight at any time. */
#include <stdio.h>
#include <stdlib.h>

#include "trace_writer.h"

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: analyze_write_trace DIR RANKS ROUNDS\n");
        return 2;
    }
    uint32_t ranks = (uint32_t)strtoul(argv[2], NULL, 10);
    uint64_t rounds = strtoull(argv[3], NULL, 10);
    if (ranks < 2 || rounds < 1) {
        fprintf(stderr, "analyze_write_trace: RANKS >= 2 and ROUNDS >= 1\n");
        return 2;
    }
    struct tw *tw = tw_create(argv[1], ranks);
    uint64_t *loc = malloc(ranks * sizeof *loc);
    for (uint32_t r = 0; r < ranks; r++)
        loc[r] = tw_rank_location(tw, r);
    /* Round by round, so that all event writers fill their buffers at the
     * same pace, as a real run does. */
    for (uint64_t k = 0; k < rounds; k++) {
        uint64_t t = 1000 + k * 1000;
        uint32_t tag = (uint32_t)(k % 16);
        for (uint32_t r = 0; r < ranks; r++) {
            uint32_t next = (r + 1) % ranks, prev = (r + ranks - 1) % ranks;
            tw_enter(tw, loc[r], t);
            tw_isend(tw, loc[r], t + 10, next, TW_COMM_WORLD, tag, 4096 + r, 2 * k);
            tw_irecv_request(tw, loc[r], t + 20, 2 * k + 1);
            tw_irecv(tw, loc[r], t + 200, prev, TW_COMM_WORLD, tag, 4096 + prev, 2 * k + 1);
            tw_isend_complete(tw, loc[r], t + 210, 2 * k);
            tw_send(tw, loc[r], t + 300, prev, TW_COMM_WORLD, 100, 64);
            tw_recv(tw, loc[r], t + 400, next, TW_COMM_WORLD, 100, 64);
            tw_leave(tw, loc[r], t + 500);
        }
    }
    tw_close(tw);
    free(loc);
    printf("%llu events, %llu messages\n", (unsigned long long)(rounds * ranks * 8),
           (unsigned long long)(rounds * ranks * 2));
    return 0;
}
