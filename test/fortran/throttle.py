"""Throttling's estimate of the hook calls it saved, on a Fortran program in
the shape of a NAS-style solver (test/fortran/throttle.F90, 4 ranks,
min_calls 100,000 in the config, so that the throttling comes in the 6th
sweep, docs/throttle.md): every rank calls sweep 10
times and each sweep calls 4 tiny subroutines 20,000 times.  Each is
throttled at exactly its 100,001st call, on the first iteration of the 6th
sweep, and then makes 99,999 calls hooktrace no longer sees.

Before, the estimate took each function's call rate over the time all four
(and their hooks) ran, then gave each a quarter of the caller's time: it
said 2 to 7 percent of the true figure (and 0 on a NAS-style LU).  Now,
where the caller is entered again and again, it counts: the calls per
sweep before the throttling times the sweeps after.  Whatever the times,
that stays between 100,001 * 4 / 6 and 100,001 * 5 / 5 calls per function
and rank (docs/throttle.md), so the figure is checked against that band,
which holds the true 99,999, in the summary and in each rank's file."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flib import *  # noqa: E402,F403

require_launcher()
N = 4
MIN_CALLS, SWEEPS, ITERATIONS = 100000, 10, 20000
SWEEP = "main;fthrottle;hot_kernels::sweep"
HOT = ["add_one", "scale", "shift", "clip"]
THROTTLED_AT = MIN_CALLS + 1
# The sweeps entered when a function is throttled (6), the completed ones
# then (D) and those entered after (E).
ENTERED = THROTTLED_AT // ITERATIONS + 1
D, E = ENTERED - 1, SWEEPS - ENTERED
LOW, HIGH = THROTTLED_AT * E / (D + 1), THROTTLED_AT * (E + 1) / D
TRUE = SWEEPS * ITERATIONS - THROTTLED_AT
assert LOW <= TRUE <= HIGH

reference = mpirun(fortran_program("fthrottle_plain"), N)
check_status(reference, 0, "fthrottle_plain")
r = mpirun(fortran_program("fthrottle_f90"), N,
           config={"mpi": {"rank_files": list(range(N))},
                   # 1 ms: a stall under load never keeps a tiny subroutine whole
                   "throttle": {"min_calls": MIN_CALLS, "max_ns_per_call": 1000000}})
check_status(r, 0, "fthrottle_f90")
check_eq(lines(r), lines(reference), "fthrottle_f90: every rank's line, as without hooktrace")


def check_saved(p, ranks, log, what):
    th = p.doc["throttle"]
    check_eq((th["enabled"], th["min_calls"], th["functions"]), (True, MIN_CALLS, len(HOT)),
             what + ": throttling on, the 4 tiny functions throttled")
    check_eq(p.calls(SWEEP), ranks * SWEEPS, what + ": calls of sweep")
    for name in HOT:
        s = p.stack(SWEEP + ";hot_kernels::" + name)
        check_eq((s.get("calls"), s.get("throttled")), (ranks * THROTTLED_AT, True),
                 what + ": %s throttled at its %dth call on each rank" % (name, THROTTLED_AT))
    after = th["hook_calls_after_throttling"]
    saved = th["hook_calls_saved"]
    if th["code_patching"] != "on":  # mprotect refused here: nothing rewritten
        check_eq(saved, 0, what + ": nothing rewritten, no hook call saved")
        return
    check(th["sites_patched"] > 0, what + ": hook calls rewritten: %r" % th)
    low = 2 * len(HOT) * ranks * LOW - after
    high = 2 * len(HOT) * ranks * HIGH - after
    true = 2 * len(HOT) * ranks * TRUE - after
    print("note: %s: %r hook calls saved (estimated), band [%.0f, %.0f], true %d"
          % (what, saved, low, high, true))
    check(low <= saved <= high, what + ": %r hook calls saved (estimated), in [%.0f, %.0f] "
          "(true: %d)" % (saved, low, high, true))
    check("%.3g hook calls saved (estimated)" % saved in r.text(log), what + ": the logfile's figure")


s = r.summary()
if s:
    check_saved(s, N, ".log", "summary")
for k in range(N):
    p = r.rank_profile(k)
    if p:
        check_saved(p, 1, "_%d.log" % k, "rank %d" % k)
finish()
