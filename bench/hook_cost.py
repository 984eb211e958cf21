#!/usr/bin/env python3
"""Hook cost per instrumented call: runs every kernel variant with 1 and 2
threads, interleaved, for several rounds, and prints a markdown table of the
median (and min, max) nanoseconds per instrumented call, each as a ratio to
the two-rdtsc floor measured in the same run with the same thread count.

Usage (from the build directory; `make bench` does this):
    python3 bench/hook_cost.py [--builddir DIR] [--rounds 7] [--calls 20000000]
                               [--threads 1,2] [--pattern mixed|hit|region]

Stdlib only.  "hooktrace on" runs with throttling off (a config file in the
scratch directory), "hooktrace, throttled" with HOOKTRACE_CONFIG unset, each
in a temporary working directory that is removed afterwards, so nothing is
left behind.
"""
import argparse
import datetime
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import cpu_model, loadavg  # noqa: E402

TARGET_RATIO = 1.5
SHARE_WARN = 0.95

# (row label, program, extra environment)
# "hooktrace on" records every call (throttling off, NO_THROTTLE below): the
# cost of a recorded call.  "hooktrace, throttled" runs with the defaults,
# under which the kernel's functions are throttled after 100,000 calls and
# their hook calls rewritten into no-ops: the cost of a throttled call.
NO_THROTTLE = "no-throttle.json"
VARIANTS = [
    ("uninstrumented", "hook_kernel_plain", {}),
    ("empty hooks", "hook_kernel_empty", {}),
    ("rdtsc x2 (floor)", "hook_kernel_rdtsc", {}),
    ("hooktrace on", "hook_kernel_hooktrace", {"HOOKTRACE_CONFIG": NO_THROTTLE}),
    ("hooktrace, throttled", "hook_kernel_hooktrace", {}),
    ("hooktrace HOOKTRACE_OFF=1", "hook_kernel_hooktrace", {"HOOKTRACE_OFF": "1"}),
]
FLOOR = "rdtsc x2 (floor)"
ON = "hooktrace on"
OFF = "hooktrace HOOKTRACE_OFF=1"


