"""The application-shaped programs of bench/ (issue 24; bench/shapes_cost.py
times them), built with -finstrument-functions and the GCC plugin as
instrument_flags has it, and without hooktrace, on small problems:

- elem_helpers (serial: element loops calling inlined medium helpers),
- fem_proxy (std::map assembly and CG, 2 ranks),
- lulesh_mpi (LULESH's structure: OpenMP loops on 2 threads, halo exchange
  and a dt Allreduce per step, 2 ranks).

Each instrumented run prints the checksum of the build without hooktrace
(instrumentation changes no result), and the functions that stay out of
line, and every MPI routine, are recorded with their exact counts, wherever
inlining put their callers: what bench/shapes_cost.py's figures assume."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mpi"))
from mpilib import *  # noqa: E402,F401
import htlib  # noqa: E402

require_launcher()
N = 2
PROGRAM = lambda name: os.path.join(BUILDDIR, "test", "plugin", name)  # noqa: E731


def checksum(stdout, what):
    m = re.search(r"^checksum=(.+)$", stdout, re.M)
    check(m is not None, "%s: no checksum line in:\n%s" % (what, stdout))
    return m.group(1) if m else None


def leaf_calls(p, name):
    """Calls of `name` summed over every stack it ends, whatever its callers."""
    return sum(s["calls"] for path, s in p.by_path.items() if path.split(";")[-1] == name)


# 1. elem_helpers: serial, 7 steps.
STEPS = 7
args = ["-n", "40", "-i", str(STEPS)]
plain = htlib.run(PROGRAM("shape_helpers_plain"), args)
check_eq(plain.returncode, 0, "shape_helpers_plain: exit status (stderr: %s)" % plain.stderr)
r = htlib.run(PROGRAM("shape_helpers"), args)
check_eq(r.returncode, 0, "shape_helpers: exit status (stderr: %s)" % r.stderr)
check_eq(checksum(r.stdout, "shape_helpers"), checksum(plain.stdout, "shape_helpers_plain"),
         "shape_helpers: checksum")
p = r.profile()
for path, calls in {"main": 1, "main;Solver::Solver(int)": 1,
                    "main;Solver::sweep_x(double)": STEPS, "main;Solver::sweep_y(double)": STEPS,
                    "main;Solver::max_wave_speed()": STEPS}.items():
    check_eq(p.calls(path), calls, "shape_helpers: calls of " + path)
check(p.doc["uninstrumented"]["functions"] > 0, "shape_helpers: the plugin left functions out")

# 2. fem_proxy: 2 ranks, 3 Picard iterations of 10 CG iterations each (the
# residual stays far above the stopping test's 1e-15).
PICARD, CG = 3, 10
args = ["-s", "12", "-i", str(PICARD), "-c", str(CG)]
plain = mpirun(PROGRAM("shape_fem_plain"), N, args)
check_status(plain, 0, "shape_fem_plain")
r = mpirun(PROGRAM("shape_fem"), N, args)
check_status(r, 0, "shape_fem")
check_eq(checksum(r.stdout, "shape_fem"), checksum(plain.stdout, "shape_fem_plain"),
         "shape_fem: checksum")
p = r.summary()
check_eq(p.calls("main;Problem::assemble()"), N * PICARD, "shape_fem: calls of Problem::assemble()")
cg = [path for path in p.paths() if path.startswith("main;cg(") and path.count(";") == 1]
check_eq(len(cg), 1, "shape_fem: one stack main;cg(...): %s" % sorted(p.paths()))
if cg:
    check_eq(p.calls(cg[0]), N * PICARD, "shape_fem: calls of " + cg[0])
# One dot product before CG's loop and two in each iteration.
check_eq(leaf_calls(p, "MPI_Allreduce"), N * PICARD * (1 + 2 * CG), "shape_fem: MPI_Allreduce calls")
# The shared rows summed once in each assembly, once before CG's loop and once per iteration.
check_eq(leaf_calls(p, "MPI_Waitall"), N * PICARD * (2 + CG), "shape_fem: MPI_Waitall calls")
check_eq(leaf_calls(p, "MPI_Isend"), N * PICARD * (2 + CG), "shape_fem: MPI_Isend calls")

# 3. lulesh_mpi: 2 ranks of 2 OpenMP threads, 12 steps.
ITERATIONS = 12
args = ["-s", "6", "-i", str(ITERATIONS)]
env = {"OMP_NUM_THREADS": "2"}
plain = mpirun(PROGRAM("shape_lulesh_plain"), N, args, env=env)
check_status(plain, 0, "shape_lulesh_plain")
r = mpirun(PROGRAM("shape_lulesh"), N, args, env=env)
check_status(r, 0, "shape_lulesh")
check_eq(checksum(r.stdout, "shape_lulesh"), checksum(plain.stdout, "shape_lulesh_plain"),
         "shape_lulesh: checksum")
check("threads=2 " in r.stdout, "shape_lulesh: ran 2 threads: %s" % r.stdout)
p = r.summary()
check_eq(p.calls("main;Domain::Domain(int, int, int)"), N, "shape_lulesh: calls of Domain::Domain")
# TimeIncrement's Allreduce: every step but the first.
check_eq(leaf_calls(p, "MPI_Allreduce"), N * (ITERATIONS - 1), "shape_lulesh: MPI_Allreduce calls")
# The nodal mass once, then per step the forces and the monotonic-Q gradients.
check_eq(leaf_calls(p, "MPI_Waitall"), N * (1 + 2 * ITERATIONS), "shape_lulesh: MPI_Waitall calls")
check_eq(leaf_calls(p, "MPI_Isend"), N * (1 + 2 * ITERATIONS), "shape_lulesh: MPI_Isend calls")
check_eq(leaf_calls(p, "MPI_Gather"), N, "shape_lulesh: MPI_Gather calls")

finish()
