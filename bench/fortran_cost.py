#!/usr/bin/env python3
"""Fortran against C: the cost hooktrace adds per MPI call made from
Fortran (`use mpi`, `use mpi_f08`) and from C.  Prints a markdown table.

bench/fortran_calls.F90 and its C twin bench/fortran_calls_c.c run on 1
rank: an MPI_Send of one 8-byte integer to MPI_PROC_NULL and an 8-byte
MPI_Allreduce (MPI_SUM) on MPI_COMM_WORLD, each a timed loop (median of
--reps loops per run).  Every language is built twice:
    plain                   no hooktrace
    hooktrace, logging on   linked with libhooktrace, not instrumented,
                            HOOKTRACE_CONFIG unset
The six programs run alternated (the order rotates each round) for
--rounds rounds.  Added ns/call is hooktrace − plain of the same language
in the same round; Fortran − C is the Fortran added cost minus the C added
cost of the same round.  The tables give medians over the rounds (and the
range of the differences).

Usage (from the build directory; `make bench-fortran` does this):
    python3 bench/fortran_cost.py [--builddir DIR] [--mpiexec mpirun]
        [--mpi ompi-c|mpich] [--rounds 7] [--iterations 500000] [--reps 5]

Stdlib only.  Every run happens in its own empty temporary directory (the
profile lands there), which is deleted afterwards; a hooktrace run must
leave a profile there and a plain run nothing.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import Measure, median, values  # noqa: E402

SHARE_WARN = 0.95
TESTS = {"send": "MPI_Send to MPI_PROC_NULL (8 bytes)",
         "ar8": "8-byte MPI_Allreduce (1 rank)"}
# language label: program stem
LANGS = {"C": "fortran_calls_c",
         "Fortran `use mpi`": "fortran_calls_f90",
         "Fortran `use mpi_f08`": "fortran_calls_f08"}
# variant: (program suffix, writes a profile)
VARIANTS = {"plain": ("_plain", False), "hooktrace": ("_hooktrace", True)}


def profile_calls(cwd):
    """Calls per function summed over the stacks of the JSON profiles in
    cwd, or None if there is none."""
    calls, seen = {}, False
    for name in os.listdir(cwd):
        if not benchlib.is_profile_name(name):
            continue
        try:
            with open(os.path.join(cwd, name)) as f:
                profile = json.load(f)
        except (OSError, ValueError):
            continue
        seen = True
        functions = profile.get("functions", []) if isinstance(profile, dict) else []
        for stack in profile.get("stacks", []) if isinstance(profile, dict) else []:
            if isinstance(stack, dict) and "function_index" in stack:
                name = functions[stack["function_index"]]["name"]
                calls[name] = calls.get(name, 0) + stack.get("calls", 0)
    return calls if seen else None


def parse(out, prog):
    """{test: ns per call, test + " share": CPU share} from one run."""
    measured = {}
    for line in out.splitlines():
        m = re.match(r"test=(\w+) .*ns_per_call=([0-9.]+) .*cpu_share=([0-9.]+)", line)
        if m:
            measured[m.group(1)] = float(m.group(2))
            measured[m.group(1) + " share"] = float(m.group(3))
    if not all(t in measured for t in TESTS):
        sys.exit("fortran_cost: unexpected output from %s:\n%s" % (prog, out))
    return measured


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builddir", default=os.environ.get("HT_TOP_BUILDDIR", "."))
    ap.add_argument("--mpiexec", default=os.environ.get("HT_MPIEXEC", "mpirun"))
    ap.add_argument("--mpi", default="ompi-c",
                    help="MPI library configured (ompi-c or mpich): picks the launch options")
    ap.add_argument("--mpiexec-args", default=None,
                    help="launch options (default for Open MPI: '-np 1 --bind-to core "
                         "--mca btl self,vader'; for MPICH: '-n 1')")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--iterations", type=int, default=500000,
                    help="calls per timed loop (default 500000)")
    ap.add_argument("--reps", type=int, default=5,
                    help="timed loops per test per run (median; default 5)")
    ap.add_argument("--retries", type=int, default=3,
                    help="re-run a run whose CPU share fell below %.2f up to this many "
                         "times (default 3)" % SHARE_WARN)
    ap.add_argument("--skip-f08", action="store_true",
                    help="leave out `use mpi_f08` (always left out with MPICH, whose "
                         "mpi_f08 calls hooktrace does not see: docs/mpi.md)")
    args = ap.parse_args()
    if not 1 <= args.reps <= 64 or args.iterations < 1:
        sys.exit("fortran_cost: --reps must be 1..64 and --iterations positive")
    if args.mpiexec_args is None:
        args.mpiexec_args = ("-n 1" if args.mpi == "mpich"
                             else "-np 1 --bind-to core --mca btl self,vader")
    if args.mpi == "mpich":
        args.skip_f08 = True
    langs = [lang for lang, stem in LANGS.items() if not (args.skip_f08 and stem.endswith("f08"))]
    bindir = os.path.join(os.path.abspath(args.builddir), "bench")
    runs = [(lang, variant) for lang in langs for variant in VARIANTS]
    for lang, variant in runs:
        prog = LANGS[lang] + VARIANTS[variant][0]
        if not os.access(os.path.join(bindir, prog), os.X_OK):
            sys.exit("fortran_cost: %s/%s not built: run `make bench-fortran`" % (bindir, prog))

    benchlib.header("Fortran against C: added cost per MPI call", "bench/fortran_cost.py", [
        "MPI: %s; launch: %s %s" % (benchlib.mpi_version(shlex.split(args.mpiexec)[0]),
                                    args.mpiexec, args.mpiexec_args)])
    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-fortran-")
    retried = [0]

    def run_one(key):
        lang, variant = key
        prog = LANGS[lang] + VARIANTS[variant][0]
        profiled = VARIANTS[variant][1]
        cmd = (shlex.split(args.mpiexec) + shlex.split(args.mpiexec_args)
               + [os.path.join(bindir, prog), str(args.iterations), str(args.reps)])
        for attempt in range(args.retries + 1):
            r = benchlib.run(cmd, None, None, scratch, look=profile_calls, tool="fortran_cost")
            measured = parse(r.stdout, prog)
            if min(measured[t + " share"] for t in TESTS) >= SHARE_WARN:
                break
            if attempt < args.retries:
                retried[0] += 1
        if profiled and not r.written:
            sys.exit("fortran_cost: %s wrote no profile: was hooktrace on?" % prog)
        if not profiled and r.written:
            sys.exit("fortran_cost: %s wrote %s" % (prog, r.written))
        # Every call went through exactly one wrapper: the profile counts the
        # timed and warm-up calls once (a Fortran call counted again by a C
        # wrapper underneath would show twice).
        if profiled:
            want = args.iterations * args.reps + args.iterations // 10 + 1
            for routine in ("MPI_Send", "MPI_Allreduce"):
                got = (r.seen or {}).get(routine)
                if got != want:
                    sys.exit("fortran_cost: %s: the profile counts %s calls of %s, "
                             "expected %d" % (prog, got, routine, want))
        return measured

    try:
        results = benchlib.alternate(runs, args.rounds, run_one, "fortran_cost")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    print("ns per MPI call, 1 rank, %d calls per loop, median of %d loops per run, over %d "
          "alternated rounds.  Added = hooktrace − plain of the same language and round; "
          "Fortran − C = Fortran added − C added of the same round."
          % (args.iterations, args.reps, args.rounds))
    print()
    verdict = []
    for t, title in TESTS.items():
        # Per round and language: both builds' ns/call and what hooktrace added.
        per = {lang: [{"plain": p[t], "hooktrace": h[t], "added": h[t] - p[t],
                       "share": min(p[t + " share"], h[t + " share"])}
                      for p, h in zip(results[(lang, "plain")], results[(lang, "hooktrace")])]
               for lang in langs}
        print("## %s" % title)
        print()
        benchlib.ratio_table(
            langs, per, langs[0], [Measure("added", "added ns/call", "difference", digits=1,
                                           ratio_digits=1)],
            extra=(["added min..max", "plain ns/call", "hooktrace ns/call", "CPU share (min)"],
                   lambda lang: ["%.1f..%.1f" % (min(values(per[lang], "added")),
                                                 max(values(per[lang], "added"))),
                                 "%.1f" % median(values(per[lang], "plain")),
                                 "%.1f" % median(values(per[lang], "hooktrace")),
                                 "%.2f" % min(values(per[lang], "share"))]),
            label_title="language")
        for lang in langs[1:]:
            verdict.append((title, lang, median(benchlib.differences(per[lang], per[langs[0]],
                                                                     "added")),
                            median(values(per[lang], "added")),
                            median(values(per[langs[0]], "added"))))
    print("%d runs were re-run for a CPU share below %.2f.  Every hooktrace run's JSON "
          "profile counted each MPI_Send and MPI_Allreduce exactly once.  Load average "
          "after: %s." % (retried[0], SHARE_WARN, benchlib.loadavg()))
    print()
    for title, lang, d, a, c in verdict:
        print("- %s, %s: hooktrace adds %.1f ns per call (C: %.1f); Fortran − C: **%+.1f ns** "
              "per call" % (title, lang, a, c, d))


if __name__ == "__main__":
    main()
