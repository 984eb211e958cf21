"""Matching (seed 004) and its warnings: missing receives, receives without
a send, durations <= 0, sends longer than their receive; how warnings are
condensed (--examples).  Expected figures: test/analyze/scenarios_matching.c."""

from analyzelib import (analyze, check, check_eq, check_in, check_warnings, finish, ns, run,
                        write)

archive = write("missing_receive")
a = analyze(archive)
check_eq([r["status"] for r in a.rows],
         ["matched", "matched", "missing_receive", "receive_without_send"],
         "missing_receive: CSV statuses")
check_eq(a.rows[2] if len(a.rows) > 2 else None, {
    "sender": "0", "receiver": "1", "communicator": "0", "tag": "1", "send_bytes": "10",
    "receive_bytes": "", "send_time_s": "0.000000030", "receive_time_s": "", "duration_s": "",
    "status": "missing_receive"}, "missing_receive: the unmatched send")
check_eq(a.rows[3] if len(a.rows) > 3 else None, {
    "sender": "0", "receiver": "1", "communicator": "0", "tag": "2", "send_bytes": "",
    "receive_bytes": "12", "send_time_s": "", "receive_time_s": "0.000000040", "duration_s": "",
    "status": "receive_without_send"}, "missing_receive: the unmatched receive")
s = a.summary
check_eq((s["messages"], s["bytes"], s["unmatched_sends"], s["unmatched_send_bytes"],
          s["unmatched_receives"], s["unmatched_receive_bytes"]), (2, 20, 1, 10, 1, 12),
         "missing_receive: summary")
check_eq(a.matrix(), [(0, 1, 2, 20)], "missing_receive: matrix (matched only)")
check_eq(a.doc["trace"]["events"], 10, "missing_receive: events, Enter/Leave included")
check_warnings(a, {"missing_receive": 1, "receive_without_send": 1}, "missing_receive")

# The text report lists each kind with its count and examples.
text = run([archive]).stdout
check_in("missing_receive", text, "text report: warning kind")
check_in("rank 0 -> rank 1, communicator 0, tag 1: 10 bytes sent at 0.000000030 s", text,
         "text report: missing receive example")

a = analyze(write("negative_duration"))
s = a.summary
check_eq((s["messages"], s["bytes"]), (3, 84), "negative_duration: totals")
# Durations once the order is repaired (docs/analyze.md#clocks): 1, 1, 62 ns.
check_eq((ns(s["duration_min_s"]), ns(s["duration_max_s"])), (1, 62),
         "negative_duration: min and max once repaired (ns)")
check_eq((s["order_violations"], ns(s["order_moved_s"]), ns(s["order_moved_max_s"])),
         (2, 52, 51), "negative_duration: repairs")
check_eq(s["timed_messages"], 3, "negative_duration: messages with a positive duration")
check_eq(s["bandwidth_bytes_per_s"], 1.3125e9, "negative_duration: bandwidth (bytes/s)")
# The CSV shows the times as the clocks gave them (after earlier repairs).
check_eq([m[8] for m in a.messages()], ["-0.000000050", "0.000000000", "0.000000062"],
         "negative_duration: CSV durations")
timing = a.doc["comm_matrix_timing"]
check_eq([(t["timed_messages"], ns(t["duration_s"]), t["bandwidth_bytes_per_s"]) for t in timing],
         [(3, 64, 1.3125e9)], "negative_duration: matrix timing")
check_warnings(a, {"nonpositive_duration": 2, "send_longer_than_receive": 1},
               "negative_duration")

# Condensed: --examples 1 keeps one example per kind and says how many more.
archive = write("negative_duration", "negative_duration_condensed")
a = analyze(archive, ["--examples", "1"])
check_eq({k: len(v) for k, v in a.doc["warning_examples"].items() if v},
         {"nonpositive_duration": 1, "send_longer_than_receive": 1}, "--examples 1: examples")
check_eq(a.warnings["nonpositive_duration"], 2, "--examples 1: counts stay exact")
text = run(["--examples", "1", archive]).stdout
check_in("... and 1 more", text, "--examples 1: text says how many more")
a = analyze(archive, ["--examples", "0"])
check_eq(sum(len(v) for v in a.doc["warning_examples"].values()), 0, "--examples 0: no examples")
check_eq(a.summary["warnings"], 3, "--examples 0: counts stay exact")
check("... and" not in run(["-e", "0", archive]).stdout, "--examples 0: no '... and N more'")

finish()
