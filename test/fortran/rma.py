"""test/mpi/rma.c through the Fortran bindings (test/fortran/rma.F90) on 4
ranks, as `use mpi` (frma_f90), `include 'mpif.h'` (frma_f77) and
`use mpi_f08` (frma_f08): every one-sided operation is one message from the
origin to the target, counted on the origin as sent and in comm_matrix (the
target records nothing), with the sizes of docs/mpi.md, as rma.py has them
for the C program: Put, Get (of a derived type), Accumulate,
Get_accumulate, Fetch_and_op, Compare_and_swap in fence epochs; Rput, Rget,
Raccumulate, Rget_accumulate completed by MPI_Wait under MPI_Win_lock_all;
a target that is the origin itself counts, a 0-byte operation is one
message, MPI_PROC_NULL records nothing; target ranks of a window over
another communicator are translated to world ranks.  No MPI routine under
another; stdout as without hooktrace."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flib import *  # noqa: E402,F403

require_launcher()
N = 4


def at(function, routine):
    return "main;frma;onesided::%s;%s" % (function, routine)


m = Messages()
for r in range(N):
    def to(k):
        return (r + k) % N
    m.rma(r, to(1), 5 * INT, at("fence_ops", "MPI_Put"))
    m.rma(r, to(2), 3 * 2 * INT, at("fence_ops", "MPI_Get"))  # 3 x contiguous(2 ints)
    m.rma(r, to(3), 4 * INT, at("fence_ops", "MPI_Accumulate"))
    m.rma(r, to(1), 2 * INT + 2 * INT, at("fence_ops", "MPI_Get_accumulate"))
    m.rma(r, to(2), 2 * INT, at("fence_ops", "MPI_Fetch_and_op"))
    m.rma(r, to(3), 3 * INT, at("fence_ops", "MPI_Compare_and_swap"))
    m.rma(r, to(1), 7 * INT, at("request_ops", "MPI_Rput"))
    m.rma(r, to(2), 9 * INT, at("request_ops", "MPI_Rget"))
    m.rma(r, to(3), 2 * INT, at("request_ops", "MPI_Raccumulate"))
    m.rma(r, to(1), 3 * INT + 3 * INT, at("request_ops", "MPI_Rget_accumulate"))
    m.rma(r, r, 2 * INT, at("edge_ops", "MPI_Put"))   # to itself: counts
    m.rma(r, to(1), 0, at("edge_ops", "MPI_Put"))     # 0 bytes: one message
    m.rma(r, (r - 1) % N, INT, at("sub_window", "MPI_Put"))  # window over reversed ranks

CALLS = {"main;frma;MPI_Init": N, "main;frma;MPI_Finalize": N,
         at("request_ops", "MPI_Wait"): 4 * N,
         at("edge_ops", "MPI_Put"): 3 * N,          # one to MPI_PROC_NULL
         at("edge_ops", "MPI_Accumulate"): N}       # to MPI_PROC_NULL: no message

reference = mpirun(fortran_program("frma_plain"), N)
check_status(reference, 0, "frma_plain")
for variant in ("f90", "f77", "f08"):
    what = "frma_" + variant
    r = mpirun(fortran_program(what), N)
    p = expect_run(r, reference, m, CALLS, N, what)
    if p:
        received = sum(p.traffic(path)[2] for path in p.paths())
        check_eq(received, 0, what + ": one-sided targets record no received messages")
finish()
