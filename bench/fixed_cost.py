#!/usr/bin/env python3
"""hooktrace's fixed cost on a short MPI job, and where it goes (issue 24,
point 4: a 4-rank job of 1-2 s on 2 cores, from mpirun to the prompt,
<= 1.10x plain with default settings).

bench/halo.c (a 2-D Jacobi halo exchange; -n 1024 -i 400 by default) is
built three ways in a scratch directory:

  plain    mpicc -O2
  linked   the same linked with libhooktrace (`hooktrace --no-instrument
           mpicc`: the MPI wrappers, start-up, merge and every default
           output, but no hook in the loop: what a short run pays whatever
           its loop costs)
  full     -finstrument-functions and hooktrace's GCC plugin (`hooktrace
           mpicc`; its per-point functions make the loop itself slower,
           which is issue 24's point 1, not a fixed cost)

and `run` is the plain binary under `hooktrace run` (libhooktrace
preloaded: MPI calls only).  Each is run on each number of ranks
(--ranks, oversubscribed), alternated (the order rotating each round),
--rounds times, with default settings (no config file).  Per run: the wall
time from starting mpirun to its exit; the loop's time (halo's elapsed_s,
rank 0); the slowest rank's MPI_Finalize (HALO_TIME_FINALIZE).  "outside" =
wall - loop: start-up, MPI_Finalize and exit.  Tables: medians per variant,
and the median (range) over rounds of the ratio to plain, and of the
difference from plain's "outside", in the same round.

The breakdown (default on; --no-breakdown) runs the linked build again with
outputs.progress_after_ms 0 (rank 0 prints when it named the functions,
built its profile, merged the ranks and wrote the files, in seconds since
MPI_Finalize began) and with one output or MPI_T turned off at a time: the
difference in the slowest MPI_Finalize against all outputs on, in the same
round, is what that output (or MPI_T's late start-up on rank 0) costs.

Usage (from the build directory; `make bench-fixed` does this):
    python3 bench/fixed_cost.py [--builddir DIR] [--mpiexec mpirun] [--mpi ompi-c|mpich]
                                [--ranks 1,4,16] [--rounds 5] [--halo-args '-n 1024 -i 400']
                                [--no-breakdown] [--variants plain,linked,full,run]
                                [--source OTHER.c|.cpp --cflags '-fopenmp']
--source: another MPI program that prints elapsed_s=<seconds of its main loop>
(rank 0), e.g. the LULESH MPI proxy for `hooktrace run` (--variants run).
Stdlib only; every run happens in its own temporary directory."""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import Measure, median, values  # noqa: E402

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "halo.c")


def build(args, scratch):
    lib = os.path.join(os.path.abspath(args.builddir), ".libs")
    plugin = os.path.join(os.path.abspath(args.builddir), "hooktrace_gcc.so")
    link = ["-L" + lib, "-Wl,-rpath," + lib, "-Wl,--push-state,--no-as-needed", "-lhooktrace",
            "-Wl,--pop-state"]
    exes = {}
    for name, flags in (("plain", []), ("linked", link),
                        ("full", ["-finstrument-functions"] +
                         (["-fplugin=" + plugin] if os.path.exists(plugin) else []) + link)):
        if name not in args.variants.split(",") + ["plain"]:
            continue
        exe = os.path.join(scratch, os.path.splitext(os.path.basename(args.source))[0] + "_" + name)
        cc = args.mpicxx if args.source.endswith((".cpp", ".cc")) else args.mpicc
        subprocess.run([cc, "-O2", "-g", args.source, "-o", exe] + shlex.split(args.cflags) + flags,
                       check=True)
        exes[name] = exe
    exes["run"] = exes["plain"]
    # The library file: an installed libhooktrace.so is an ld script.
    return exes, os.path.join(lib, "libhooktrace.so.0")


def outputs(exe):
    """What a run of exe wrote: the bytes of its output files and the MPI_T
    start-up its JSON reports."""
    def look(cwd):
        name = os.path.basename(exe)
        out_bytes = sum(os.path.getsize(os.path.join(cwd, f)) for f in os.listdir(cwd)
                        if f.startswith(name))
        mpit = None
        if os.path.exists(os.path.join(cwd, name + ".json")):
            with open(os.path.join(cwd, name + ".json")) as f:
                mpit = json.load(f).get("mpi_t", {}).get("startup_s")
        return out_bytes, mpit
    return look


