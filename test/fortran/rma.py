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
from models import rma_calls, rma_operations  # noqa: E402

require_launcher()
N = 4


def at(function, routine):
    return "main;frma;onesided::%s;%s" % (function, routine)


m = Messages()
rma_operations(m, N, at)

CALLS = rma_calls(N, at)
CALLS.update({"main;frma;MPI_Init": N, "main;frma;MPI_Finalize": N})

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
