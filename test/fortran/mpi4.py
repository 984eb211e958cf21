"""MPI 4's MPI_Isendrecv, MPI_Isendrecv_replace and MPI_Bcast_init
through the Fortran bindings (test/fortran/mpi4.F90) on 4 ranks, as `use
mpi_f08` (fmpi4_f08: MPICH's mpi_isendrecv_f08ts_, mpi_bcast_init_f08ts_)
and `include 'mpif.h'` (fmpi4_f77: mpi_isendrecv_, ...): the same nodes,
calls, messages, bytes and peers as the C wrappers record
(docs/mpi_routines.md), no MPI routine under another, stdout as without
hooktrace.  Skipped where the MPI library has none of these routines
(Open MPI 4.1)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flib import *  # noqa: E402,F403

require_launcher()
if os.environ.get("HT_MPI4_COMM") != "yes":
    print("SKIP: the MPI library has no MPI_Isendrecv or persistent collectives "
          "(configure: HT_MPI4_COMM=%r)" % os.environ.get("HT_MPI4_COMM"))
    sys.exit(77)
N = 4


def at(function, routine):
    return "main;fmpi4;m4::%s;%s" % (function, routine)


m = Messages()
for r in range(N):
    m.p2p(r, (r + 1) % N, 5 * INT, at("swap", "MPI_Isendrecv"), at("swap", "MPI_Isendrecv"))
    m.p2p(r, (r - 1) % N, 3 * DOUBLE, at("swap", "MPI_Isendrecv_replace"),
          at("swap", "MPI_Isendrecv_replace"))
    for _ in range(2):
        m.coll(0, r, 6 * INT, at("bcast_twice", "MPI_Bcast_init"))
CALLS = {
    at("swap", "MPI_Isendrecv"): N, at("swap", "MPI_Isendrecv_replace"): N, at("swap", "MPI_Wait"): 2 * N,
    at("bcast_twice", "MPI_Bcast_init"): N, at("bcast_twice", "MPI_Start"): 2 * N,
    at("bcast_twice", "MPI_Wait"): 2 * N, at("bcast_twice", "MPI_Request_free"): N,
}

reference = mpirun(fortran_program("fmpi4_plain"), N)
check_status(reference, 0, "fmpi4_plain")
for variant in ("f08", "f77"):
    exe = "fmpi4_" + variant
    expect_run(mpirun(fortran_program(exe), N), reference, m, CALLS, N, exe)
finish()
