#!/usr/bin/env python3
"""Trace mode against profile mode: the hook-cost kernel (bench/hook_kernel.c)
run with libhooktrace in profile mode and in trace mode, interleaved, for
several rounds.  Prints the median nanoseconds per instrumented call of each
mode, the cost each traced event adds (a call is two events, Enter and
Leave), the time to write the archive at exit, and the bytes per event in
memory and in the OTF2 archive.

Usage (from the build directory; `make bench-trace` does this):
    python3 bench/trace_cost.py [--builddir DIR] [--rounds 5] [--calls 3000000]
                                [--threads 1]

Stdlib only; every run works in a temporary directory removed afterwards.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import cpu_model, loadavg  # noqa: E402

IN_MEMORY_BYTES_PER_EVENT = 16  # src/trace/buffer.h: tick + node per Enter/Leave


def run_once(exe, calls, threads, trace, scratch):
    cwd = tempfile.mkdtemp(prefix="run-", dir=scratch)
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKTRACE_")}
    # Both modes record every call: throttled, the kernel's tiny functions
    # would stop being recorded (and traced) after 100,000 calls.
    config = {"throttle": {"enabled": False}}
    if trace:
        config["trace"] = {"enabled": True}
    with open(os.path.join(cwd, "config.json"), "w") as f:
        json.dump(config, f)
    env["HOOKTRACE_CONFIG"] = os.path.join(cwd, "config.json")
    try:
        start = time.monotonic()
        proc = subprocess.run([exe, "-a", "-n", str(calls), "-t", str(threads), "-p", "mixed"],
                              cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
        wall = time.monotonic() - start
        if proc.returncode != 0:
            sys.exit("trace_cost: %s failed (%d):\n%s%s" % (exe, proc.returncode, proc.stdout,
                                                           proc.stderr))
        m = re.search(r"ns_per_call=([0-9.]+)", proc.stdout)
        loop_s = float(m.group(1)) * 1e-9 * calls
        events = 0
        m = re.search(r"\((\d+) events", proc.stderr)
        if m:
            events = int(m.group(1))
        archive = 0
        for root, _, files in os.walk(os.path.join(cwd, "hook_kernel_hooktrace_trace")):
            archive += sum(os.path.getsize(os.path.join(root, f)) for f in files)
        if trace and not events:
            sys.exit("trace_cost: no trace written:\n" + proc.stderr)
        return float(re.search(r"ns_per_call=([0-9.]+)", proc.stdout).group(1)), wall - loop_s, \
            events, archive
    finally:
        shutil.rmtree(cwd, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builddir", default=os.environ.get("HT_TOP_BUILDDIR", "."))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=3000000,
                    help="instrumented calls per thread per run (default 3000000)")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    exe = os.path.join(os.path.abspath(args.builddir), "bench", "hook_kernel_hooktrace")
    if not os.access(exe, os.X_OK):
        sys.exit("trace_cost: %s not built: run `make bench-trace`" % exe)

    print("# Trace mode against profile mode")
    print()
    print("- machine: %s, %d online CPUs" % (cpu_model(), os.cpu_count() or 0))
    print("- load average before the run: %s" % loadavg())
    print("- date: %s" % datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"))
    print("- command: %s" % " ".join(["python3", "bench/trace_cost.py"] + sys.argv[1:]))
    print("- kernel: bench/hook_kernel.c, pattern mixed, %d calls per thread, %d thread(s), "
          "%d rounds, modes interleaved; trace mode with the default 16 MiB buffer per thread"
          % (args.calls, args.threads, args.rounds))
    print(flush=True)
    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-trace-")
    profile, trace, write_s, events, archive = [], [], [], [], []
    try:
        for r in range(args.rounds):
            for mode in ((False, True) if r % 2 == 0 else (True, False)):
                ns, extra_s, ev, size = run_once(exe, args.calls, args.threads, mode, scratch)
                if mode:
                    trace.append(ns)
                    write_s.append(extra_s)
                    events.append(ev)
                    archive.append(size)
                else:
                    profile.append(ns)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    p, t = statistics.median(profile), statistics.median(trace)
    ev = statistics.median(events)
    print("| mode | ns per call (median, min-max) |")
    print("|---|---|")
    print("| profile | %.1f (%.1f-%.1f) |" % (p, min(profile), max(profile)))
    print("| trace | %.1f (%.1f-%.1f) |" % (t, min(trace), max(trace)))
    print()
    print("- added per traced event (Enter or Leave): %.1f ns (trace minus profile, per call, / 2)"
          % ((t - p) / 2))
    print("- events per run: %d; bytes per event: %d in memory, %.1f in the archive"
          % (ev, IN_MEMORY_BYTES_PER_EVENT, statistics.median(archive) / ev if ev else 0))
    print("- time at exit beyond the kernel loop (trace mode, includes writing the archive): "
          "%.2f s median, %.1f M events/s" % (statistics.median(write_s),
                                             ev / statistics.median(write_s) / 1e6))


if __name__ == "__main__":
    main()
