#!/usr/bin/env python3
"""Instructions the MPI wrappers add on each kind of communicator (issue 36
point 10): one iteration of an 8-byte MPI_Sendrecv to the rank itself and
an 8-byte MPI_Allreduce (bench/comm_calls.c), one rank, on MPI_COMM_WORLD,
MPI_COMM_SELF, an MPI_Comm_split communicator and an MPI_Cart_create one.

Each build (comm_calls_plain, comm_calls_hooktrace: linked with
libhooktrace, not instrumented) runs under `valgrind --tool=callgrind
--toggle-collect=cc_measured`, which counts only the measured loop; the
added instructions per iteration are (hooktrace - plain) / iterations.
Instruction counts do not depend on the load of the machine: one run each.

Usage (from the build directory; `make bench-comm` does this, and in the
MPICH build directory mpi-mpich too):
    python3 bench/comm_cost.py [--builddir DIR] [--mpiexec mpirun] [-n 2000]

Target: <= 500 added instructions per iteration on every communicator.
Stdlib only; needs valgrind.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import bench_env, cpu_model, mpi_version  # noqa: E402

TARGET = 500
COMMS = [("world", "MPI_COMM_WORLD"), ("self", "MPI_COMM_SELF"),
         ("split", "MPI_Comm_split of MPI_COMM_WORLD"),
         ("cart", "MPI_Cart_create (1-D, periodic)")]


def instructions(mpiexec, prog, comm, iterations, work):
    """Instructions callgrind counted in cc_measured (inclusive) in one run."""
    out = os.path.join(work, "cg.out")
    cmd = mpiexec + ["-n", "1", "valgrind", "--tool=callgrind", "--quiet",
                     "--toggle-collect=cc_measured", "--callgrind-out-file=" + out,
                     prog, "-c", comm, "-n", str(iterations)]
    env = bench_env()
    subprocess.run(cmd, cwd=work, env=env, check=True, stdout=subprocess.DEVNULL, timeout=1200)
    with open(out) as f:
        m = re.search(r"^(?:summary|totals): (\d+)", f.read(), re.M)
    if not m:
        raise SystemExit("comm_cost: no totals in %s's callgrind output" % prog)
    os.unlink(out)
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--mpiexec", default="mpirun")
    ap.add_argument("-n", "--iterations", type=int, default=2000)
    args = ap.parse_args()
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind not found (apt-get install valgrind)")
    mpiexec = shlex.split(args.mpiexec)
    bindir = os.path.join(os.path.abspath(args.builddir), "bench")
    work = tempfile.mkdtemp(prefix="ht-comm-cost-")
    rows = []
    try:
        for comm, title in COMMS:
            plain, traced = (instructions(mpiexec, os.path.join(bindir, "comm_calls_" + v), comm,
                                          args.iterations, work)
                             for v in ("plain", "hooktrace"))
            rows.append((title, plain / args.iterations, traced / args.iterations))
            print("  %s: %.0f -> %.0f instructions per iteration"
                  % (comm, rows[-1][1], rows[-1][2]), file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("CPU: %s; %s; %d iterations" % (cpu_model(), mpi_version(args.mpiexec),
                                          args.iterations))
    print()
    print("| communicator | plain Ir per iteration | with hooktrace | added |")
    print("|---|---:|---:|---:|")
    for title, plain, traced in rows:
        print("| %s | %.0f | %.0f | %.0f |" % (title, plain, traced, traced - plain))
    worst = max(t - p for _, p, t in rows)
    print()
    print("Target: <= %d added per iteration on every communicator: %s (worst %.0f)"
          % (TARGET, "met" if worst <= TARGET else "NOT met", worst))


if __name__ == "__main__":
    main()
