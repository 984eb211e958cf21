#!/usr/bin/env python3
"""Cost of counters per instrumented call: the hook-cost kernel
(bench/hook_kernel.c, 3 instrumented calls per iteration) linked with three
software-defined PAPI events (bench/counters_sde.c), run with throttling off
and 0, 1 and 3 SDE events in "counters", and with perf events (one, and
two in one event set: perf::TASK-CLOCK, perf::PAGE-FAULTS), which PAPI
reads with a system call, alternated, for several rounds.  Prints a
markdown table of the median nanoseconds per call, and the cost each
variant adds per call (one hook pair) to no counters in the same round.
The perf variants run --perf-calls calls (they cost some 100 times more
each) and are listed as unavailable where the machine has no perf events.

Usage (from the build directory; `make bench-counters` does this):
    python3 bench/counters_cost.py [--builddir DIR] [--rounds 5] [--calls 3000000]
                                   [--perf-calls 300000]
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

EVENTS = ["sde:::COUNTERS_BENCH::a", "sde:::COUNTERS_BENCH::b", "sde:::COUNTERS_BENCH::c"]
PERF = ["perf::TASK-CLOCK", "perf::PAGE-FAULTS"]
VARIANTS = {"no counters": [], "1 SDE event": EVENTS[:1], "3 SDE events": EVENTS,
            "perf::TASK-CLOCK": PERF[:1], "2 perf events": PERF}
BASE = "no counters"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builddir", default=os.environ.get("HT_TOP_BUILDDIR", "."))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=3000000)
    ap.add_argument("--perf-calls", type=int, default=300000)
    args = ap.parse_args()
    exe = os.path.join(os.path.abspath(args.builddir), "bench", "hook_kernel_counters")
    if not os.access(exe, os.X_OK):
        sys.exit("counters_cost: %s not built: run `make bench-counters`" % exe)
    benchlib.header("Counters: cost per instrumented call", "bench/counters_cost.py", [
        "kernel: pattern mixed, 1 thread, %d calls per run (%d with perf events), %d rounds, "
        "throttling off" % (args.calls // 3 * 3, args.perf_calls // 3 * 3, args.rounds)])

    scratch = tempfile.mkdtemp(prefix="hooktrace-counters-bench-")

    def run_one(label):
        events = VARIANTS[label]
        perf = bool(events) and events[0] in PERF
        calls = args.perf_calls if perf else args.calls
        r = benchlib.run([exe, "-a", "-n", str(calls), "-t", "1", "-p", "mixed"],
                         {"throttle": {"enabled": False}, "counters": events}, None, scratch,
                         tool="counters_cost")
        if "hooktrace: counter" in r.stderr:
            # A machine without perf events: said once, and not run again.
            if perf:
                return benchlib.Run(r.cmd, error="unavailable: " + r.stderr.strip())
            sys.exit("counters_cost: %s failed:\n%s%s" % (exe, r.stdout, r.stderr))
        m = re.search(r"ns_per_call=([0-9.]+)", r.stdout)
        if not m:
            sys.exit("counters_cost: no ns_per_call in:\n%s" % r.stdout)
        return {"ns": float(m.group(1))}

    try:
        results = benchlib.alternate(list(VARIANTS), args.rounds, run_one, "counters_cost",
                                     give_up=lambda r: getattr(r, "error", None) is not None)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("Added per call: variant − no counters of the same round (one hook pair).")
    print()
    benchlib.ratio_table(list(VARIANTS), results, BASE,
                         [benchlib.Measure("ns", "ns per call", "difference", digits=1,
                                           ratio_digits=1)])


if __name__ == "__main__":
    main()
