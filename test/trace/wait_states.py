"""Planted wait states (test/mpi/wait_states.c) found by hooktrace-analyze
in hooktrace's own trace of a real run on 4 ranks: one rank sleeps 40 ms
before its part, 5 or 3 times per phase, and the others' waits appear at
the planted pattern, rank and call path.  A sleep is never shorter than
asked, but the waiting rank may itself be descheduled on a loaded machine
and start waiting late, or (descheduled longer than the sleep) not wait at
all that time, or start waiting late (the sleep runs from the late rank's
exit from the previous instance, which the waiting rank may leave much
later): so the count is from 1 to the planted number, and the time at
least a tenth of the sleep per wait counted and at most the planted total
plus 5 s (unloaded, the times are the planted ones: 0.2098 s for 5 x 40 ms
of late sender at load 11).  (The synthetic archives of test/analyze/waits.py check exact
counts and ticks.)  The program's output is the same as without hooktrace.  The same
again with the clock-skew test aid on (HOOKTRACE_CLOCK_SKEW_TEST)."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "integration"))
sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "mpi"))
from htlib import check, check_eq, finish, memcheck  # noqa: E402
from mpilib import (check_status, expect_same_stdout, mpi_program, mpirun,  # noqa: E402
                    require_launcher)

require_launcher()
ANALYZE = os.path.join(os.environ.get("HT_TOP_BUILDDIR", "."), "hooktrace-analyze")
PLANTED_S = 0.040

reference = mpirun(mpi_program("wait_states_plain"), 4)
check_status(reference, 0, "wait_states_plain")


def analyze_run(label, env):
    """Runs wait_states.c traced (env: extra environment); returns its wait
    states {(pattern, rank, callpath): (count, time_s)}."""
    r = mpirun(mpi_program("wait_states"), 4, config={"trace": {"enabled": True}}, env=env)
    check_status(r, 0, label + ": wait_states traced")
    expect_same_stdout(r, reference, label + ": wait_states with hooktrace")
    report = os.path.join(r.directory, "analysis.json")
    proc = subprocess.run(memcheck([ANALYZE, "-q", "--json", report,
                                    os.path.join(r.directory, "wait_states_trace")]),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=300)
    check_eq((proc.returncode, proc.stderr), (0, ""),
             label + ": hooktrace-analyze: exit status and stderr")
    waits = {}
    if proc.returncode == 0:
        with open(report) as f:
            doc = json.load(f)
        check("wait_states" in doc, label + ": the JSON has wait_states")
        for w in doc.get("wait_states", []):
            waits[(w["pattern"], w["rank"], tuple(w["callpath"]))] = (w["count"], w["time_s"])
    return waits


def expect(label, waits, pattern, rank, function, routine, count):
    path = ("main", function, routine)
    got = waits.get((pattern, rank, path))
    what = "%s: %s at rank %d, %s" % (label, pattern, rank, " > ".join(path))
    if not check(got is not None, "%s: found (wait states: %r)" % (what, sorted(waits))):
        return
    # A waiting rank descheduled for longer than the planted sleep (4 ranks
    # on 2 loaded CPUs) enters after the late one and waits nothing that
    # time; and the sleep starts when the late rank left the previous
    # instance, which the waiting rank may leave much later (early reduce:
    # the root completes last): a counted wait is at least a tenth of it.
    check(1 <= got[0] <= count, "%s: count %d, planted %d" % (what, got[0], count))
    planted = count * PLANTED_S
    low = 0.1 * got[0] * PLANTED_S
    check(low <= got[1] <= planted + 5.0,
          "%s: %.6f s in %d waits, planted %.3f s (accepted %.3f to %.3f)"
          % (what, got[1], got[0], planted, low, planted + 5.0))


# Plain, and with ranks 1 and 3 on clocks of other nodes (50 ms behind and
# 200 ppm fast, 30 ms ahead and 100 ppm slow; docs/trace.md): the clock
# synchronisation must give the same wait states (uncorrected, 50 ms of
# skew would turn 40 ms waits into none or into 90 ms ones).
for label, env in (("plain", {}),
                   ("skewed", {"HOOKTRACE_CLOCK_SKEW_TEST": "1:-50000000:200,3:30000000:-100"})):
    waits = analyze_run(label, env)
    expect(label, waits, "late_sender", 0, "recv_phase", "MPI_Recv", 5)
    expect(label, waits, "late_receiver", 0, "ssend_phase", "MPI_Ssend", 3)
    for rank in (0, 1, 3):
        expect(label, waits, "wait_at_barrier", rank, "barrier_phase", "MPI_Barrier", 3)
    for rank in (0, 1, 2):
        expect(label, waits, "wait_at_nxn", rank, "allreduce_phase", "MPI_Allreduce", 3)
    for rank in (1, 2, 3):
        expect(label, waits, "late_broadcast", rank, "bcast_phase", "MPI_Bcast", 3)
    expect(label, waits, "early_reduce", 0, "reduce_phase", "MPI_Reduce", 3)
    # The sender of the late-sender phase never waits for its receiver there.
    check(("late_receiver", 1, ("main", "send_phase", "MPI_Send")) not in waits,
          label + ": no late receiver at the late sender")

finish()
