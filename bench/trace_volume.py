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
Enter/Leave of MPI_ regions), per rank per second of compute.  Rounds are
alternated; medians.

    python3 bench/trace_volume.py --hooktrace STAGE/usr/local/bin/hooktrace \
        [--base-lib DIR] [--rounds 3] [--ranks 8] [--size 16] [--iterations 100]
"""
import argparse
import collections
import datetime
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import cpu_model, loadavg, mpi_version  # noqa: E402

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


def run(cmd, config, env, keep_counts):
    """One run in a scratch folder: (loop s, CPU s of the children, archive
    bytes per rank [list], MPI event counts, events)."""
    cwd = tempfile.mkdtemp(prefix="trace-volume-")
    try:
        e = {k: v for k, v in os.environ.items() if not k.startswith("HOOKTRACE_")}
        e.update(env)
        if config is not None:
            with open(os.path.join(cwd, "config.json"), "w") as f:
                json.dump(config, f)
            e["HOOKTRACE_CONFIG"] = os.path.join(cwd, "config.json")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(cmd, cwd=cwd, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=900)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            sys.exit("trace_volume: %s failed:\n%s%s" % (" ".join(cmd), done.stdout[-2000:],
                                                         done.stderr[-2000:]))
        loop = float(re.search(r"elapsed_s=([0-9.]+)", done.stdout).group(1))
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        trace = [d for d in os.listdir(cwd) if d.endswith("_trace")]
        if not trace:
            return loop, cpu, None, None, None, done.stderr
        folder = os.path.join(cwd, trace[0], "traces")
        per_rank = collections.Counter()
        for name in os.listdir(folder):
            per_rank[int(name.split(".")[0]) & 0xffffffff] += os.path.getsize(
                os.path.join(folder, name))
        counts, events = (mpi_event_counts(os.path.join(cwd, trace[0], "traces.otf2"))
                          if keep_counts else (None, None))
        return loop, cpu, [per_rank[r] for r in sorted(per_rank)], counts, events, done.stderr
    finally:
        shutil.rmtree(cwd, ignore_errors=True)


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
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    variants = [("plain", plain, None, {}),
                ("trace", traced, {"trace": {"enabled": True}}, {}),
                ("trace, min_calls 100000", traced,
                 {"trace": {"enabled": True}, "throttle": {"min_calls": 100000}}, {})]
    if args.base_lib:
        variants.append(("trace, base library", traced, {"trace": {"enabled": True}},
                         {"LD_LIBRARY_PATH": os.path.abspath(args.base_lib)}))

    print("## Trace volume: the LULESH-like proxy, %d ranks (issue 26, point 5)" % args.ranks)
    print()
    print("- machine: %s, %d online CPUs, %s %s; %s" % (
        cpu_model(), os.cpu_count() or 0, platform.system(), platform.release(),
        mpi_version(args.mpiexec)))
    print("- date: %s; load before: %s" % (
        datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), loadavg()))
    print("- command: %s" % " ".join(["python3", "bench/trace_volume.py"] + sys.argv[1:]))
    print(flush=True)

    results = {name: [] for name, _, _, _ in variants}
    for r in range(args.rounds):
        order = variants[r % len(variants):] + variants[:r % len(variants)]
        for name, exe, config, extra in order:
            # MPI events are counted once per variant (otf2-print is slow).
            counts = r == 0 and config is not None
            results[name].append(run(launch + [exe] + pargs, config, dict(env, **extra), counts))
        print("round %d/%d done (load %s)" % (r + 1, args.rounds, loadavg()), flush=True)
    print()

    loop_plain = statistics.median(x[0] for x in results["plain"])
    cpu_plain = statistics.median(x[1] for x in results["plain"]) / args.ranks
    print("Plain build: loop %.3f s (median), %.3f CPU s per rank (median of the ranks' "
          "CPU time / %d)." % (loop_plain, cpu_plain, args.ranks))
    print()
    print("| variant | bytes per rank (mean; max) | events | MPI events | MB per rank per "
          "loop second of the plain build | MB per rank per CPU second of the plain build | "
          "its own loop (s) |")
    print("|---|---|---|---|---|---|---|")
    reference = None
    for name, _, config, _ in variants:
        if config is None:
            continue
        runs = results[name]
        mean = statistics.median(sum(x[2]) / len(x[2]) for x in runs)
        most = statistics.median(max(x[2]) for x in runs)
        counts, events = runs[0][3], runs[0][4]
        total_mpi = sum(counts.values())
        if reference is None:
            reference = counts
        same = "" if counts == reference else " (**differs from trace**)"
        print("| %s | %d; %d | %d | %d%s | %.2f | %.2f | %.3f |" % (
            name, mean, most, events, total_mpi, same, mean / 1e6 / loop_plain,
            mean / 1e6 / cpu_plain, statistics.median(x[0] for x in runs)))
    print()
    print("MPI events by kind (trace, first round): %s" % ", ".join(
        "%s %d" % kv for kv in sorted(reference.items())))
    print("stderr of the last traced run: %s" % results["trace"][-1][5].strip().splitlines()[-1])
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
