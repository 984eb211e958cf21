"""Counted copies inside a throttled copy (src/hooks/hooks.c
hooktrace_inlined_calls_in, docs/plugin.md "Inlined copies"):
test/plugin/throttled_scope.cpp's scan() has a loop, so its copy inlined
into sweep() keeps its hooks; half_add(), straight-line, is counted inside
it and handed over before scan's exit hook, naming scan's copy as its
scope.

With throttling forced (a threshold of one second a call, min_calls 100),
scan is throttled at its 101st call; half_add's calls count with it up to
then, N per call, and stop with it: none land on sweep, the caller, as they
did while hand-overs named no scope.  With throttling off every call counts.
Either way the program prints what the build without hooks prints."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from htlib import BUILDDIR, check, check_eq, finish, run  # noqa: E402

N, REPS, MIN_CALLS = 8, 5000, 100
PROGRAM = os.path.join(BUILDDIR, "test", "plugin", "throttled_scope")
SWEEP = "main;sweep(double const*, int, int)"
SCAN = SWEEP + ";scan(double const*, int)"
HALF = SCAN + ";half_add(double, double)"
expected_output = None  # the first run's, which every other must equal

for what, config, scan_calls in (
        ("throttling off", {"throttle": {"enabled": False}}, REPS),
        ("throttling forced", {"throttle": {"min_calls": MIN_CALLS, "max_ns_per_call": 1000000000}},
         MIN_CALLS + 1)):
    r = run(PROGRAM, args=[str(N), str(REPS)], config=config)
    check_eq(r.returncode, 0, what + ": exit status")
    if expected_output is None:
        expected_output = r.stdout
        check(r.stdout.startswith("throttled_scope: "), what + ": the program's line: %r" % r.stdout)
    check_eq(r.stdout, expected_output, what + ": the same output")
    p = r.profile()
    check_eq(p.calls(SCAN), scan_calls, what + ": scan's calls (its copy keeps its hooks)")
    check_eq(p.calls(HALF), scan_calls * N, what + ": half_add counted under scan, N per recorded call")
    check_eq(p.stack(HALF).get("inlined"), True, what + ": half_add is a counted stack")
    others = sorted(path for path in p.paths() if path.endswith(";half_add(double, double)") and path != HALF)
    check_eq(others, [], what + ": half_add counted nowhere else (not on sweep after scan's throttling)")
    check_eq(p.doc["overhead"]["inlined_calls"], scan_calls * N, what + ": calls counted in all")
    check_eq(bool(p.stack(SCAN).get("throttled")), scan_calls != REPS, what + ": scan throttled or not")

plain = subprocess.run([PROGRAM, str(N), str(REPS)], stdout=subprocess.PIPE, text=True,
                       env=dict(os.environ, HOOKTRACE_OFF="1"))
check_eq(plain.stdout, expected_output, "HOOKTRACE_OFF: the same output")
finish()
