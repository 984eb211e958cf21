"""MPI calls inside an OpenMP parallel region (test/mpi/openmp_mpi.c on 4
ranks, 2 threads each): each thread's MPI_Sendrecv is a node under the
region's node on that thread, so its messages are attributed there: under
main;exchange;<region> for the thread that met the pragma, under the
region as the root for the other.  Without libhooktrace's OpenMP wrappers
the worker's MPI_Sendrecv was a root of its own."""
import subprocess

from mpilib import *

require_launcher()
N = 4
INT = 4
EXE = mpi_program("openmp_mpi")
REGION = "exchange._omp_fn.0"
# Built by clang (under libomp): clang's own .omp_outlined. and, under
# plain -finstrument-functions with -g, its body .omp_outlined._debug__.
if "[libomp" in subprocess.run(["readelf", "-d", EXE], stdout=subprocess.PIPE,
                               universal_newlines=True).stdout:
    REGION = ".omp_outlined.;.omp_outlined._debug__"
MASTER, WORKER = "main;exchange;%s;MPI_Sendrecv" % REGION, "%s;MPI_Sendrecv" % REGION

m = Messages()
for r in range(N):
    m.p2p(r, r ^ 1, 10 * INT, MASTER, MASTER)   # thread 0: 10 ints, tag 0
    m.p2p(r, r ^ 1, 20 * INT, WORKER, WORKER)   # thread 1: 20 ints, tag 1
report_messages(m, N)

env = {"OMP_NUM_THREADS": "2", "OMP_DYNAMIC": "false", "OMP_WAIT_POLICY": "passive"}
reference = mpirun(mpi_program("openmp_mpi_plain"), N, env=env)
check_status(reference, 0, "openmp_mpi_plain")
r = mpirun(EXE, N, env=env)
check_status(r, 0, "openmp_mpi")
expect_same_stdout(r, reference, "openmp_mpi")
p = r.summary()
expect_messages(p, m, N, "openmp_mpi")
expect_total_calls(p, {"main;exchange;" + REGION: N, REGION: N, MASTER: N, WORKER: N}, "openmp_mpi")
if p is not None:
    check_eq(p.doc["threads"], 2, "openmp_mpi: threads per rank")
    roots = {s["function"] for s in p.doc["stacks"] if s["parent"] == -1}
    check_eq(roots, {"main", REGION.split(";")[0]}, "openmp_mpi: the roots (no MPI routine on its own)")
finish()