def launch(args, ranks, exe, scratch, preload=None, config=None):
    """One job: its wall time, loop, slowest MPI_Finalize, the time outside
    the loop, its output bytes, MPI_T's start-up and rank 0's progress."""
    cmd = shlex.split(args.mpiexec)
    # Every rank gets HALO_TIME_FINALIZE (and the config): named to the
    # launcher, which does not hand the whole environment on everywhere.
    env = {"HALO_TIME_FINALIZE": "1", "LD_PRELOAD": None}
    if config is not None:
        path = os.path.join(scratch, "hooktrace.json")
        with open(path, "w") as f:
            json.dump(config, f)
        env["HOOKTRACE_CONFIG"] = path
    if args.mpi == "mpich":
        cmd += ["-n", str(ranks)]
        if preload:
            cmd += ["-genv", "LD_PRELOAD", preload]
        if config is not None:
            cmd += ["-genv", "HOOKTRACE_CONFIG", env["HOOKTRACE_CONFIG"]]
    else:
        cmd += ["-np", str(ranks), "--oversubscribe", "-x", "HALO_TIME_FINALIZE"]
        if preload:
            cmd += ["-x", "LD_PRELOAD=" + preload]
        if config is not None:
            cmd += ["-x", "HOOKTRACE_CONFIG"]
    r = benchlib.run(cmd + [exe] + shlex.split(args.halo_args), None, env, scratch,
                     args.timeout, look=outputs(exe), tool="fixed_cost")
    fin = [float(t) for t in re.findall(r"^finalize_s=([0-9.]+) rank=\d+$", r.stderr, re.M)]
    loop = re.search(r"elapsed_s=([0-9.]+)", r.stdout)
    if (args.source == SRC and len(fin) != ranks) or not loop:
        sys.exit("fixed_cost: %s on %d ranks: no loop or finalize time\n%s"
                 % (exe, ranks, r.stderr[-2000:]))
    # With outputs.progress_after_ms 0, rank 0 says when it was done.
    done = re.search(r"^hooktrace: ([0-9.]+) s: done", r.stderr, re.M)
    return {"wall": r.wall, "loop": float(loop.group(1)), "finalize": max(fin) if fin else 0.0,
            "outside": r.wall - float(loop.group(1)), "bytes": r.seen[0], "mpit": r.seen[1],
            "done": float(done.group(1)) if done else None}


def ratios_table(args, exes, preload, scratch):
    variants = args.variants.split(",")
    for ranks in args.ranks:
        results = benchlib.alternate(
            variants, args.rounds,
            lambda v: launch(args, ranks, exes[v], scratch, preload if v == "run" else None),
            "fixed_cost, %d ranks" % ranks)
        print("## %d rank%s" % (ranks, "" if ranks == 1 else "s"))
        print()
        benchlib.ratio_table(
            variants, results, "plain",
            [Measure("wall", "wall s"), Measure("outside", "outside the loop s", "difference")],
            extra=(["loop s", "slowest MPI_Finalize s", "output bytes"], lambda v: [
                "%.3f" % median(values(results[v], "loop")),
                "%.3f" % median(values(results[v], "finalize")),
                "%d" % median(values(results[v], "bytes"))]))


OFF = {"all default outputs": None,
       "outputs.html false": {"outputs": {"html": False}},
       "outputs.json false (no HTML either)": {"outputs": {"json": False}},
       "outputs.logfile false": {"outputs": {"logfile": False}},
       "outputs.folded false": {"outputs": {"folded": False}},
       "mpi_t.enabled false": {"mpi_t": {"enabled": False}}}
BASE = "all default outputs"


def breakdown(args, exes, scratch):
    for ranks in args.ranks:
        def run_one(name):
            c = {"outputs": {"progress_after_ms": 0}}
            for k, v in (OFF[name] or {}).items():
                c.setdefault(k, {}).update(v)
            return launch(args, ranks, exes["linked"], scratch, config=c)

        results = benchlib.alternate(list(OFF), args.rounds, run_one,
                                     "fixed_cost breakdown, %d ranks" % ranks)
        print("## Where MPI_Finalize goes, %d rank%s" % (ranks, "" if ranks == 1 else "s"))
        print()

        def cells(name):
            done, mpit = values(results[name], "done"), values(results[name], "mpit")
            return ["%.3f" % median(done) if done else "-", "%.3f" % median(mpit) if mpit else "-"]
        benchlib.ratio_table(
            list(OFF), results, BASE,
            [Measure("finalize", "slowest MPI_Finalize s", "difference")],
            extra=(["rank 0 done (progress, 0.1 s steps) s",
                    "MPI_T start-up s (rank 0, beside the merge)"], cells),
            label_title="configuration")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--mpiexec", default="mpirun")
    ap.add_argument("--mpicc", default="mpicc")
    ap.add_argument("--mpicxx", default="mpicxx")
    ap.add_argument("--source", default=SRC,
                    help="another MPI program printing elapsed_s=<loop seconds> (rank 0)")
    ap.add_argument("--cflags", default="", help="extra compile flags, e.g. -fopenmp")
    ap.add_argument("--mpi", default="ompi-c")
    ap.add_argument("--ranks", default="1,4,16")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--halo-args", default="-n 1024 -i 400")
    ap.add_argument("--variants", default="plain,linked,full,run")
    ap.add_argument("--no-breakdown", action="store_true")
    args = ap.parse_args()
    args.ranks = [int(r) for r in args.ranks.split(",")]
    if "plain" not in args.variants.split(","):
        args.variants = "plain," + args.variants
    benchlib.header("hooktrace fixed cost", "bench/fixed_cost.py", [
        "%s; %s %s, %d rounds, variants alternated" % (
            benchlib.mpi_version(args.mpiexec), os.path.basename(args.source), args.halo_args,
            args.rounds)])
    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-fixed-")
    try:
        exes, preload = build(args, scratch)
        ratios_table(args, exes, preload, scratch)
        if not args.no_breakdown and "linked" in exes:
            breakdown(args, exes, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("- load average after: %s" % benchlib.loadavg())


if __name__ == "__main__":
    main()
