"""Blocking point-to-point (test/mpi/p2p.c) on 4 ranks: exact messages,
bytes and peers per stack and rank and in comm_matrix, for MPI_ANY_SOURCE
with MPI_STATUS_IGNORE, MPI_PROC_NULL, zero-byte messages, derived
datatypes, a send to self, Sendrecv(_replace), the send modes, a split communicator and an
inter-communicator (peers are world ranks); stdout as without hooktrace."""
from mpilib import *
from models import p2p_calls, p2p_messages

require_launcher()
N = 4


def at(function, routine):
    return "main;%s;%s" % (function, routine)


m = p2p_messages(N, at)
report_messages(m, N)

r = mpirun(mpi_program("p2p"), N)
check_status(r, 0, "p2p")
reference = mpirun(mpi_program("p2p_plain"), N)
check_status(reference, 0, "p2p_plain")
expect_same_stdout(r, reference, "p2p with hooktrace")
check_eq([l.split(":")[0] for l in r.stdout.splitlines()], ["p2p rank %d" % i for i in range(N)],
         "rank 0 reports every rank")
check_eq([f for f in r.files() if f.startswith("p2p_")], [], "no per-rank files by default")

p = r.summary()
expect_messages(p, m, N, "p2p")
expect_total_calls(p, p2p_calls(N, at))   # MPI_PROC_NULL: nodes, no messages
expect_total_calls(p, {"main;start;MPI_Init": N, "main;MPI_Finalize": N})
expect_rank_calls(p, at("any_source", "MPI_Recv"), {0: N - 1})
expect_rank_calls(p, at("subcomm", "MPI_Send"), {0: 1, 1: 1, 2: 1, 3: 1})
finish()
