#!/usr/bin/env python3
"""What hooktrace adds to MPI_Finalize, in wall time, against the number of
ranks (issue 14: at 16 ranks oversubscribed on 2 cores, <= 60 ms added).

Runs bench/halo (a 2-D halo exchange, a short run: -n 256 -i 20) built
without hooktrace and with it (-finstrument-functions, default settings),
on each number of ranks, alternated, for --rounds rounds.  With
HALO_TIME_FINALIZE set, every rank enters MPI_Finalize after a barrier and
prints how long MPI_Finalize took it; a run's figure is the slowest rank's
(the job ends when the last rank does).  Prints a markdown table: the
median of that figure per build, and the median (range) over rounds of
the difference (hooktrace − plain) in the same round.

Usage (from the build directory; `make bench-finalize` does this):
    python3 bench/finalize_cost.py [--builddir DIR] [--mpiexec mpirun] [--mpi ompi-c|mpich]
                                   [--ranks 2,4,8,16] [--rounds 5]
Stdlib only; every run happens in its own temporary directory."""
import argparse
import os
import re
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import Measure  # noqa: E402

HALO_ARGS = ["-n", "256", "-i", "20"]


def launch(args, ranks, exe):
    """The slowest rank's MPI_Finalize, in seconds, of one run."""
    if args.mpi == "mpich":
        cmd = shlex.split(args.mpiexec) + ["-n", str(ranks)]
    else:
        cmd = shlex.split(args.mpiexec) + ["-np", str(ranks), "--oversubscribe"]
    r = benchlib.run(cmd + [exe] + HALO_ARGS, None, {"HALO_TIME_FINALIZE": "1"}, timeout=300,
                     tool="finalize_cost")
    times = [float(t) for t in re.findall(r"^finalize_s=([0-9.]+) rank=\d+$", r.stderr, re.M)]
    if len(times) != ranks:
        sys.exit("finalize_cost: %s on %d ranks: %d of %d times\n%s"
                 % (exe, ranks, len(times), ranks, r.stderr[-2000:]))
    return {"finalize": max(times)}


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

    benchlib.header("MPI_Finalize: time added by hooktrace", "bench/finalize_cost.py", [
        "MPI: %s" % benchlib.mpi_version(shlex.split(args.mpiexec)[0]),
        "program: bench/halo %s; a run's figure: its slowest rank's MPI_Finalize"
        % " ".join(HALO_ARGS)])
    for ranks in (int(r) for r in args.ranks.split(",")):
        results = benchlib.alternate(list(builds), args.rounds,
                                     lambda name: launch(args, ranks, builds[name]),
                                     "finalize, %d ranks" % ranks)
        print("## %d ranks" % ranks)
        print()
        benchlib.ratio_table(list(builds), results, "plain",
                             [Measure("finalize", "MPI_Finalize ms", "difference", digits=1,
                                      ratio_digits=1, scale=1e3)], label_title="build")
    print("- load average after: %s" % benchlib.loadavg())


if __name__ == "__main__":
    main()
