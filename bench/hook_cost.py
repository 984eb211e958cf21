#!/usr/bin/env python3
"""Hook cost per instrumented call: runs every kernel variant with 1 and 2
threads, alternated, for several rounds, and prints a markdown table per
thread count of the median nanoseconds per instrumented call and each
variant's ratio to the two-rdtsc floor of the same round (median, range).

Usage (from the build directory; `make bench` does this):
    python3 bench/hook_cost.py [--builddir DIR] [--rounds 7] [--calls 20000000]
                               [--threads 1,2] [--pattern mixed|hit|region]

Stdlib only.  "hooktrace on" runs with throttling off (a config file in the
scratch directory), "hooktrace, throttled" with HOOKTRACE_CONFIG unset, each
in a temporary working directory that is removed afterwards, so nothing is
left behind.
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import Measure, median, values  # noqa: E402

TARGET_RATIO = 1.5
SHARE_WARN = 0.95

# (row label, program, config, extra environment)
# "hooktrace on" records every call (throttling off): the cost of a
# recorded call.  "hooktrace, throttled" runs with the defaults, under which
# the kernel's functions are throttled after 100,000 calls and their hook
# calls rewritten into no-ops: the cost of a throttled call.
NO_THROTTLE = {"throttle": {"enabled": False}}
VARIANTS = [
    ("uninstrumented", "hook_kernel_plain", None, {}),
    ("empty hooks", "hook_kernel_empty", None, {}),
    ("rdtsc x2 (floor)", "hook_kernel_rdtsc", None, {}),
    ("hooktrace on", "hook_kernel_hooktrace", NO_THROTTLE, {}),
    ("hooktrace, throttled", "hook_kernel_hooktrace", None, {}),
    ("hooktrace HOOKTRACE_OFF=1", "hook_kernel_hooktrace", None, {"HOOKTRACE_OFF": "1"}),
]
LABELS = [v[0] for v in VARIANTS]
FLOOR, ON, THROTTLED, OFF = LABELS[2], LABELS[3], LABELS[4], LABELS[5]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builddir", default=os.environ.get("HT_TOP_BUILDDIR", "."),
                    help="top build directory (holds bench/hook_kernel_*)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--calls", type=int, default=20000000,
                    help="instrumented calls per thread per run (default 20000000)")
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    ap.add_argument("--pattern", default="mixed", choices=["mixed", "hit", "region"],
                    help="call pattern of the kernel (see bench/hook_kernel.c)")
    ap.add_argument("--retries", type=int, default=3,
                    help="re-run a run whose CPU share fell below %.2f up to this many "
                         "times (default 3)" % SHARE_WARN)
    args = ap.parse_args()
    thread_counts = [int(t) for t in args.threads.split(",")]

    bindir = os.path.join(os.path.abspath(args.builddir), "bench")
    for _, prog, _, _ in VARIANTS:
        if not os.access(os.path.join(bindir, prog), os.X_OK):
            sys.exit("hook_cost: %s/%s not built: run `make bench`" % (bindir, prog))

    benchlib.header("Hook cost per instrumented call", "bench/hook_cost.py", [
        "kernel: pattern %s, %d instrumented calls per thread per run, %d rounds, variants "
        "alternated" % (args.pattern, args.calls // 3 * 3, args.rounds)])

    retried = [0]
    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-")

    def run_one(key):
        label, threads = key
        _, prog, config, env = VARIANTS[LABELS.index(label)]
        # -a: pin thread i to CPU i, so that the scheduler cannot pack both
        # threads onto one CPU (seen on this VM without pinning).
        cmd = [os.path.join(bindir, prog), "-a", "-n", str(args.calls), "-t", str(threads),
               "-p", args.pattern]
        for attempt in range(args.retries + 1):
            r = benchlib.run(cmd, config, env, scratch, timeout=300, tool="hook_cost")
            m = re.search(r"ns_per_call=([0-9.]+) .*cpu_share=([0-9.]+)", r.stdout)
            if not m:
                sys.exit("hook_cost: no ns_per_call in the output of %s:\n%s" % (prog, r.stdout))
            # A thread that waited for a CPU during its loop inflates the run.
            if float(m.group(2)) >= SHARE_WARN:
                break
            if attempt < args.retries:
                retried[0] += 1
        # hooktrace must really have been on (it wrote a profile) or really
        # off (it wrote nothing).
        if label == ON and not r.written:
            sys.exit("hook_cost: hooktrace wrote no profile: was it on?")
        if label == OFF and r.written:
            sys.exit("hook_cost: HOOKTRACE_OFF=1 run wrote %s" % r.written)
        return {"ns": float(m.group(1)), "share": float(m.group(2))}

    try:
        results = benchlib.alternate([(label, t) for t in thread_counts for label in LABELS],
                                     args.rounds, run_one, "hook_cost")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    for t in thread_counts:
        mine = {label: results[(label, t)] for label in LABELS}
        print("## %d thread%s" % (t, "" if t == 1 else "s"))
        print()
        benchlib.ratio_table(LABELS, mine, FLOOR, [Measure("ns", "ns/call", digits=2,
                                                           ratio_digits=2)],
                             extra=(["CPU share (min)"],
                                    lambda label: ["%.2f" % min(values(mine[label], "share"))]))
    shares = [s for runs in results.values() for s in values(runs, "share")]
    print("CPU share: the smallest (thread CPU time / loop wall time) of any thread in any "
          "round of that row; below %.2f a thread waited for a CPU during its loop, which "
          "inflates that run's ns/call.  Such runs were re-run (up to %d times each): "
          "%d re-runs in all; %d of the %d runs kept are still below %.2f."
          % (SHARE_WARN, args.retries, retried[0], sum(1 for s in shares if s < SHARE_WARN),
             len(shares), SHARE_WARN))
    print()
    met_all = True
    for t in thread_counts:
        def ns(label):
            return median(values(results[(label, t)], "ns"))
        ratio = median(benchlib.ratios(results[(ON, t)], results[(FLOOR, t)], "ns"))
        met = ratio <= TARGET_RATIO
        met_all &= met
        threads = "%d thread%s" % (t, "" if t == 1 else "s")
        print("- %s: hooktrace on / rdtsc floor = %.2f / %.2f ns, per round **%.2fx** "
              "(target <= %.1fx: %s)" % (threads, ns(ON), ns(FLOOR), ratio, TARGET_RATIO,
                                         "met" if met else "NOT met"))
        print("- %s: a throttled call (hook calls rewritten) costs %.2f ns, against "
              "%.2f ns recorded and %.2f ns uninstrumented (the kernel's loop and call included)"
              % (threads, ns(THROTTLED), ns(ON), ns(LABELS[0])))
    print()
    print("Target (hooktrace on <= %.1fx the two-rdtsc floor): %s"
          % (TARGET_RATIO, "met" if met_all else "NOT met"))


if __name__ == "__main__":
    main()
