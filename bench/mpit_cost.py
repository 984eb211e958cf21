#!/usr/bin/env python3
"""MPI_T: the added cost per MPI call of reading 0, 1 and 10 performance
variables around it (make bench-mpit; see BENCHMARKS.md, "MPI wrappers").

Runs bench/mpit_calls (libhooktrace) and bench/mpit_calls_plain with one
rank under the MPI launcher, once per configuration, --rounds times
alternated (the order rotating each round), and prints a Markdown table
per test of the median ns per call and the cost added to "0 pvars" of the
same round (median, range):

  plain       no hooktrace
  MPI_T off   hooktrace, "mpi_t": {"enabled": false}
  0 pvars     hooktrace, MPI_T on (control variables read), no pvar selected
  1 pvar      pml_ob1_unexpected_msgq_length
  10 pvars    those two pml_ob1 queue lengths and the 8 coll_monitoring_*
              counters (Open MPI; the monitoring component is enabled,
              OMPI_MCA_pml_monitoring_enable=2, in every run, the plain one
              included, so its own cost is in every figure)
  10 pvars, read_interval_us 100
              the same, read after a call at most every 100 us

The number of pvars hooktrace actually read is taken from each run's JSON
("mpi_t"."pvars"); MPICH as Debian builds it exposes none, so there its
1- and 10-pvar rows read nothing, and the table says so."""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import Measure, values  # noqa: E402

ONE = "^pml_ob1_unexpected_msgq_length$"
TEN = "^(pml_ob1_(unexpected_msgq|posted_recvq)_length|coll_monitoring_.*)$"
# name: (build, config)
CONFIGS = {
    "plain": (None, None),
    "MPI_T off": ("hooktrace", {"mpi_t": {"enabled": False}}),
    "0 pvars": ("hooktrace", {}),
    "1 pvar": ("hooktrace", {"mpi_t": {"pvars": [ONE]}}),
    "10 pvars": ("hooktrace", {"mpi_t": {"pvars": [TEN]}}),
    "10 pvars, read_interval_us 100": ("hooktrace",
                                       {"mpi_t": {"pvars": [TEN], "read_interval_us": 100}}),
}
BASE = "0 pvars"
TESTS = {"send0": "MPI_Send of 0 bytes to MPI_PROC_NULL",
         "ar8": "8-byte MPI_Allreduce on MPI_COMM_SELF"}


def pvars_read(exe):
    """How many pvars the run's JSON says hooktrace read, or None."""
    def look(cwd):
        path = os.path.join(cwd, os.path.basename(exe) + ".json")
        if not os.path.exists(path):
            return None
        with open(path) as f:
            return len(json.load(f).get("mpi_t", {}).get("pvars", []))
    return look


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--mpi", default="ompi-c")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=200000)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    bench = os.path.join(os.path.abspath(args.builddir), "bench")
    exes = {None: os.path.join(bench, "mpit_calls_plain"),
            "hooktrace": os.path.join(bench, "mpit_calls")}
    benchlib.header("MPI_T: added cost per MPI call", "bench/mpit_cost.py", [
        "%s; %d rounds x %d reps x %d calls per test"
        % (benchlib.mpi_version(args.mpiexec), args.rounds, args.reps, args.iterations)])
    env, launch = {}, [args.mpiexec]
    if args.mpi == "ompi-c":
        env = {"OMPI_MCA_btl": "self,vader", "OMPI_MCA_pml_monitoring_enable": "2"}
        launch.append("--oversubscribe")

    def run_one(name):
        build, config = CONFIGS[name]
        r = benchlib.run(launch + ["-n", "1", exes[build], "-n", str(args.iterations),
                                   "-r", str(args.reps)], config, env,
                         look=pvars_read(exes[build]) if config is not None else None,
                         tool="mpit_cost")
        measured = {"read": r.seen}
        for line in r.stdout.splitlines():
            fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
            if "test" in fields:
                measured[fields["test"]] = float(fields["ns_per_call"])
                measured[fields["test"] + " share"] = float(fields["cpu_share"])
        return measured

    results = benchlib.alternate(list(CONFIGS), args.rounds, run_one, "mpit_cost")
    print("load after: %s" % benchlib.loadavg())
    print()
    for t, what in TESTS.items():
        print("## %s: %s" % (t, what))
        print()
        benchlib.ratio_table(
            list(CONFIGS), results, lambda name: None if name == "plain" else BASE,
            [Measure(t, "ns/call", "difference", digits=1, ratio_digits=1)],
            extra=(["pvars read", "CPU share (min)"], lambda name: [
                "-" if results[name][-1]["read"] is None else results[name][-1]["read"],
                "%.2f" % min(values(results[name], t + " share"))]),
            label_title="configuration")


if __name__ == "__main__":
    main()
