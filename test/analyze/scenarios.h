/* Synthetic OTF2 archives with known answers, one per rule the analyzer
 * implements.  Each writes "<dir>/traces.otf2"; the expected figures are
 * stated above each function and asserted by the test drivers. */
#ifndef HT_TEST_ANALYZE_SCENARIOS_H
#define HT_TEST_ANALYZE_SCENARIOS_H

#include "trace_writer.h"

/* scenarios_requests.c: non-blocking translation */
void scenario_blocking_behind_isend(const char *dir);
void scenario_out_of_order(const char *dir);
void scenario_cancelled(const char *dir);
void scenario_wildcard(const char *dir);
void scenario_request_errors(const char *dir);

/* scenarios_ranks.c: rank mapping */
void scenario_communicators(const char *dir);
void scenario_no_world_group(const char *dir);
void scenario_rank_out_of_range(const char *dir);
void scenario_idle_thread(const char *dir);
void scenario_duplicate_definition(const char *dir);

/* scenarios_matching.c: matching, timing, the whole trace */
void scenario_missing_receive(const char *dir);
void scenario_negative_duration(const char *dir);
void scenario_clock(const char *dir);
void scenario_no_clock(const char *dir);
void scenario_empty(const char *dir);
void scenario_ring(const char *dir);
void scenario_tags(const char *dir);

/* scenarios_waits.c: wait states */
void scenario_late_sender(const char *dir);
void scenario_late_receiver(const char *dir);
void scenario_collective_waits(const char *dir);
void scenario_no_wait(const char *dir);
void scenario_wait_edges(const char *dir);
/* scenarios_clocks.c: ClockOffsets and the message order */
void scenario_clock_reference(const char *dir);
void scenario_clock_skewed(const char *dir);
void scenario_clock_single_offset(const char *dir);
void scenario_order_violations(const char *dir);

#endif
