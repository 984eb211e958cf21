#!/usr/bin/env python3
"""Cost of counters per instrumented call: the hook-cost kernel
(bench/hook_kernel.c, 3 instrumented calls per iteration) linked with three
software-defined PAPI events (bench/counters_sde.c), run with throttling off
and 0, 1 and 3 SDE events in "counters", and with perf events (one, and
two in one event set: perf::TASK-CLOCK, perf::PAGE-FAULTS), which PAPI
reads with a system call, interleaved, for several rounds.  Prints a
markdown table of the median (min, max) nanoseconds per call, and the added
cost per call (one hook pair) against no counters.  The perf variants run
--perf-calls calls (they cost some 100 times more each) and are listed as
unavailable where the machine has no perf events.

Usage (from the build directory; `make bench-counters` does this):
    python3 bench/counters_cost.py [--builddir DIR] [--rounds 5] [--calls 3000000]
                                   [--perf-calls 300000]
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import cpu_model, loadavg  # noqa: E402

EVENTS = ["sde:::COUNTERS_BENCH::a", "sde:::COUNTERS_BENCH::b", "sde:::COUNTERS_BENCH::c"]
PERF = ["perf::TASK-CLOCK", "perf::PAGE-FAULTS"]
VARIANTS = [("no counters", []), ("1 SDE event", EVENTS[:1]), ("3 SDE events", EVENTS),
            ("perf::TASK-CLOCK", PERF[:1]), ("2 perf events", PERF)]


class Unavailable(Exception):
    pass


def run_once(exe, calls, events, scratch):
    cwd = tempfile.mkdtemp(prefix="run-", dir=scratch)
    config = os.path.join(scratch, "config-%d.json" % len(events))
    with open(config, "w") as f:
        json.dump({"throttle": {"enabled": False}, "counters": events}, f)
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKTRACE_")}
    env["HOOKTRACE_CONFIG"] = config
    try:
        proc = subprocess.run([exe, "-a", "-n", str(calls), "-t", "1", "-p", "mixed"], cwd=cwd,
                              env=env, capture_output=True, text=True, timeout=600)
        if proc.returncode == 0 and "hooktrace: counter" in proc.stderr and events[0] in PERF:
            raise Unavailable(proc.stderr.strip())
        if proc.returncode != 0 or "hooktrace: counter" in proc.stderr:
            sys.exit("counters_cost: %s failed:\n%s%s" % (exe, proc.stdout, proc.stderr))
        m = re.search(r"ns_per_call=([0-9.]+)", proc.stdout)
        if not m:
            sys.exit("counters_cost: no ns_per_call in:\n%s" % proc.stdout)
        return float(m.group(1))
    finally:
        shutil.rmtree(cwd, ignore_errors=True)


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
    print("# Counters: cost per instrumented call")
    print()
    print("- machine: %s, %d online CPUs; load average before: %s"
          % (cpu_model(), os.cpu_count() or 0, loadavg()))
    print("- command: python3 bench/counters_cost.py %s" % " ".join(sys.argv[1:]))
    print("- kernel: pattern mixed, 1 thread, %d calls per run (%d with perf events), %d rounds,"
          " throttling off" % (args.calls // 3 * 3, args.perf_calls // 3 * 3, args.rounds))
    print(flush=True)
    results = {label: [] for label, _ in VARIANTS}
    unavailable = {}
    scratch = tempfile.mkdtemp(prefix="hooktrace-counters-bench-")
    try:
        for r in range(args.rounds):
            order = VARIANTS[r % len(VARIANTS):] + VARIANTS[:r % len(VARIANTS)]
            for label, events in order:
                if label in unavailable:
                    continue
                calls = args.perf_calls if events and events[0] in PERF else args.calls
                try:
                    results[label].append(run_once(exe, calls, events, scratch))
                except Unavailable as e:
                    unavailable[label] = str(e)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    base = statistics.median(results["no counters"])
    print("| variant | ns per call, median (min, max) | added per call (one hook pair) |")
    print("|---|---|---|")
    for label, _ in VARIANTS:
        v = results[label]
        if label in unavailable:
            print("| %s | unavailable: %s | - |" % (label, unavailable[label].replace("\n", " ")))
            continue
        med = statistics.median(v)
        print("| %s | %.1f (%.1f, %.1f) | %s |" % (label, med, min(v), max(v),
                                                  "-" if label == "no counters"
                                                  else "+%.1f ns" % (med - base)))


if __name__ == "__main__":
    main()
