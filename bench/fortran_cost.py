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
The six programs run interleaved (the order rotates each round) for
--rounds rounds.  Added ns/call is hooktrace - plain of the same language
in the same round; Fortran - C is the Fortran added cost minus the C added
cost of the same round.  The table gives medians over the rounds (and
min, max of the differences).

Usage (from the build directory; `make bench-fortran` does this):
    python3 bench/fortran_cost.py [--builddir DIR] [--mpiexec mpirun]
        [--mpi ompi-c|mpich] [--rounds 7] [--iterations 500000] [--reps 5]

Stdlib only.  Every run happens in its own empty temporary directory (the
profile lands there), which is deleted afterwards; a hooktrace run must
leave a profile there and a plain run nothing.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import bench_env, cpu_model, fresh_run_dir, loadavg, mpi_version  # noqa: E402

SHARE_WARN = 0.95
TESTS = [("send", "MPI_Send to MPI_PROC_NULL (8 bytes)"),
         ("ar8", "8-byte MPI_Allreduce (1 rank)")]
# (language label, program stem)
LANGS = [("C", "fortran_calls_c"),
         ("Fortran `use mpi`", "fortran_calls_f90"),
         ("Fortran `use mpi_f08`", "fortran_calls_f08")]
PLAIN = "plain"
ON = "hooktrace, logging on"
VARIANTS = [(PLAIN, "_plain", False), (ON, "_hooktrace", True)]


def run(args, scratch, prog):
    """Runs prog under mpiexec in an empty directory; returns (stdout,
    names of the files the run left there, calls per MPI routine according
    to the JSON profile, or None without one)."""
    env = bench_env()
    with fresh_run_dir(scratch, None, env) as cwd:
        cmd = (shlex.split(args.mpiexec) + shlex.split(args.mpiexec_args)
               + [os.path.join(os.path.abspath(args.builddir), "bench", prog),
                  str(args.iterations), str(args.reps)])
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=600)
        if proc.returncode != 0:
            sys.exit("fortran_cost: %s failed (status %d):\n%s%s"
                     % (" ".join(cmd), proc.returncode, proc.stdout, proc.stderr))
        written = sorted(os.listdir(cwd))
        return proc.stdout, written, profile_calls(cwd, written)


def profile_calls(cwd, written):
    """Calls per function summed over the stacks of the JSON profiles in
    cwd, or None if there is none."""
    calls, seen = {}, False
    for name in written:
        if not name.endswith(".json"):
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
    values, shares = {}, {}
    for line in out.splitlines():
        m = re.match(r"test=(\w+) .*ns_per_call=([0-9.]+) .*cpu_share=([0-9.]+)", line)
        if m:
            values[m.group(1)] = float(m.group(2))
            shares[m.group(1)] = float(m.group(3))
    if set(values) != {t for t, _ in TESTS}:
        sys.exit("fortran_cost: unexpected output from %s:\n%s" % (prog, out))
    return values, shares


def med(xs):
    return statistics.median(xs)