def run_once(path, threads, calls, pattern, extra_env, scratch):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKTRACE_")}
    env.update(extra_env)
    # hooktrace writes its profile into the working directory (the default
    # output_directory is "."): give each run an empty scratch directory.
    cwd = tempfile.mkdtemp(prefix="run-", dir=scratch)
    if env.get("HOOKTRACE_CONFIG") == NO_THROTTLE:
        # Outside cwd, so that cwd holds only what the run wrote.
        env["HOOKTRACE_CONFIG"] = os.path.join(scratch, NO_THROTTLE)
        with open(env["HOOKTRACE_CONFIG"], "w") as f:
            f.write('{"throttle": {"enabled": false}}\n')
    try:
        # -a: pin thread i to CPU i, so that the scheduler cannot pack both
        # threads onto one CPU (seen on this VM without pinning).
        proc = subprocess.run([path, "-a", "-n", str(calls), "-t", str(threads), "-p", pattern],
                              cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            sys.exit("hook_cost: %s -t %d failed (status %d):\n%s%s"
                     % (path, threads, proc.returncode, proc.stdout, proc.stderr))
        m = re.search(r"ns_per_call=([0-9.]+) .*cpu_share=([0-9.]+)", proc.stdout)
        if not m:
            sys.exit("hook_cost: no ns_per_call in the output of %s:\n%s" % (path, proc.stdout))
        written = sorted(os.listdir(cwd))
    finally:
        shutil.rmtree(cwd, ignore_errors=True)
    return float(m.group(1)), float(m.group(2)), written


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
    for _, prog, _ in VARIANTS:
        if not os.access(os.path.join(bindir, prog), os.X_OK):
            sys.exit("hook_cost: %s/%s not built: run `make bench`" % (bindir, prog))

    print("# Hook cost per instrumented call")
    print()
    print("- machine: %s, %d online CPUs" % (cpu_model(), os.cpu_count() or 0))
    print("- load average before the run: %s" % loadavg())
    print("- date: %s" % datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"))
    print("- command: %s" % " ".join(["python3", "bench/hook_cost.py"] + sys.argv[1:]))
    print("- kernel: pattern %s, %d instrumented calls per thread per run, %d rounds, "
          "variants interleaved" % (args.pattern, args.calls // 3 * 3, args.rounds))
    print(flush=True)

    results = {(v[0], t): [] for v in VARIANTS for t in thread_counts}
    shares = {(v[0], t): [] for v in VARIANTS for t in thread_counts}
    retried = 0
    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-")
    try:
        for r in range(args.rounds):
            # Rotate the order each round so no variant always runs first.
            order = VARIANTS[r % len(VARIANTS):] + VARIANTS[:r % len(VARIANTS)]
            for t in thread_counts:
                for label, prog, extra in order:
                    for attempt in range(args.retries + 1):
                        ns, share, written = run_once(os.path.join(bindir, prog), t,
                                                      args.calls, args.pattern, extra, scratch)
                        if share >= SHARE_WARN:
                            break
                        if attempt < args.retries:
                            retried += 1
                    # hooktrace must really have been on (it wrote a profile)
                    # or really off (it wrote nothing).
                    if label == ON and not written:
                        sys.exit("hook_cost: hooktrace wrote no profile: was it on?")
                    if label == OFF and written:
                        sys.exit("hook_cost: HOOKTRACE_OFF=1 run wrote %s" % written)
                    results[(label, t)].append(ns)
                    shares[(label, t)].append(share)
            print("round %d/%d done" % (r + 1, args.rounds), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    print("| variant | threads | ns/call (median) | min | max | ratio to floor "
          "| CPU share (min) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for t in thread_counts:
        floor = statistics.median(results[(FLOOR, t)])
        for label, _, _ in VARIANTS:
            xs = results[(label, t)]
            med = statistics.median(xs)
            print("| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f |"
                  % (label, t, med, min(xs), max(xs), med / floor, min(shares[(label, t)])))
    print()
    runs = sum(len(v) for v in shares.values())
    disturbed = sum(1 for k in shares for x in shares[k] if x < SHARE_WARN)
    print("CPU share: the smallest (thread CPU time / loop wall time) of any thread in any "
          "round of that cell; below %.2f a thread waited for a CPU during its loop, which "
          "inflates that run's ns/call.  Such runs were re-run (up to %d times each): "
          "%d re-runs in all; %d of the %d runs kept are still below %.2f."
          % (SHARE_WARN, args.retries, retried, disturbed, runs, SHARE_WARN))
    print()
    met_all = True
    for t in thread_counts:
        floor = statistics.median(results[(FLOOR, t)])
        on = statistics.median(results[(ON, t)])
        ratio = on / floor
        met = ratio <= TARGET_RATIO
        met_all &= met
        print("- %d thread%s: hooktrace on / rdtsc floor = %.2f / %.2f ns = **%.2fx** "
              "(target <= %.1fx: %s)" % (t, "" if t == 1 else "s", on, floor, ratio,
                                         TARGET_RATIO, "met" if met else "NOT met"))
        plain = statistics.median(results[("uninstrumented", t)])
        throttled = statistics.median(results[("hooktrace, throttled", t)])
        print("- %d thread%s: a throttled call (hook calls rewritten) costs %.2f ns, against "
              "%.2f ns recorded and %.2f ns uninstrumented (the kernel's loop and call included)"
              % (t, "" if t == 1 else "s", throttled, on, plain))
    print()
    print("Target (hooktrace on <= %.1fx the two-rdtsc floor): %s"
          % (TARGET_RATIO, "met" if met_all else "NOT met"))


if __name__ == "__main__":
    main()
