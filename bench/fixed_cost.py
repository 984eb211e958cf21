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
(--ranks, oversubscribed), interleaved, --rounds times, with default
settings (no config file).  Per run: the wall time from starting mpirun to
its exit; the loop's time (halo's elapsed_s, rank 0); the slowest rank's
MPI_Finalize (HALO_TIME_FINALIZE).  "outside" = wall - loop: start-up,
MPI_Finalize and exit.  Tables: medians per variant, and the median over
rounds of the ratio to plain in the same round.

The breakdown (--breakdown, default on) runs the linked build again with
outputs.progress_after_ms 0 (rank 0 prints when it named the functions,
built its profile, merged the ranks and wrote the files, in seconds since
MPI_Finalize began) and with one output or MPI_T turned off at a time: the
difference in the slowest MPI_Finalize against all outputs on is what that
output (or MPI_T's late start-up on rank 0) costs.

Usage (from the build directory; `make bench-fixed` does this):
    python3 bench/fixed_cost.py [--builddir DIR] [--mpiexec mpirun] [--mpi ompi-c|mpich]
                                [--ranks 1,4,16] [--rounds 5] [--halo-args '-n 1024 -i 400']
                                [--no-breakdown] [--variants plain,linked,full,run]
                                [--source OTHER.c|.cpp --cflags '-fopenmp']
--source: another MPI program that prints elapsed_s=<seconds of its main loop>
(rank 0), e.g. the LULESH MPI proxy for `hooktrace run` (--variants run).
Stdlib only; every run happens in its own temporary directory."""
import argparse
import datetime
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import cpu_model, loadavg, mpi_version  # noqa: E402

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


def launch(args, ranks, exe, preload=None, config=None):
    cmd = shlex.split(args.mpiexec)
    env = dict(os.environ, HALO_TIME_FINALIZE="1", OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    for key in ("HOOKTRACE_CONFIG", "HOOKTRACE_OFF", "LD_PRELOAD"):
        env.pop(key, None)
    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-fixed-")
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
    try:
        t0 = time.monotonic()
        done = subprocess.run(cmd + [exe] + shlex.split(args.halo_args), cwd=scratch, env=env,
                              timeout=args.timeout, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True)
        wall = time.monotonic() - t0
        out_bytes = sum(os.path.getsize(os.path.join(scratch, f)) for f in os.listdir(scratch)
                        if f.startswith(os.path.basename(exe)))
        mpit = None
        js = os.path.join(scratch, os.path.basename(exe) + ".json")
        if os.path.exists(js):
            with open(js) as f:
                mpit = json.load(f).get("mpi_t", {}).get("startup_s")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    fin = [float(t) for t in re.findall(r"^finalize_s=([0-9.]+) rank=\d+$", done.stderr, re.M)]
    loop = re.search(r"elapsed_s=([0-9.]+)", done.stdout)
    if done.returncode != 0 or (args.source == SRC and len(fin) != ranks) or not loop:
        sys.exit("fixed_cost: %s on %d ranks: exit %d\n%s" % (exe, ranks, done.returncode,
                                                            done.stderr[-2000:]))
    steps = {}
    for key, pattern in (("named", "named the functions"), ("built", r"merged \d+ threads? into"),
                         ("wrote", r"merged \d+ ranks and wrote"), ("done", "done")):
        m = re.search(r"^hooktrace: ([0-9.]+) s: " + pattern, done.stderr, re.M)
        if m:
            steps[key] = float(m.group(1))
    return {"wall": wall, "loop": float(loop.group(1)), "finalize": max(fin) if fin else 0.0,
            "outside": wall - float(loop.group(1)), "bytes": out_bytes, "mpit": mpit,
            "steps": steps}


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def ratios_table(args, exes, preload):
    variants = args.variants.split(",")
    print("| ranks | variant | wall s | loop s | outside the loop s | slowest MPI_Finalize s "
          "| output bytes | wall / plain | outside - plain's, s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for ranks in args.ranks:
        rows = {v: [] for v in variants}
        for _ in range(args.rounds):
            for v in variants:
                rows[v].append(launch(args, ranks, exes[v], preload if v == "run" else None))
        for v in variants:
            r = rows[v]
            ratio = med([x["wall"] / p["wall"] for x, p in zip(r, rows["plain"])])
            extra = med([x["outside"] - p["outside"] for x, p in zip(r, rows["plain"])])
            print("| %d | %s | %.3f | %.3f | %.3f | %.3f | %d | %.3f | %+.3f |"
                  % (ranks, v, med([x["wall"] for x in r]), med([x["loop"] for x in r]),
                     med([x["outside"] for x in r]), med([x["finalize"] for x in r]),
                     int(med([x["bytes"] for x in r])), ratio, extra))
        sys.stdout.flush()


OFF = [("all default outputs", None),
       ("outputs.html false", {"outputs": {"html": False}}),
       ("outputs.json false (no HTML either)", {"outputs": {"json": False}}),
       ("outputs.logfile false", {"outputs": {"logfile": False}}),
       ("outputs.folded false", {"outputs": {"folded": False}}),
       ("mpi_t.enabled false", {"mpi_t": {"enabled": False}})]


def breakdown(args, exes):
    print("\n| ranks | configuration | slowest MPI_Finalize s | difference s | rank 0 done "
          "(progress, 0.1 s steps) s | MPI_T start-up s (rank 0, beside the merge) |")
    print("|---|---|---|---|---|---|")
    for ranks in args.ranks:
        rows = {name: [] for name, _ in OFF}
        for _ in range(args.rounds):
            for name, cfg in OFF:
                c = {"outputs": {"progress_after_ms": 0}}
                for k, v in (cfg or {}).items():
                    c.setdefault(k, {}).update(v)
                rows[name].append(launch(args, ranks, exes["linked"], config=c))
        base = rows[OFF[0][0]]
        for name, _ in OFF:
            r = rows[name]

            def step(key):
                xs = [x["steps"][key] for x in r if key in x["steps"]]
                return "%.3f" % med(xs) if xs else "-"
            mp = [x["mpit"] for x in r if x["mpit"]]
            print("| %d | %s | %.3f | %+.3f | %s | %s |"
                  % (ranks, name, med([x["finalize"] for x in r]),
                     med([x["finalize"] - b["finalize"] for x, b in zip(r, base)]),
                     step("done"), "%.3f" % med(mp) if mp else "-"))
        sys.stdout.flush()


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
    print("# hooktrace fixed cost, %s" % datetime.datetime.now().strftime("%Y-%m-%d %H:%M"))
    print("# cpu: %s; %d cpus; load average before: %s; %s"
          % (cpu_model(), os.cpu_count() or 0, loadavg(), mpi_version(args.mpiexec)))
    print("# %s %s, %d rounds, variants interleaved in each round\n"
          % (os.path.basename(args.source), args.halo_args, args.rounds))
    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-fixed-build-")
    try:
        exes, preload = build(args, scratch)
        ratios_table(args, exes, preload)
        if not args.no_breakdown and "linked" in exes:
            breakdown(args, exes)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("\n# load average after: %s" % loadavg())


if __name__ == "__main__":
    main()
