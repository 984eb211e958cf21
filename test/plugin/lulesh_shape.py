"""The program as written (docs/plugin.md, "Inlined copies"): a LULESH-shaped
MPI + OpenMP program (test/plugin/lulesh_shape.cpp, 2 ranks), built as a
user builds it, at -O1, -O2, -O3, -O2 -flto and -O2 without OpenMP, with the
default inlined-hooks=leaf.  GCC inlines its static drivers and kernels
into main and its helpers into the OpenMP bodies; the profile must still
show the tree as written with exact counts:

  main > LeapFrog > LagrangeNodal > CalcForce, CalcVelocity (steps),
                                    CommSend (2 x steps) > MPI_Irecv, ...
       > LeapFrog > LagrangeElements > CalcKinematics (steps),
                                       CalcEnergy (2 x steps)
       > LeapFrog > TimeConstraint > MPI_Allreduce

each kernel's OpenMP region under the kernel (on the thread that met the
pragma; a root on the others), each helper under its kernel's region (its
kernel, without OpenMP) with elements x steps calls summed over the threads
and ranks, counted: "inlined" and no time of its own.  Run with 1 and 4
threads; every message exact; stdout as the plain build's.

And the option that restores the default before, inlined-hooks=keep-loops
(-O2, 2 threads): the drivers and the kernels, inlined, are gone; the
regions sit under main, and so do the halo sends (CommSend has a loop and
calls MPI: kept), with every message on main > CommSend."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mpi"))
from mpilib import *  # noqa: E402,F401

require_launcher()
N = 2
STEPS, ELEMS, HALO = 6, 4096, 64
PROGRAM = lambda name: os.path.join(BUILDDIR, "test", "plugin", name)  # noqa: E731

LEAP = "main;LeapFrog(double)"
NODAL = LEAP + ";LagrangeNodal(double)"
ELEMENTS = LEAP + ";LagrangeElements()"
TIME = LEAP + ";TimeConstraint(double)"
COMM = NODAL + ";CommSend(int)"
TREE = {"main": 1, LEAP: STEPS, NODAL: STEPS, ELEMENTS: STEPS, TIME: STEPS,
        NODAL + ";CalcForce(double)": STEPS, NODAL + ";CalcVelocity(double)": STEPS, COMM: 2 * STEPS,
        ELEMENTS + ";CalcKinematics()": STEPS, ELEMENTS + ";CalcEnergy()": 2 * STEPS,
        COMM + ";MPI_Irecv": 2 * STEPS, COMM + ";MPI_Isend": 2 * STEPS, COMM + ";MPI_Waitall": 2 * STEPS,
        TIME + ";MPI_Allreduce": STEPS}
# helper: (its kernel, calls per rank over the threads)
HELPERS = {"stress_term(int, double)": ("CalcForce(double)", ELEMS * STEPS),
           "advance_node(int, double)": ("CalcVelocity(double)", ELEMS * STEPS),
           "viscosity(int)": ("CalcKinematics()", ELEMS * STEPS),
           "energy_of(int)": ("CalcEnergy()", 2 * ELEMS * STEPS)}
KERNELS = {k for k, _ in HELPERS.values()}
# MPI set-up calls under main, whatever the MPI.
SETUP = {"MPI_Init", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Finalize"}

m = Messages()
for s in range(N):
    m.p2p(s, (s + 1) % N, HALO * DOUBLE, COMM + ";MPI_Isend", COMM + ";MPI_Irecv", times=2 * STEPS)
    for _ in range(STEPS):
        m.coll(s, (s + 1) % N, DOUBLE, TIME + ";MPI_Allreduce")

reference = mpirun(PROGRAM("lulesh_shape_plain"), N)
check_status(reference, 0, "lulesh_shape_plain")


def is_region(name, kernel):
    """An OpenMP outlined body of kernel, whatever the compiler calls it."""
    return name.startswith(kernel) and "omp" in name[len(kernel):]


def run(name, threads):
    # Built with OpenMP when configure found it (OPENMP_CFLAGS).
    with open(PROGRAM(name), "rb") as f:
        openmp = b"_omp_fn" in f.read()
    what = "%s, %d thread%s" % (name, threads, "s" if threads > 1 else "")
    r = mpirun(PROGRAM(name), N, env={"OMP_NUM_THREADS": str(threads)})
    check_status(r, 0, what)
    expect_same_stdout(r, reference, what)
    p = r.summary()
    if p is None:
        return
    expect_messages(p, m, N, what)
    stacks = p.doc["stacks"]
    by_id = {s["id"]: s for s in stacks}
    for path, calls in TREE.items():
        check_eq(p.calls(path), N * calls, "%s: calls of %s" % (what, path))
        check(not p.stack(path).get("inlined"), "%s: %s is timed, not counted" % (what, path))
    # Nothing else but the regions, the helpers and MPI's set-up, anywhere.
    for s in stacks:
        path, f = ";".join(s["path"]), s["function"]
        parent = by_id[s["parent"]]["function"] if s["parent"] >= 0 else None
        if path in TREE or f in HELPERS or (f in SETUP and parent == "main"):
            continue
        kernel = next((k for k in KERNELS if is_region(f, k)), None)
        check(openmp and kernel is not None and (parent is None or parent == kernel),
              "%s: %s is an OpenMP region under its kernel (or a root, on another thread)" % (what, path))
    for k in KERNELS:
        regions = [s for s in stacks if is_region(s["function"], k)]
        per_call = 2 if k == "CalcEnergy()" else 1
        check_eq(sum(s["calls"] for s in regions), N * STEPS * per_call * threads if openmp else 0,
                 "%s: %s's region, entered by each thread of each call" % (what, k))
    for helper, (kernel, calls) in HELPERS.items():
        mine = [s for s in stacks if s["function"] == helper]
        check_eq(sum(s["calls"] for s in mine), N * calls, "%s: %s's calls over the threads" % (what, helper))
        for s in mine:
            parent = by_id[s["parent"]]["function"] if s["parent"] >= 0 else None
            ok = is_region(parent or "", kernel) if openmp else ";".join(s["path"][:-1]).endswith(kernel)
            check(ok, "%s: %s under %s's region: %s" % (what, helper, kernel, ";".join(s["path"])))
            check(s.get("inlined") is True and s["time_incl_s"] == 0 and s["time_excl_s"] == 0,
                  "%s: %s counted, no time of its own" % (what, helper))
        if openmp:
            check_eq(len({t["thread"] for s in mine for t in p.threads_of(s)}), threads,
                     "%s: %s counted on every thread" % (what, helper))
    check_eq(p.doc["overhead"]["inlined_calls"], N * sum(c for _, c in HELPERS.values()),
             what + ": the counted calls")


for build in ("lulesh_shape_O1", "lulesh_shape_O2", "lulesh_shape_O3", "lulesh_shape_lto"):
    for threads in (1, 4):
        run(build, threads)
run("lulesh_shape_serial", 1)

# The default before: what the profile looked like.
r = mpirun(PROGRAM("lulesh_shape_keeploops"), N, env={"OMP_NUM_THREADS": "2"})
check_status(r, 0, "lulesh_shape_keeploops")
expect_same_stdout(r, reference, "lulesh_shape_keeploops")
p = r.summary()
if p is not None:
    functions = {s["function"] for s in p.doc["stacks"]}
    drivers = {"LeapFrog(double)", "LagrangeNodal(double)", "LagrangeElements()"} | KERNELS
    check_eq(sorted(functions & drivers), [], "lulesh_shape_keeploops: drivers and kernels absent")
    check_eq(p.calls("main;CommSend(int)"), N * 2 * STEPS, "lulesh_shape_keeploops: main > CommSend")
    check_eq(p.calls("main;CommSend(int);MPI_Isend"), N * 2 * STEPS, "lulesh_shape_keeploops: its sends")
    with open(PROGRAM("lulesh_shape_keeploops"), "rb") as f:
        if b"_omp_fn" in f.read():
            for k in KERNELS:
                under_main = [s for s in p.doc["stacks"] if is_region(s["function"], k) and s["path"][:-1] == ["main"]]
                check_eq(len(under_main), 1, "lulesh_shape_keeploops: %s's region under main" % k)
    check_eq([s["function"] for s in p.doc["stacks"] if s.get("inlined")], [],
             "lulesh_shape_keeploops: nothing counted")

finish()
