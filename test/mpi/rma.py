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

require_launcher()
N = 4


def at(function, routine):
    return "main;%s;%s" % (function, routine)


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
report_messages(m, N)

r = mpirun(mpi_program("rma"), N)
check_status(r, 0, "rma")
reference = mpirun(mpi_program("rma_plain"), N)
check_status(reference, 0, "rma_plain")
expect_same_stdout(r, reference, "rma with hooktrace")

p = r.summary()
expect_messages(p, m, N, "rma")
expect_total_calls(p, {at("request_ops", "MPI_Wait"): 4 * N,
                       at("edge_ops", "MPI_Put"): 3 * N,          # one to MPI_PROC_NULL
                       at("edge_ops", "MPI_Accumulate"): N})     # to MPI_PROC_NULL: no message
if p:
    received = sum(p.traffic(path)[2] for path in p.paths() if "report" not in path)
    check_eq(received, 0, "one-sided targets record no received messages")
finish()
