#!/usr/bin/env python3
"""What hooktrace adds to MPI_Finalize, in wall time, against the number of
ranks (issue 14: at 16 ranks oversubscribed on 2 cores, <= 60 ms added).

Runs bench/halo (a 2-D halo exchange, a short run: -n 256 -i 20) built
without hooktrace and with it (-finstrument-functions, default settings),
on each number of ranks, interleaved, for --rounds rounds.  With
HALO_TIME_FINALIZE set, every rank enters MPI_Finalize after a barrier and
prints how long MPI_Finalize took it; a run's figure is the slowest rank's
(the job ends when the last rank does).  Prints a markdown table: the
median of that figure per build, and the median over rounds of the
difference (hooktrace - plain) in the same round.

Usage (from the build directory; `make bench-finalize` does this):
    python3 bench/finalize_cost.py [--builddir DIR] [--mpiexec mpirun] [--mpi ompi-c|mpich]
                                   [--ranks 2,4,8,16] [--rounds 5]
Stdlib only; every run happens in its own temporary directory."""
import argparse
import datetime
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import cpu_model, loadavg, mpi_version  # noqa: E402

HALO_ARGS = ["-n", "256", "-i", "20"]


def launch(args, ranks, exe):
    if args.mpi == "mpich":
        cmd = shlex.split(args.mpiexec) + ["-n", str(ranks)]
    else:
        cmd = shlex.split(args.mpiexec) + ["-np", str(ranks), "--oversubscribe"]
    env = dict(os.environ, HALO_TIME_FINALIZE="1", OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    for key in ("HOOKTRACE_CONFIG", "HOOKTRACE_OFF"):
        env.pop(key, None)
    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-finalize-")
    try:
        done = subprocess.run(cmd + [exe] + HALO_ARGS, cwd=scratch, env=env, timeout=300,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    times = [float(t) for t in re.findall(r"^finalize_s=([0-9.]+) rank=\d+$", done.stderr, re.M)]
    if done.returncode != 0 or len(times) != ranks:
        sys.exit("finalize_cost: %s on %d ranks: exit %d, %d of %d times\n%s"
                 % (exe, ranks, done.returncode, len(times), ranks, done.stderr[-2000:]))
    return max(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--mpiexec", default="mpirun")
    ap.add_argument("--mpi", default="ompi-c")
    ap.add_argument("--ranks", default="2,4,8,16")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    bindir = os.path.abspath(os.path.join(args.builddir, "bench"))
    builds = {name: os.path.join(bindir, "halo_" + name) for name in ("plain", "hooktrace")}
    for exe in builds.values():
        if not os.access(exe, os.X_OK):
            sys.exit("finalize_cost: %s not built: run `make bench-finalize`" % exe)
    counts = [int(r) for r in args.ranks.split(",")]

    print("# MPI_Finalize: time added by hooktrace")
    print()
    print("- machine: %s, %d online CPUs; MPI: %s" % (cpu_model(), os.cpu_count() or 0,
                                                    mpi_version(shlex.split(args.mpiexec)[0])))
    print("- load average before: %s; date: %s" % (
        loadavg(), datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")))
    print("- command: %s" % " ".join(["python3", "bench/finalize_cost.py"] + sys.argv[1:]))
    print("- program: bench/halo %s; a run's figure: its slowest rank's MPI_Finalize" % " ".join(HALO_ARGS))
    print()
    print("| ranks | plain ms (median) | hooktrace ms (median) | added ms (median of per-round differences) | added min..max |")
    print("|---:|---:|---:|---:|---:|")
    for ranks in counts:
        got = {name: [] for name in builds}
        for r in range(args.rounds):
            order = list(builds.items())
            if r % 2:
                order.reverse()
            for name, exe in order:
                got[name].append(launch(args, ranks, exe))
            print("finalize: %d ranks, round %d/%d done" % (ranks, r + 1, args.rounds),
                  file=sys.stderr, flush=True)
        added = [1e3 * (h - p) for h, p in zip(got["hooktrace"], got["plain"])]
        print("| %d | %.1f | %.1f | %.1f | %.1f..%.1f |" % (
            ranks, 1e3 * statistics.median(got["plain"]), 1e3 * statistics.median(got["hooktrace"]),
            statistics.median(added), min(added), max(added)), flush=True)
    print()
    print("- load average after: %s" % loadavg())


if __name__ == "__main__":
    main()
