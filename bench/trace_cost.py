#!/usr/bin/env python3
"""Trace mode against profile mode: the hook-cost kernel (bench/hook_kernel.c)
run with libhooktrace in profile mode and in trace mode, alternated, for
several rounds.  Prints the median nanoseconds per instrumented call of each
mode, the cost each traced event adds (trace − profile of the same round,
per call, halved: a call is two events, Enter and Leave), the time to write
the archive at exit, and the bytes per event in memory and in the OTF2
archive.

Usage (from the build directory; `make bench-trace` does this):
    python3 bench/trace_cost.py [--builddir DIR] [--rounds 5] [--calls 3000000]
                                [--threads 1]

Stdlib only; every run works in a temporary directory removed afterwards.
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import median, values  # noqa: E402

IN_MEMORY_BYTES_PER_EVENT = 16  # src/trace/buffer.h: tick + node per Enter/Leave
PROFILE, TRACE = "profile", "trace"


def archive_bytes(cwd):
    total = 0
    for root, _, files in os.walk(os.path.join(cwd, "hook_kernel_hooktrace_trace")):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return total


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

    benchlib.header("Trace mode against profile mode", "bench/trace_cost.py", [
        "kernel: bench/hook_kernel.c, pattern mixed, %d calls per thread, %d thread(s), %d "
        "rounds, modes alternated; trace mode with the default 16 MiB buffer per thread"
        % (args.calls, args.threads, args.rounds)])
    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-trace-")

    def run_one(mode):
        # Both modes record every call: throttled, the kernel's tiny functions
        # would stop being recorded (and traced) after 100,000 calls.
        config = {"throttle": {"enabled": False}}
        if mode == TRACE:
            config["trace"] = {"enabled": True}
        r = benchlib.run([exe, "-a", "-n", str(args.calls), "-t", str(args.threads), "-p", "mixed"],
                         config, None, scratch, timeout=900, look=archive_bytes,
                         tool="trace_cost")
        ns = float(re.search(r"ns_per_call=([0-9.]+)", r.stdout).group(1))
        m = re.search(r"\((\d+) events", r.stderr)
        events = int(m.group(1)) if m else 0
        if mode == TRACE and not events:
            sys.exit("trace_cost: no trace written:\n" + r.stderr)
        # What the run took beyond its loop: start-up and, in trace mode,
        # writing the archive.
        return {"ns": ns, "exit_s": r.wall - ns * 1e-9 * args.calls, "events": events,
                "archive": r.seen}

    try:
        results = benchlib.alternate([PROFILE, TRACE], args.rounds, run_one, "trace_cost")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    benchlib.ratio_table([PROFILE, TRACE], results, PROFILE,
                         [benchlib.Measure("ns", "ns per call", "difference", digits=1,
                                           ratio_digits=1)], label_title="mode")
    added = [d / 2 for d in benchlib.differences(results[TRACE], results[PROFILE], "ns")]
    ev = median(values(results[TRACE], "events"))
    write_s = median(values(results[TRACE], "exit_s"))
    print("- added per traced event (Enter or Leave): %s ns (trace − profile per call of the "
          "same round, / 2)" % benchlib.cell(added, 1))
    print("- events per run: %d; bytes per event: %d in memory, %.1f in the archive"
          % (ev, IN_MEMORY_BYTES_PER_EVENT, median(values(results[TRACE], "archive")) / ev))
    print("- time at exit beyond the kernel loop (trace mode, includes writing the archive): "
          "%.2f s median, %.1f M events/s" % (write_s, ev / write_s / 1e6))


if __name__ == "__main__":
    main()
