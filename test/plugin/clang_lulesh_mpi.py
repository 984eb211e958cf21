"""hooktrace's LLVM plugin with MPI (docs/clang.md):
test/plugin/clang_lulesh.cpp built with -DCLANG_LULESH_MPI through `hooktrace
mpicxx` over clang++ (OMPI_CXX=clang++, MPICH_CXX=clang++) at -O2 and -O3
with -fopenmp, 2 ranks of 2 threads.  Each step exchanges a halo value
with the neighbouring ranks (CommRecv's MPI_Irecv, CommSend's MPI_Send,
CommSBN's MPI_Wait, inlined into LagrangeNodal) and agrees on a time step
(TimeIncrement's MPI_Allreduce, inlined into LeapFrog): small functions that
clang inlines, whose copies keep their hooks because their MPI calls stay
calls.  Every message exact on the stack of the function that sent or
received it, every driver and Comm function once per step on each rank,
the leaf helpers counted exactly over the threads of both ranks, the output
the plain build's.  Skipped where there is no clang++, no libomp, no MPI
compiler wrapper or no LLVM plugin."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mpi"))
from mpilib import *  # noqa: E402,F401,F403
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from prefixlib import Prefix, sanitized, skip  # noqa: E402

require_launcher()
if not shutil.which("clang++"):
    skip("no clang++ on the PATH (Debian: apt-get install clang)")
if sanitized():
    skip("the library is built with sanitizers, whose GCC runtime a program clang builds without them cannot load")
if not os.path.exists(os.path.join(BUILDDIR, "hooktrace_llvm.so")):
    skip("no LLVM plugin built (configure needs llvm-config-14 and LLVM 14's headers: apt-get install llvm-14-dev)")
if is_open_mpi():
    wrapper, env = ("mpicxx.openmpi" if shutil.which("mpicxx.openmpi") else "mpicxx"), {"OMPI_CXX": "clang++"}
else:
    wrapper, env = ("mpicxx.mpich" if shutil.which("mpicxx.mpich") else "mpicxx"), {"MPICH_CXX": "clang++"}
if not shutil.which(wrapper):
    skip("no MPI compiler wrapper %s" % wrapper)
work = tempfile.mkdtemp(prefix="hooktrace-clang-lulesh-mpi-")
SOURCE = os.path.join(os.environ.get("HT_TOP_SRCDIR", BUILDDIR), "test", "plugin", "clang_lulesh.cpp")
FLAGS = ["-fopenmp", "-DCLANG_LULESH_MPI", SOURCE]
probe = subprocess.run([wrapper, "-O2"] + FLAGS + ["-o", os.path.join(work, "probe")], env=dict(os.environ, **env),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
if probe.returncode != 0:
    shutil.rmtree(work, ignore_errors=True)
    skip("%s over clang++ -fopenmp does not build the program (libomp-14-dev?): %s"
         % (wrapper, probe.stdout.strip()[-300:]))

prefix = Prefix(llvm_plugin=True)
N, THREADS = 2, 2
ELEMENTS, STEPS = 64, 5
ARGS = [str(ELEMENTS), str(STEPS)]
RUN_ENV = {"OMP_NUM_THREADS": str(THREADS), "OMP_DYNAMIC": "false", "OMP_WAIT_POLICY": "passive"}

LEAP = "main;LeapFrog(Domain&)"
NODAL = LEAP + ";LagrangeNodal(Domain&)"
TIME = LEAP + ";TimeIncrement(Domain&)"
RECV = NODAL + ";CommRecv(Domain&)"
SEND = NODAL + ";CommSend(Domain&)"
WAIT = NODAL + ";CommSBN(Domain&)"
ENERGY = LEAP + ";LagrangeElements(Domain&);EvalEOSForElems(Domain&);CalcEnergyForElems(Domain&, double)"
REGION = "CalcEnergyForElems(Domain&, double) [clone ._omp_fn.0]"
PER_STEP = {LEAP: 1, NODAL: 1, TIME: 1, RECV: 1, SEND: 1, WAIT: 1, ENERGY: 2,
            TIME + ";MPI_Allreduce": 1, RECV + ";MPI_Irecv": 1, SEND + ";MPI_Send": 1, WAIT + ";MPI_Wait": 1}

m = Messages()
for s in range(N):
    m.p2p(s, (s + 1) % N, DOUBLE, SEND + ";MPI_Send", RECV + ";MPI_Irecv", times=STEPS)
    for _ in range(STEPS):
        m.coll(s, (s + 1) % N, DOUBLE, TIME + ";MPI_Allreduce")


def build(argv, exe, what):
    path = os.path.join(work, exe)
    proc = prefix.compile(argv + FLAGS + ["-o", path], env=env)
    check_eq((proc.returncode, proc.stderr), (0, ""), "%s: builds" % what)
    return path


reference = mpirun(build([wrapper, "-O2"], "plain", wrapper + " -O2 without hooktrace"), N, ARGS, env=RUN_ENV)
check_status(reference, 0, "plain")
for level in ("-O2", "-O3"):
    what = "hooktrace %s %s" % (wrapper, level)
    r = mpirun(build(["hooktrace", wrapper, level], "lulesh" + level, what), N, ARGS, env=RUN_ENV)
    check_status(r, 0, what)
    expect_same_stdout(r, reference, what)
    p = r.summary()
    expect_messages(p, m, N, what)
    for path, calls in PER_STEP.items():
        check_eq(p.calls(path), N * STEPS * calls, "%s: calls of %s (both ranks)" % (what, path))
    # The leaf helper of the energy kernel's loop, counted on every thread
    # of both ranks, under the region: elements x 2 calls a step x ranks.
    helper = "EnergyTerm(double, double, double, double, double)"
    stacks = [s for s in p.doc["stacks"] if s["function"] == helper]
    check_eq(sum(s["calls"] for s in stacks), N * ELEMENTS * 2 * STEPS, what + ": EnergyTerm's calls, both ranks")
    check_eq({s["path"][-2] for s in stacks}, {REGION}, what + ": EnergyTerm under its region")
    check_eq([bool(s.get("inlined")) for s in stacks], [True] * len(stacks), what + ": EnergyTerm counted")

shutil.rmtree(work, ignore_errors=True)
finish()
