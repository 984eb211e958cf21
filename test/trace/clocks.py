"""Clocks across nodes, end to end (docs/trace.md#clocks-across-nodes): a
4-rank program in trace mode, plain and with HOOKTRACE_CLOCK_SKEW_TEST
making ranks 1 and 3 run on simulated node clocks (rank 1: 50 ms behind,
200 ppm fast; rank 3: 30 ms ahead, 100 ppm slow).  Both archives carry
ClockOffsets; hooktrace-analyze finds the same messages, bytes and peers
in both, every duration positive (in the plain run without any repair of
the message order), the program's output and exit status are those of
an untraced run, and the offsets it reports match the planted ones.

Ranks 0 and 2 share rank 0's clock (one node): their offsets are 0
exactly.  Tolerance of the simulated clocks' offsets: 1 ms.  A measured
offset is off by at most half the fastest of 32 round trips (ranks 1 and 3
are each measured by rank 0 directly), plus the planted drift between the
skew's origin and the measurement (200 ppm of the few tens of
milliseconds the start takes on a loaded machine: about 10 us); a round
trip between processes of one machine is microseconds, and the bounds of
32 rounds stay far below a millisecond even on a loaded machine (a few
to 16 us measured, BENCHMARKS.md).  The drift between the two
measurements is not checked: over a run of milliseconds an error of a
microsecond is hundreds of ppm."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "integration"))
sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "mpi"))
from htlib import check, check_eq, finish, memcheck  # noqa: E402
from mpilib import check_status, expect_same_stdout, mpi_program, mpirun, \
    require_launcher  # noqa: E402

require_launcher()
ANALYZE = os.path.join(os.environ.get("HT_TOP_BUILDDIR", "."), "hooktrace-analyze")
SKEW = "1:-50000000:200,3:30000000:-100"
# What a rank's ClockOffset adds to its clock: minus the planted shift.
PLANTED = {0: 0.0, 1: 0.05, 2: 0.0, 3: -0.03}
TOLERANCE_S = 1e-3


def analyse(run, name, what):
    report = os.path.join(run.directory, "analysis.json")
    proc = subprocess.run(memcheck([ANALYZE, "-q", "--json", report,
                                    os.path.join(run.directory, name + "_trace")]),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=120)
    if not check_eq(proc.returncode, 0, "%s: hooktrace-analyze exit status (%s)"
                    % (what, proc.stderr)):
        return None
    with open(report) as f:
        return json.load(f)


for name in ("p2p", "requests"):
    untraced = mpirun(mpi_program(name), 4)
    check_status(untraced, 0, "%s untraced" % name)
    docs = {}
    for label, env in (("plain", {}), ("skewed", {"HOOKTRACE_CLOCK_SKEW_TEST": SKEW})):
        what = "%s %s" % (name, label)
        r = mpirun(mpi_program(name), 4, config={"trace": {"enabled": True}}, env=env)
        check_status(r, 0, what)
        expect_same_stdout(r, untraced, what)
        check("HOOKTRACE_CLOCK_SKEW_TEST" not in r.stderr, "%s: no complaint about the "
              "variable: %r" % (what, r.stderr))
        doc = analyse(r, name, what)
        if doc is None:
            continue
        docs[label] = doc
        s, w = doc["summary"], doc["warnings"]
        check_eq(doc["comm_matrix"], r.summary().doc["comm_matrix"],
                 "%s: analyzer comm_matrix = profile comm_matrix" % what)
        # After the offsets and the repair of what they leave: every
        # duration positive.  Ranks that share rank 0's clock get offset 0
        # exactly, so the plain run needs no repair at all.
        check(s["messages"] > 0 and s["duration_min_s"] > 0,
              "%s: every duration positive (min %r)" % (what, s["duration_min_s"]))
        if label == "plain":
            check_eq((w["nonpositive_duration"], s["order_violations"]), (0, 0),
                     "%s: no non-positive duration, no order violation" % what)
        else:
            print("%s: %d order violations repaired, %r s at most"
                  % (what, s["order_violations"], s["order_moved_max_s"]))
        offsets = doc["clock_offsets"]
        check_eq([o["rank"] for o in offsets], [0, 1, 2, 3], "%s: an offset per rank" % what)
        skewed = (1, 3) if label == "skewed" else ()
        for o in offsets:
            if o["rank"] not in skewed:
                check_eq((o["offset_s"], o["drift_ppm"]), (0.0, 0.0),
                         "%s: rank %d on rank 0's clock" % (what, o["rank"]))
                continue
            error = abs(o["offset_s"] - PLANTED[o["rank"]])
            check(error < TOLERANCE_S, "%s: rank %d offset %r s, planted %r s"
                  % (what, o["rank"], o["offset_s"], PLANTED[o["rank"]]))
            check(o["drift_ppm"] is not None, "%s: rank %d drift measured" % (what, o["rank"]))
    if len(docs) == 2:
        plain, skewed = docs["plain"]["summary"], docs["skewed"]["summary"]
        check_eq((skewed["messages"], skewed["bytes"]), (plain["messages"], plain["bytes"]),
                 "%s: the same messages and bytes, skewed or not" % name)
        check_eq(docs["skewed"]["comm_matrix"], docs["plain"]["comm_matrix"],
                 "%s: the same peers, skewed or not" % name)

# A malformed value: one line on stderr naming the variable, then ignored.
r = mpirun(mpi_program("p2p"), 4, config={"trace": {"enabled": True}},
           env={"HOOKTRACE_CLOCK_SKEW_TEST": "1:-5x"})
check_status(r, 0, "malformed skew")
lines = [l for l in r.stderr.splitlines() if "HOOKTRACE_CLOCK_SKEW_TEST" in l]
check_eq(len(lines), 1, "malformed skew: one line on stderr (%r)" % r.stderr)
doc = analyse(r, "p2p", "malformed skew")
if doc is not None:
    check_eq([o["offset_s"] for o in doc["clock_offsets"]], [0.0] * 4,
             "malformed skew: ignored")

finish()