def rng(xs):
    return "%.1f" % min(xs), "%.1f" % max(xs)


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
    langs = [l for l in LANGS if not (args.skip_f08 and l[1].endswith("f08"))]
    bindir = os.path.join(os.path.abspath(args.builddir), "bench")
    runs = [(lang, stem, label, stem + suffix, profiled)
            for lang, stem in langs for label, suffix, profiled in VARIANTS]
    for *_, prog, _ in runs:
        if not os.access(os.path.join(bindir, prog), os.X_OK):
            sys.exit("fortran_cost: %s/%s not built: run `make bench-fortran`" % (bindir, prog))

    print("# Fortran against C: added cost per MPI call")
    print()
    print("- machine: %s, %d CPUs, %s %s" % (cpu_model(), os.cpu_count() or 0,
                                            platform.system(), platform.release()))
    print("- MPI: %s; launch: %s %s" % (mpi_version(shlex.split(args.mpiexec)[0]),
                                        args.mpiexec, args.mpiexec_args))
    print("- date: %s UTC; load average before: %s"
          % (datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M"), loadavg()))
    print()
    sys.stdout.flush()

    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-fortran-")
    results = {(lang, label, t): [] for lang, _, label, _, _ in runs for t, _ in TESTS}
    shares = {(lang, label, t): [] for lang, _, label, _, _ in runs for t, _ in TESTS}
    retried = 0
    try:
        for r in range(args.rounds):
            order = runs[r % len(runs):] + runs[:r % len(runs)]
            for lang, _, label, prog, profiled in order:
                for attempt in range(args.retries + 1):
                    out, written, calls = run(args, scratch, prog)
                    values, share = parse(out, prog)
                    if min(share.values()) >= SHARE_WARN:
                        break
                    if attempt < args.retries:
                        retried += 1
                if profiled and not written:
                    sys.exit("fortran_cost: %s wrote no profile: was hooktrace on?" % prog)
                if not profiled and written:
                    sys.exit("fortran_cost: %s wrote %s" % (prog, written))
                # Every call went through exactly one wrapper: the profile counts
                # the timed and warm-up calls once (a Fortran call counted again
                # by a C wrapper underneath would show twice).
                if profiled:
                    want = args.iterations * args.reps + args.iterations // 10 + 1
                    for routine in ("MPI_Send", "MPI_Allreduce"):
                        got = (calls or {}).get(routine)
                        if got != want:
                            sys.exit("fortran_cost: %s: the profile counts %s calls of %s, "
                                     "expected %d" % (prog, got, routine, want))
                for t, _ in TESTS:
                    results[(lang, label, t)].append(values[t])
                    shares[(lang, label, t)].append(share[t])
            print("round %d/%d done" % (r + 1, args.rounds), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    load_after = loadavg()

    added = {}
    for lang, _ in langs:
        for t, _ in TESTS:
            added[(lang, t)] = [h - p for h, p in zip(results[(lang, ON, t)],
                                                     results[(lang, PLAIN, t)])]

    print("ns per MPI call, 1 rank, %d calls per loop, median of %d loops per run; then "
          "the median over %d interleaved rounds.  Added = hooktrace - plain of the same "
          "language and round; Fortran - C = Fortran added - C added of the same round "
          "(median, and min..max over the rounds)."
          % (args.iterations, args.reps, args.rounds))
    print()
    print("| test | language | plain ns/call | hooktrace ns/call | added ns/call (median) "
          "| added min..max | Fortran − C added (median) | Fortran − C min..max "
          "| CPU share (min) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    verdict = []
    for t, title in TESTS:
        c_added = added[(langs[0][0], t)]
        for lang, _ in langs:
            a = added[(lang, t)]
            row = "| %s | %s | %.1f | %.1f | **%.1f** | %s..%s |" % (
                (title, lang, med(results[(lang, PLAIN, t)]), med(results[(lang, ON, t)]),
                 med(a)) + rng(a))
            if lang == langs[0][0]:
                row += " – | – |"
            else:
                d = [x - c for x, c in zip(a, c_added)]
                row += " **%+.1f** | %s..%s |" % ((med(d),) + rng(d))
                verdict.append((title, lang, med(d), med(a), med(c_added)))
            row += " %.2f |" % min(shares[(lang, PLAIN, t)] + shares[(lang, ON, t)])
            print(row)
    print()
    print("%d runs were re-run for a CPU share below %.2f.  Every hooktrace run's JSON "
          "profile counted each MPI_Send and MPI_Allreduce exactly once.  Load average "
          "after: %s." % (retried, SHARE_WARN, load_after))
    print()
    for title, lang, d, a, c in verdict:
        print("- %s, %s: hooktrace adds %.1f ns per call (C: %.1f); Fortran − C: **%+.1f ns** "
              "per call" % (title, lang, a, c, d))


if __name__ == "__main__":
    main()
