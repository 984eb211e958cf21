#!/usr/bin/env python3
"""Trace volume of the LULESH-like MPI proxy (issue 26, point 5).

bench/lulesh_mpi.cpp is built plain and with the `hooktrace` driver of an
installed (or DESTDIR-staged) hooktrace (GCC plugin, the default build), and
run on 8 ranks (--oversubscribe, OMP_NUM_THREADS=1), -s 16 -i 100:

  plain           the uninstrumented build: its loop time (elapsed_s) and the
                  CPU seconds of its ranks are the "seconds of compute"
  trace           {"trace": {"enabled": true}}: every default
  trace, 100000   the same with throttle.min_calls 100000, the profile's
                  default (what trace mode used before it throttled sooner)
  trace, base     (with --base-lib) the same binary and config against
                  another libhooktrace.so (LD_LIBRARY_PATH), e.g. the commit
                  before the change: the MPI events must be the same

For each traced run: the archive's bytes per rank (its events and local
definitions), its events, and its MPI events (otf2-print: MPI_* records and
Enter/Leave of MPI_ regions), per rank per second of compute.  The variants
are alternated (the order rotating each round); medians.

    python3 bench/trace_volume.py --hooktrace STAGE/usr/local/bin/hooktrace \
        [--base-lib DIR] [--rounds 3] [--ranks 8] [--size 16] [--iterations 100]
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import median, values  # noqa: E402

SRCDIR = os.path.dirname(os.path.abspath(__file__))


def sh(cmd):
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.exit("trace_volume: build failed: %s\n%s" % (" ".join(cmd), done.stdout[-4000:]))


def mpi_event_counts(anchor):
    """{kind: count} of MPI events over all locations, and all events."""
    proc = subprocess.Popen(["otf2-print", anchor], stdout=subprocess.PIPE, text=True)
    mpi, total = collections.Counter(), 0
    for line in proc.stdout:
        word = line.split(" ", 1)[0]
        if not word or word in ("Event", "=== "):
            continue
        if word in ("ENTER", "LEAVE"):
            total += 1
            m = re.search(r'Region: "(MPI_[^"]*)"', line)
            if m:
                mpi[word + " " + m.group(1)] += 1
        elif word.isupper():
            total += 1
            if word.startswith("MPI_"):
                mpi[word] += 1
    proc.wait()
    return mpi, total


def archive(count_events):
    """What a run left: the archive's bytes per rank [list], and with
    count_events its MPI event counts and events (else None, None); None
    without an archive."""
    def look(cwd):
        trace = [d for d in os.listdir(cwd) if d.endswith("_trace")]
        if not trace:
            return None
        folder = os.path.join(cwd, trace[0], "traces")
        per_rank = collections.Counter()
        for name in os.listdir(folder):
            per_rank[int(name.split(".")[0]) & 0xffffffff] += os.path.getsize(
                os.path.join(folder, name))
        counts, events = (mpi_event_counts(os.path.join(cwd, trace[0], "traces.otf2"))
                          if count_events else (None, None))
        return [per_rank[r] for r in sorted(per_rank)], counts, events
    return look


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hooktrace", required=True, help="the hooktrace driver")
    ap.add_argument("--mpicxx", default="mpicxx")
    ap.add_argument("--mpiexec", default="mpirun")
    ap.add_argument("--base-lib", help="a folder with another libhooktrace.so.0 to compare with")
    ap.add_argument("--ranks", type=int, default=8)
    ap.add_argument("--size", type=int, default=16)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()

    scratch = tempfile.mkdtemp(prefix="trace-volume-build-")
    src = os.path.join(SRCDIR, "lulesh_mpi.cpp")
    plain, traced = os.path.join(scratch, "lulesh_plain"), os.path.join(scratch, "lulesh_hooktrace")
    sh([args.mpicxx, "-O2", "-g", "-fopenmp", src, "-o", plain])
    sh([args.hooktrace, args.mpicxx, "-O2", "-g", "-fopenmp", src, "-o", traced])
    launch = [args.mpiexec, "-np", str(args.ranks), "--oversubscribe", "--bind-to", "none"]
    pargs = ["-s", str(args.size), "-i", str(args.iterations)]
    env = {"OMP_NUM_THREADS": "1"}
    # label: (program, config, extra environment)
    variants = {"plain": (plain, None, {}),
                "trace": (traced, {"trace": {"enabled": True}}, {}),
                "trace, min_calls 100000": (traced, {"trace": {"enabled": True},
                                                     "throttle": {"min_calls": 100000}}, {})}
    if args.base_lib:
        variants["trace, base library"] = (traced, {"trace": {"enabled": True}},
                                           {"LD_LIBRARY_PATH": os.path.abspath(args.base_lib)})

    benchlib.header("Trace volume: the LULESH-like proxy, %d ranks (issue 26, point 5)"
                    % args.ranks, "bench/trace_volume.py", [benchlib.mpi_version(args.mpiexec)])
    counted = set()

    def run_one(name):
        exe, config, extra = variants[name]
        # MPI events are counted once per variant (otf2-print is slow).
        count = config is not None and name not in counted
        counted.add(name)
        r = benchlib.run(launch + [exe] + pargs, config, dict(env, **extra), timeout=900,
                         look=archive(count), tool="trace_volume")
        bytes_per_rank, counts, events = r.seen or (None, None, None)
        return {"loop": float(re.search(r"elapsed_s=([0-9.]+)", r.stdout).group(1)),
                "cpu": r.cpu, "bytes": bytes_per_rank, "counts": counts, "events": events,
                "stderr": r.stderr}

    try:
        results = benchlib.alternate(list(variants), args.rounds, run_one, "trace_volume")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    loop_plain = median(values(results["plain"], "loop"))
    cpu_plain = median(values(results["plain"], "cpu")) / args.ranks
    print("Plain build: loop %.3f s (median), %.3f CPU s per rank (median of the ranks' "
          "CPU time / %d)." % (loop_plain, cpu_plain, args.ranks))
    print()
    rows, reference = [], None
    for name, (_, config, _) in variants.items():
        if config is None:
            continue
        runs = results[name]
        mean = median([sum(x["bytes"]) / len(x["bytes"]) for x in runs])
        most = median([max(x["bytes"]) for x in runs])
        counts, events = runs[0]["counts"], runs[0]["events"]
        if reference is None:
            reference = counts
        same = "" if counts == reference else " (**differs from trace**)"
        rows.append([name, "%d; %d" % (mean, most), "%d" % events,
                     "%d%s" % (sum(counts.values()), same), "%.2f" % (mean / 1e6 / loop_plain),
                     "%.2f" % (mean / 1e6 / cpu_plain), "%.3f" % median(values(runs, "loop"))])
    benchlib.table(["variant", "bytes per rank (mean; max)", "events", "MPI events",
                    "MB per rank per loop second of the plain build",
                    "MB per rank per CPU second of the plain build", "its own loop (s)"], rows)
    print("MPI events by kind (trace, first round): %s" % ", ".join(
        "%s %d" % kv for kv in sorted(reference.items())))
    print("stderr of the last traced run: %s"
          % results["trace"][-1]["stderr"].strip().splitlines()[-1])


if __name__ == "__main__":
    main()
