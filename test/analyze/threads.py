"""--threads: the parallel read gives the serial read's output byte for
byte (text, JSON, CSV, SVG, HTML, stderr, exit status) on scenario
archives with wait states, unmatched messages, warnings with examples,
an idle location, and many locations: more locations than threads (a
40-rank ring whose 8 events per round all share one time, so the order
of equal times decides, and long enough for many batches per reader) and
fewer locations than threads.  docs/analyze.md, "Threads"."""

import os
import subprocess

from analyzelib import (ANALYZE, BUILDDIR, all_outputs, check, check_eq, finish, memcheck,
                        scratch, write)

BENCH_WRITER = os.path.join(BUILDDIR, "bench", "analyze_write_trace")


def outputs(directory, threads, name):
    """Every output of one analysis, as bytes, with status and stderr."""
    proc, got = all_outputs(memcheck([ANALYZE, "--threads", str(threads)]), directory,
                            "%s-%s" % (name, threads))
    got.update(status=proc.returncode, stderr=proc.stderr)
    return got


def compare(directory, name, threads):
    serial = outputs(directory, 1, name)
    check_eq(serial["status"], 0, "%s: serial exit status" % name)
    check(serial["json"].startswith(b"{") and serial["txt"] != b"",
          "%s: the serial run wrote its reports" % name)
    for t in threads:
        parallel = outputs(directory, t, name)
        for k in ("status", "stderr", "txt", "json", "csv", "svg", "html"):
            check(parallel[k] == serial[k],
                  "%s: --threads %d %s differs from --threads 1" % (name, t, k))


# Under valgrind (CI's memory check of the analyzer, HT_VALGRIND) the
# threads do not run at once anyway, and each run takes a second: there the
# scenarios run with 8 threads only (more threads than locations), the ring
# of 40 with 3 and 7, and the ring of a million events not at all.
VALGRIND = bool(os.environ.get("HT_VALGRIND"))

# (scenario, thread counts): 3 to 4 locations each, so 8 threads is more
# threads than locations.
for scenario in ("late_sender", "late_receiver", "collective_waits", "missing_receive",
                 "request_errors", "out_of_order", "cancelled", "wildcard", "communicators",
                 "negative_duration", "idle_thread", "clock_skewed", "clock_single_offset",
                 "order_violations", "wait_edges"):
    compare(write(scenario), scenario, (8,) if VALGRIND else (2, 3, 8))

# 8 ranks, about a million events: hundreds of batches per reader.
if not VALGRIND:
    compare(write("ring"), "ring", (3,))

# A thread count out of range is a usage error, as every bad option.
for bad in ("0", "1025", "x"):
    proc = subprocess.run([ANALYZE, "--threads", bad, "archive"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
    check_eq((proc.returncode, proc.stderr.splitlines()[0] if proc.stderr else ""),
             (2, "hooktrace-analyze: --threads: '%s' is not a number from 1 to 1024" % bad),
             "--threads %s" % bad)

ring40 = scratch("ring40")
subprocess.run([BENCH_WRITER, ring40, "40", "250"], check=True, stdout=subprocess.DEVNULL)
compare(ring40, "ring40", (3, 7) if VALGRIND else (2, 3, 7))

finish()
