#!/usr/bin/env python3
"""MPI_T: the added cost per MPI call of reading 0, 1 and 10 performance
variables around it (make bench-mpit; see BENCHMARKS.md, "MPI wrappers").

Runs bench/mpit_calls (libhooktrace) and bench/mpit_calls_plain with one
rank under the MPI launcher, once per configuration, --rounds times
interleaved, and prints a Markdown table of the medians:

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
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

ONE = "^pml_ob1_unexpected_msgq_length$"
TEN = "^(pml_ob1_(unexpected_msgq|posted_recvq)_length|coll_monitoring_.*)$"
CONFIGS = [
    ("plain", None, None),
    ("MPI_T off", "hooktrace", {"mpi_t": {"enabled": False}}),
    ("0 pvars", "hooktrace", {}),
    ("1 pvar", "hooktrace", {"mpi_t": {"pvars": [ONE]}}),
    ("10 pvars", "hooktrace", {"mpi_t": {"pvars": [TEN]}}),
    ("10 pvars, read_interval_us 100", "hooktrace",
     {"mpi_t": {"pvars": [TEN], "read_interval_us": 100}}),
]
TESTS = [("send0", "MPI_Send of 0 bytes to MPI_PROC_NULL"),
         ("ar8", "8-byte MPI_Allreduce on MPI_COMM_SELF")]


def launch(args, exe, config, workdir):
    env = dict(os.environ)
    for key in ("HOOKTRACE_CONFIG", "HOOKTRACE_OFF", "HOOKTRACE_OUTPUT_DIRECTORY"):
        env.pop(key, None)
    cmd = [args.mpiexec]
    if args.mpi == "ompi-c":
        env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                    "OMPI_MCA_btl": "self,vader", "OMPI_MCA_pml_monitoring_enable": "2"})
        cmd.append("--oversubscribe")
    if config is not None:
        path = os.path.join(workdir, "config.json")
        with open(path, "w") as f:
            json.dump(config, f)
        env["HOOKTRACE_CONFIG"] = path
    cmd += ["-n", "1", exe, "-n", str(args.iterations), "-r", str(args.reps)]
    out = subprocess.run(cmd, cwd=workdir, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, universal_newlines=True, timeout=600)
    if out.returncode != 0:
        sys.exit("%s failed (%d):\n%s" % (" ".join(cmd), out.returncode, out.stderr))
    result = {}
    for line in out.stdout.splitlines():
        fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "test" in fields:
            result[fields["test"]] = (float(fields["ns_per_call"]), float(fields["cpu_share"]))
    read = None
    json_path = os.path.join(workdir, os.path.basename(exe) + ".json")
    if config is not None and os.path.exists(json_path):
        with open(json_path) as f:
            read = len(json.load(f).get("mpi_t", {}).get("pvars", []))
    return result, read


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
    print("machine: %s; %s; load %s" % (benchlib.cpu_model(), benchlib.mpi_version(args.mpiexec),
                                        benchlib.loadavg()))
    print("started %s UTC; %d rounds x %d reps x %d calls per test"
          % (time.strftime("%Y-%m-%d %H:%M", time.gmtime()), args.rounds, args.reps,
             args.iterations))
    samples = {(name, t): [] for name, _, _ in CONFIGS for t, _ in TESTS}
    shares = {name: 1.0 for name, _, _ in CONFIGS}
    read = {}
    start = time.time()
    for _ in range(args.rounds):
        for name, build, config in CONFIGS:
            workdir = tempfile.mkdtemp(prefix="hooktrace-bench-mpit-")
            try:
                result, n = launch(args, exes[build], config, workdir)
            finally:
                shutil.rmtree(workdir, ignore_errors=True)
            read[name] = n
            for t, _ in TESTS:
                ns, share = result[t]
                samples[(name, t)].append(ns)
                shares[name] = min(shares[name], share)
    median = {k: statistics.median(v) for k, v in samples.items()}
    print("load after: %s; took %.0f s" % (benchlib.loadavg(), time.time() - start))
    print()
    head = "| configuration | pvars read |"
    rule = "|---|---:|"
    for t, what in TESTS:
        head += " %s ns/call | added vs 0 pvars |" % t
        rule += "---:|---:|"
    print(head + " CPU share (min) |")
    print(rule + "---:|")
    for name, build, _ in CONFIGS:
        row = "| %s | %s |" % (name, "-" if read.get(name) is None else read[name])
        for t, _ in TESTS:
            added = median[(name, t)] - median[("0 pvars", t)]
            row += " %.1f | %s |" % (median[(name, t)], "%+.1f" % added if build else "-")
        print(row + " %.2f |" % shares[name])
    print()
    for t, what in TESTS:
        print("%s: %s" % (t, what))


if __name__ == "__main__":
    main()
