"""One-sided communication (test/mpi/rma.c) on 4 ranks: every operation is
a message from the origin to the target, counted on the origin as sent and
in comm_matrix (the target records nothing).  Sizes: Put/Accumulate and
their R-forms: origin count x type size; Get/Rget: origin count x type;
Fetch_and_op: 2 x type size; Compare_and_swap: 3 x type size;
Get_accumulate/Rget_accumulate: origin + result bytes.  A target that is
the origin itself counts, a 0-byte operation is one message, MPI_PROC_NULL
records nothing, and target ranks of a window over another communicator
are translated to world ranks."""
from mpilib import *
from models import rma_calls, rma_operations

require_launcher()
N = 4


def at(function, routine):
    return "main;%s;%s" % (function, routine)


m = Messages()
rma_operations(m, N, at)
report_messages(m, N)

r = mpirun(mpi_program("rma"), N)
check_status(r, 0, "rma")
reference = mpirun(mpi_program("rma_plain"), N)
check_status(reference, 0, "rma_plain")
expect_same_stdout(r, reference, "rma with hooktrace")

p = r.summary()
expect_messages(p, m, N, "rma")
expect_total_calls(p, rma_calls(N, at))
if p:
    received = sum(p.traffic(path)[2] for path in p.paths() if "report" not in path)
    check_eq(received, 0, "one-sided targets record no received messages")
finish()
