"""A long trace with few messages in flight at any time (an 8-rank ring,
200000 messages, about a million events): exact totals, and the number of
sends and receives held at once stays a few per rank however long the trace
is, which is what keeps memory bounded.  Then a new tag per message
(160000 tags): the matcher keeps emptied queues for the next message of
their key and drops them in bulk once they outnumber the others (match.c);
the totals, the unmatched ends and the matrix stay exact through those
sweeps.  Figures: scenario_ring and scenario_tags in
test/analyze/scenarios_matching.c."""

from analyzelib import analyze, check, check_eq, check_warnings, finish, ns, write

ROUNDS, RANKS = 25000, 8
a = analyze(write("ring"))
s = a.summary
check_eq(a.doc["trace"]["events"], RANKS * (ROUNDS * 5 + ROUNDS // 5), "events")
check_eq(a.doc["trace"]["records"], {
    "MpiSend": 0, "MpiIsend": RANKS * ROUNDS, "MpiIsendComplete": RANKS * ROUNDS,
    "MpiRecv": RANKS * ROUNDS * 4 // 5, "MpiIrecvRequest": RANKS * ROUNDS // 5,
    "MpiIrecv": RANKS * ROUNDS // 5, "MpiRequestCancelled": 0}, "records")
check_eq((s["messages"], s["bytes"]), (RANKS * ROUNDS, ROUNDS * (RANKS * 1000 + 28)), "totals")
check_eq(a.matrix(), sorted((r, (r + 1) % RANKS, ROUNDS, ROUNDS * (1000 + r))
                            for r in range(RANKS)), "matrix")
check_eq((ns(s["duration_min_s"]), ns(s["duration_max_s"])), (30, 30), "every message 30 ns")
check_eq(len(a.rows), RANKS * ROUNDS, "one CSV row per message")
check(s["peak_in_flight"] <= 4 * RANKS,
      "peak in flight %r: at most 4 per rank, not growing with the trace" % s["peak_in_flight"])
check_warnings(a, {}, "ring")

RANKS, ROUNDS, LAG = 8, 20000, 3
a = analyze(write("tags"))
s = a.summary
check_eq((s["messages"], s["bytes"]), (RANKS * (ROUNDS - LAG), (ROUNDS - LAG) * sum(range(10, 18))),
         "tags: matched totals")
check_eq((s["unmatched_sends"], s["unmatched_send_bytes"]), (RANKS * LAG, LAG * sum(range(10, 18))),
         "tags: the last rounds' sends, never received")
check_eq((s["unmatched_receives"], s["unmatched_receive_bytes"]), (1, 5),
         "tags: the receive nobody sent")
check_eq(a.matrix(), sorted((r, (r + 1) % RANKS, ROUNDS - LAG, (ROUNDS - LAG) * (10 + r))
                            for r in range(RANKS)), "tags: matrix")
check_eq((ns(s["duration_min_s"]), ns(s["duration_max_s"])), (320, 320), "tags: every message 320 ns")
check_eq(len(a.rows), RANKS * ROUNDS + 1, "tags: one CSV row per message and unmatched end")
check(s["peak_in_flight"] <= (LAG + 1) * RANKS + 1,
      "tags: peak in flight %r: the %d waiting per pair" % (s["peak_in_flight"], LAG))
check_warnings(a, {"missing_receive": RANKS * LAG, "receive_without_send": 1}, "tags")

finish()
