#!/usr/bin/env python3
"""Instructions hooktrace adds to one MPI_Allreduce, against the number of
ranks (issue: collective bookkeeping must not grow with P).

Runs bench/mpi_calls_hooktrace -t ar8 (8-byte MPI_Allreduce in a loop) on
P ranks, every rank under `valgrind --tool=callgrind`, and reads rank 1's
profile (a non-root rank): the inclusive instructions of the MPI_Allreduce
wrapper minus those of PMPI_Allreduce inside it, divided by its calls; and
the same for MPI_Finalize (the merge, the outputs, the calibration: what
hooktrace adds to the end of the run).
Instruction counts do not depend on the load of the machine, so one run
per P is enough.  Oversubscribed runs are slow under valgrind: keep the
iteration count small.

Usage (from the build directory; `make bench-coll` does this):
    python3 bench/coll_cost.py [--builddir DIR] [--ranks 2,4,8,16] [-n 2000]

Target: added instructions per call at 16 ranks <= 1.25x those at 2 ranks,
and <= 600.  Stdlib only; needs valgrind.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import cpu_model, mpi_version  # noqa: E402

TARGET_RATIO = 1.25
TARGET_INSTRUCTIONS = 600


def read_callgrind(cg_file):
    """(self cost per function, [(caller, callee, calls, inclusive cost)]) from
    a callgrind file.  Names are compressed (`fn=(7) name` defines id 7, a
    later `cfn=(7)` reuses it); a cost line after a `calls=` line is the
    inclusive cost of that call, any other one a self cost."""
    names, objects, selfcost, edges = {}, {}, {}, []
    fn = cfn = ob = fn_ob = None
    pending = None  # calls of the edge whose cost line comes next
    with open(cg_file, errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\n")
            m = re.match(r"^(c?)(ob|fn)=\((\d+)\)(?: (.*))?$", line)
            if m:
                table = objects if m.group(2) == "ob" else names
                if m.group(4):
                    table[m.group(3)] = m.group(4)
                value = table.get(m.group(3))
                if m.group(2) == "ob" and not m.group(1):
                    ob = value
                elif m.group(2) == "fn" and not m.group(1):
                    fn, fn_ob = value, ob
                elif m.group(2) == "fn":
                    cfn = value
                continue
            m = re.match(r"^calls=(\d+)", line)
            if m:
                pending = int(m.group(1))
                continue
            if line[:1].isdigit() or line[:1] in "+-*":
                fields = line.split()
                cost = int(fields[1]) if len(fields) >= 2 else 0
                if pending is not None:
                    edges.append((fn, cfn, pending, cost, fn_ob or ""))
                    pending = None
                else:
                    selfcost[fn] = selfcost.get(fn, 0) + cost
    return selfcost, edges


def wrapper_cost(cg, wrapper, inner):
    """(instructions in wrapper and its callees except its calls of inner,
    calls of wrapper)."""
    selfcost, edges = cg
    cost = selfcost.get(wrapper, 0) + sum(c for a, b, _, c, _ in edges if a == wrapper and b != inner)
    calls = sum(n for _, b, n, _, _ in edges if b == wrapper)
    return cost, calls


def finalize_cost(cg):
    """Instructions hooktrace itself executes in MPI_Finalize: the wrapper's
    inclusive cost minus PMPI_Finalize and minus every PMPI_ call its merge,
    trace and output make (inside those the MPI library also spins while it
    waits for other ranks, which says nothing of hooktrace's own work).
    Returns (own, in MPI calls)."""
    selfcost, edges = cg
    total, _ = wrapper_cost(cg, "MPI_Finalize", None)
    # Calls of the MPI library from hooktrace's own functions that run
    # under MPI_Finalize (the merge's and the trace's collectives).
    callees = {}
    for a, b, _, _, ob in edges:
        if "libhooktrace" in ob:
            callees.setdefault(a, set()).add(b)
    under, todo = set(), ["MPI_Finalize"]
    while todo:
        f = todo.pop()
        for g in callees.get(f, ()):
            if g not in under and g and not g.startswith("PMPI_"):
                under.add(g)
                todo.append(g)
    in_mpi = sum(c for a, b, _, c, ob in edges
                 if b and b.startswith("PMPI_") and "libhooktrace" in ob and a in under)
    return total - in_mpi - sum(c for a, b, _, c, _ in edges
                                if a == "MPI_Finalize" and b == "PMPI_Finalize"), in_mpi


def run(builddir, ranks, iterations, mpiexec):
    prog = os.path.abspath(os.path.join(builddir, "bench", "mpi_calls_hooktrace"))
    work = tempfile.mkdtemp(prefix="ht-coll-")
    try:
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_rmaps_base_oversubscribe="1")
        env.pop("HOOKTRACE_CONFIG", None)
        cmd = [mpiexec, "-np", str(ranks), "valgrind", "--tool=callgrind", "--quiet",
               "--callgrind-out-file=" + os.path.join(work, "cg.%q{OMPI_COMM_WORLD_RANK}"),
               prog, "-t", "ar8", "-n", str(iterations), "-r", "1", "-w", "0"]
        subprocess.run(cmd, cwd=work, env=env, check=True, stdout=subprocess.DEVNULL,
                       timeout=3600)
        cg = os.path.join(work, "cg.1")
        if not os.path.exists(cg):
            raise SystemExit("no callgrind output for rank 1 in %s: %s" %
                             (work, glob.glob(os.path.join(work, "*"))))
        profile = read_callgrind(cg)
        added, calls = wrapper_cost(profile, "MPI_Allreduce", "PMPI_Allreduce")
        if calls == 0:
            raise SystemExit("no call of MPI_Allreduce in rank 1's profile")
        finalize = finalize_cost(profile)
        return added / calls, calls, finalize
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--ranks", default="2,4,8,16")
    ap.add_argument("-n", "--iterations", type=int, default=2000)
    ap.add_argument("--mpiexec", default="mpirun")
    args = ap.parse_args()
    for tool in ("valgrind",):
        if not shutil.which(tool):
            raise SystemExit("%s not found (apt-get install valgrind)" % tool)
    results = []
    for p in [int(x) for x in args.ranks.split(",")]:
        per_call, calls, finalize = run(args.builddir, p, args.iterations, args.mpiexec)
        results.append((p, per_call, calls, finalize))
        print("  %d ranks: %.0f instructions per call (%d calls)" % (p, per_call, calls),
              file=sys.stderr)
    base = results[0][1]
    print("CPU: %s; %s" % (cpu_model(), mpi_version(args.mpiexec)))
    print()
    print("| ranks | added instructions per MPI_Allreduce (rank 1) | vs %d ranks "
          "| hooktrace's own instructions in MPI_Finalize (rank 1) | in its MPI calls there |"
          % results[0][0])
    print("|---:|---:|---:|---:|---:|")
    for p, per_call, _, (own, in_mpi) in results:
        print("| %d | %.0f | %.2fx | %.1f M | %.1f M |" % (
            p, per_call, per_call / base if base else 0.0, own / 1e6, in_mpi / 1e6))
    last = results[-1][1]
    ok = last <= TARGET_RATIO * base and last <= TARGET_INSTRUCTIONS
    print()
    print("Target: at %d ranks <= %.2fx %d ranks and <= %d: %s" %
          (results[-1][0], TARGET_RATIO, results[0][0], TARGET_INSTRUCTIONS,
           "met" if ok else "NOT met"))


if __name__ == "__main__":
    main()
