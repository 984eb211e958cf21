#!/usr/bin/env python3
"""What libhooktrace's libgomp wrappers add to an OpenMP construct
(bench/omp_regions.c): N empty parallel regions, and N empty tasks made in
one region, built without hooktrace ("plain") and with
-finstrument-functions linked to libhooktrace ("hooktrace", also run with
HOOKTRACE_OFF=1).  The variants are interleaved over the rounds; prints
the least and the median nanoseconds per region or task and the ratios of
the least times to plain's (the least is the figure least disturbed by
other load on the machine).  With --callgrind, also the instructions per
region or task under valgrind (the difference between two lengths of run,
so that start-up and the profile written at exit cancel out), in all and in
libhooktrace alone (the wrappers; the rest of the difference is libgomp's
own, which varies with the threads' interleaving under valgrind).

Usage (from the build directory; `make bench-openmp` does this):
    python3 bench/omp_cost.py [--builddir DIR] [--rounds 7] [--regions 100000]
                              [--threads 2] [--wait-policy passive] [--callgrind]

Stdlib only; every run works in a temporary directory removed afterwards.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import cpu_model, loadavg  # noqa: E402

VARIANTS = (("plain", "omp_regions_plain", {}), ("hooktrace", "omp_regions_hooktrace", {}),
            ("hooktrace, HOOKTRACE_OFF=1", "omp_regions_hooktrace", {"HOOKTRACE_OFF": "1"}))


def environment(args, extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKTRACE_", "OMP_", "GOMP_"))}
    env.update({"OMP_NUM_THREADS": str(args.threads), "OMP_DYNAMIC": "false",
                "OMP_WAIT_POLICY": args.wait_policy})
    env.update(extra)
    return env


def run_once(exe, what, n, env, prefix=()):
    cwd = tempfile.mkdtemp(prefix="omp-cost-")
    try:
        proc = subprocess.run(list(prefix) + [exe, what, str(n)], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=900)
        if proc.returncode != 0:
            sys.exit("omp_cost: %s failed (%d):\n%s%s" % (exe, proc.returncode, proc.stdout, proc.stderr))
        return proc
    finally:
        shutil.rmtree(cwd, ignore_errors=True)


def own_cost(path, library="libhooktrace"):
    """Instructions spent in the objects whose name contains `library`,
    from a callgrind output file: the self cost lines of their functions
    (a call's line, which carries the callee's inclusive cost, skipped)."""
    names, total, current, skip = {}, 0, "", False
    with open(path) as f:
        for line in f:
            if skip:
                skip = False
                continue
            if line.startswith(("ob=", "cob=")):
                # An object is named the first time it appears, in either.
                m = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.strip())
                if m and m.group(2):
                    names[m.group(1)] = m.group(2)
                if line.startswith("ob="):
                    current = names.get(m.group(1), "") if m else line[3:].strip()
            elif line.startswith("calls="):
                skip = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                if library in current:
                    total += int(line.split()[1])
    return total


def instructions(exe, what, n, env):
    """(all instructions, those in libhooktrace) of one run under callgrind."""
    out = tempfile.mktemp(prefix="omp-cost-callgrind-")
    try:
        proc = run_once(exe, what, n, env, ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out])
        return int(re.search(r"Collected : (\d+)", proc.stderr).group(1)), own_cost(out)
    finally:
        if os.path.exists(out):
            os.remove(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--regions", type=int, default=100000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--wait-policy", default="passive")
    ap.add_argument("--callgrind", action="store_true")
    args = ap.parse_args()
    bench = os.path.abspath(os.path.join(args.builddir, "bench"))
    print("## OpenMP constructs: cost per region and per task")
    print()
    print("CPU: %s; load average before: %s; %d threads, OMP_WAIT_POLICY=%s, %d rounds of %d"
          % (cpu_model(), loadavg(), args.threads, args.wait_policy, args.rounds, args.regions))
    print()
    print("| construct | variant | least ns | median ns | least / plain's |")
    print("|---|---|---|---|---|")
    for what in ("regions", "tasks"):
        times = {name: [] for name, _, _ in VARIANTS}
        for r in range(args.rounds):
            order = VARIANTS[r % len(VARIANTS):] + VARIANTS[:r % len(VARIANTS)]
            for name, exe, extra in order:
                out = run_once(os.path.join(bench, exe), what, args.regions, environment(args, extra)).stdout
                times[name].append(float(re.search(r" ns ([0-9.]+)", out).group(1)))
        plain = min(times["plain"])
        for name, _, _ in VARIANTS:
            print("| %s | %s | %.0f | %.0f | %.2f |" % (what, name, min(times[name]),
                                                       statistics.median(times[name]),
                                                       min(times[name]) / plain))
    if args.callgrind:
        print()
        print("Instructions per construct under callgrind (all %d threads; runs of %d and %d):"
              % (args.threads, args.regions // 10, args.regions // 10 * 3))
        print()
        print("| construct | plain | hooktrace | added | of which in libhooktrace |")
        print("|---|---|---|---|---|")
        small, large = args.regions // 10, args.regions // 10 * 3
        for what in ("regions", "tasks"):
            per = {}
            for name, exe, extra in VARIANTS[:2]:
                env = environment(args, dict(extra, GOMP_SPINCOUNT="0"))
                path = os.path.join(bench, exe)
                a, b = instructions(path, what, small, env), instructions(path, what, large, env)
                per[name] = ((b[0] - a[0]) / (large - small), (b[1] - a[1]) / (large - small))
            print("| %s | %.0f | %.0f | %.0f | %.0f |" % (what, per["plain"][0], per["hooktrace"][0],
                                                         per["hooktrace"][0] - per["plain"][0],
                                                         per["hooktrace"][1]))

if __name__ == "__main__":
    main()
