#!/usr/bin/env python3
"""What libhooktrace's libgomp wrappers add to an OpenMP construct
(bench/omp_regions.c): N empty parallel regions, and N empty tasks made in
one region, built without hooktrace ("plain") and with
-finstrument-functions linked to libhooktrace ("hooktrace", also run with
HOOKTRACE_OFF=1).  The variants are alternated over the rounds; prints the
least and the median nanoseconds per region or task (the least is the
figure least disturbed by other load on the machine) and the ratio to
plain of the same round.  With --callgrind, also the instructions per
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
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import values  # noqa: E402

PLAIN = "plain"
VARIANTS = {PLAIN: ("omp_regions_plain", {}), "hooktrace": ("omp_regions_hooktrace", {}),
            "hooktrace, HOOKTRACE_OFF=1": ("omp_regions_hooktrace", {"HOOKTRACE_OFF": "1"})}


def environment(args, extra):
    """The OpenMP settings of every run; the caller's OMP_ and GOMP_
    variables are left out (HOOKTRACE_ ones go in benchlib.bench_env)."""
    env = {k: None for k in os.environ if k.startswith(("OMP_", "GOMP_"))}
    env.update({"OMP_NUM_THREADS": str(args.threads), "OMP_DYNAMIC": "false",
                "OMP_WAIT_POLICY": args.wait_policy})
    env.update(extra)
    return env


def run(cmd, env):
    return benchlib.run(cmd, None, env, timeout=900, tool="omp_cost")


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
    fd, out = tempfile.mkstemp(prefix="omp-cost-callgrind-")
    os.close(fd)
    try:
        r = run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, exe, what, str(n)],
                env)
        return int(re.search(r"Collected : (\d+)", r.stderr).group(1)), own_cost(out)
    finally:
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
    benchlib.header("OpenMP constructs: cost per region and per task", "bench/omp_cost.py", [
        "%d threads, OMP_WAIT_POLICY=%s, %d rounds of %d"
        % (args.threads, args.wait_policy, args.rounds, args.regions)])
    for what in ("regions", "tasks"):
        def run_one(label):
            exe, extra = VARIANTS[label]
            out = run([os.path.join(bench, exe), what, str(args.regions)],
                      environment(args, extra)).stdout
            return {"ns": float(re.search(r" ns ([0-9.]+)", out).group(1))}

        results = benchlib.alternate(list(VARIANTS), args.rounds, run_one, "omp_cost " + what)
        print("## %s" % what)
        print()
        benchlib.ratio_table(list(VARIANTS), results, PLAIN,
                             [benchlib.Measure("ns", "ns", digits=0, ratio_digits=2)],
                             extra=(["least ns"], lambda label: [
                                 "%.0f" % min(values(results[label], "ns"))]))
    if args.callgrind:
        small, large = args.regions // 10, args.regions // 10 * 3
        print("Instructions per construct under callgrind (all %d threads; runs of %d and %d):"
              % (args.threads, small, large))
        print()
        rows = []
        for what in ("regions", "tasks"):
            per = {}
            for label in (PLAIN, "hooktrace"):
                exe, extra = VARIANTS[label]
                env = environment(args, dict(extra, GOMP_SPINCOUNT="0"))
                path = os.path.join(bench, exe)
                a, b = instructions(path, what, small, env), instructions(path, what, large, env)
                per[label] = ((b[0] - a[0]) / (large - small), (b[1] - a[1]) / (large - small))
            rows.append([what] + ["%.0f" % x for x in (
                per[PLAIN][0], per["hooktrace"][0], per["hooktrace"][0] - per[PLAIN][0],
                per["hooktrace"][1])])
        benchlib.table(["construct", "plain", "hooktrace", "added", "of which in libhooktrace"],
                       rows)


if __name__ == "__main__":
    main()
