"""Clocks across nodes (docs/analyze.md#clocks): an archive whose ranks'
clocks are shifted and drifting, with the ClockOffsets Score-P would
write, gives the same messages, durations and matrix as the same run on
one clock; clock_offsets holds the planted offsets and drifts; a single
ClockOffset is applied as a constant; violations of message order left
after the offsets are repaired, counted and measured exactly.  Figures:
test/analyze/scenarios_clocks.c."""

from analyzelib import analyze, check, check_eq, check_in, check_warnings, finish, ns, run, \
    write


def close(x, y, what):
    """Equal within float rounding (never at a printed digit)."""
    return check(x is not None and abs(x - y) <= 1e-9 * max(1.0, abs(y)),
                 "%s: %r, expected %r" % (what, x, y))


ref = analyze(write("clock_reference"))
skew = analyze(write("clock_skewed"))
check_eq((ref.summary["messages"], ref.summary["bytes"]), (30, 10 * (100 + 1000 + 8) + 45),
         "reference: totals")
check_eq(skew.matrix(), ref.matrix(), "skewed: matrix equals the reference's")
check_eq((skew.summary["messages"], skew.summary["bytes"]),
         (ref.summary["messages"], ref.summary["bytes"]), "skewed: totals equal the reference's")
check_warnings(ref, {}, "reference")
check_warnings(skew, {}, "skewed")
check_eq(skew.summary["order_violations"], 0, "skewed: no order violation left")


def durations(a):
    """(sender, receiver, tag, bytes, duration in ns) per matched message,
    in the order of the CSV's send times."""
    return [(m[0], m[1], m[3], m[4], round(float(m[8]) * 1e9)) for m in a.messages()]


dr, ds = durations(ref), durations(skew)
check_eq([d[:4] for d in ds], [d[:4] for d in dr], "skewed: the same messages, in the same order")
check(len(dr) == 30 and all(abs(x[4] - y[4]) <= 1 for x, y in zip(dr, ds)),
      "skewed: every duration within 1 tick of the reference's: %r vs %r" % (ds, dr))
check(all(d[4] > 0 for d in dr), "reference: every duration positive")
check_eq(ref.doc["clock_offsets"], [], "reference: no clock offsets")
offsets = skew.doc["clock_offsets"]
check_eq([o["rank"] for o in offsets], [0, 1, 2], "skewed: clock_offsets ranks")
if len(offsets) == 3:
    for o, (offset, drift) in zip(offsets, [(0.0, 0.0), (0.05, -200.0), (-0.03, 100.0)]):
        close(o["offset_s"], offset, "rank %d offset_s" % o["rank"])
        close(o["drift_ppm"], drift, "rank %d drift_ppm" % o["rank"])

# One ClockOffset per location: a constant, which OTF2 leaves to the reader.
a = analyze(write("clock_single_offset"))
check_eq([m[8] for m in a.messages()], ["0.000000500"], "single offset: duration")
check_eq([(o["rank"], o["drift_ppm"]) for o in a.doc["clock_offsets"]], [(0, None), (1, None)],
         "single offset: drift unknown")
close(a.doc["clock_offsets"][1]["offset_s"] if len(a.doc["clock_offsets"]) > 1 else None, 0.002,
      "single offset: rank 1 offset_s")
check_warnings(a, {}, "single offset")

# Violations of message order left to repair.
a = analyze(write("order_violations"))
s = a.summary
check_eq((s["messages"], s["bytes"]), (4, 100), "order: totals")
check_eq(s["order_violations"], 2, "order: violations repaired")
check_eq((ns(s["order_moved_s"]), ns(s["order_moved_max_s"])), (153, 101),
         "order: moved in all and at most (ns)")
check_eq((ns(s["duration_min_s"]), ns(s["duration_max_s"])), (1, 151), "order: min and max")
check_eq(s["timed_messages"], 4, "order: every message has a positive duration")
check_eq(ns(s["duration_mean_s"] * 4), 1 + 151 + 1 + 49, "order: durations sum")
check_eq(a.doc["comm_matrix_timing"][0]["timed_messages"], 3, "order: 0 -> 1 timed")
check_warnings(a, {"nonpositive_duration": 2}, "order")
text = run([write("order_violations", "order_text")]).stdout
check_in("order violations         2 repaired (receives moved 0.000000153 s in all, at most "
         "0.000000101 s)", text, "order: text report line")

finish()
