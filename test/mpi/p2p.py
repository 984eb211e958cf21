"""Blocking point-to-point (test/mpi/p2p.c) on 4 ranks: exact messages,
bytes and peers per stack and rank and in comm_matrix, for MPI_ANY_SOURCE
with MPI_STATUS_IGNORE, MPI_PROC_NULL, zero-byte messages, derived
datatypes, a send to self, Sendrecv(_replace), the send modes, a split communicator and an
inter-communicator (peers are world ranks); stdout as without hooktrace."""
from mpilib import *

require_launcher()
N = 4


def at(function, routine):
    return "main;%s;%s" % (function, routine)


m = Messages()
for r in range(N):
    # ring: 10 ints to r+1
    m.p2p(r, (r + 1) % N, 10 * INT, at("blocking_ring", "MPI_Send"), at("blocking_ring", "MPI_Recv"))
    # Sendrecv: 3 doubles to r+1; Sendrecv_replace: 5 ints to r-1
    m.p2p(r, (r + 1) % N, 3 * DOUBLE, at("sendrecv", "MPI_Sendrecv"), at("sendrecv", "MPI_Sendrecv"))
    m.p2p(r, (r - 1) % N, 5 * INT, at("sendrecv", "MPI_Sendrecv_replace"),
          at("sendrecv", "MPI_Sendrecv_replace"))
# MPI_ANY_SOURCE + MPI_STATUS_IGNORE: r sends 100 r bytes to 0
for r in range(1, N):
    m.p2p(r, 0, 100 * r, at("any_source", "MPI_Send"), at("any_source", "MPI_Recv"))
# zero-byte messages: one message of 0 bytes each
m.p2p(0, 1, 0, at("zero_bytes", "MPI_Send"), at("zero_bytes", "MPI_Recv"))
m.p2p(2, 3, 0, at("zero_bytes", "MPI_Isend"), at("zero_bytes", "MPI_Irecv"))
# derived datatypes: count x type size
m.p2p(1, 2, 2 * 4 * 3 * INT, at("derived", "MPI_Send"), at("derived", "MPI_Recv"))  # 2 x vector(4x3 ints)
m.p2p(3, 0, 3 * 5 * DOUBLE, at("derived", "MPI_Send"), at("derived", "MPI_Recv"))   # 3 x contiguous(5 doubles)
# send modes, 0 -> 3
m.p2p(0, 3, 2 * INT, at("send_modes", "MPI_Bsend"), at("send_modes", "MPI_Recv"))
m.p2p(0, 3, 4 * INT, at("send_modes", "MPI_Ssend"), at("send_modes", "MPI_Recv"))
m.p2p(0, 3, 6 * INT, at("send_modes", "MPI_Rsend"), at("send_modes", "MPI_Irecv"))
m.p2p(0, 3, 1 * INT, at("send_modes", "MPI_Ibsend"), at("send_modes", "MPI_Recv"))
m.p2p(0, 3, 3 * INT, at("send_modes", "MPI_Issend"), at("send_modes", "MPI_Recv"))
m.p2p(0, 3, 5 * INT, at("send_modes", "MPI_Irsend"), at("send_modes", "MPI_Irecv"))
# split communicator {2,0} and {3,1} (sub-rank 0 = world 2 and 3)
for sub0, sub1 in ((2, 0), (3, 1)):
    m.p2p(sub0, sub1, 7 * INT, at("subcomm", "MPI_Send"), at("subcomm", "MPI_Recv"))
    m.p2p(sub1, sub0, 1 * INT, at("subcomm", "MPI_Send"), at("subcomm", "MPI_Recv"))
    m.p2p(sub0, sub1, 2 * DOUBLE, at("subcomm", "MPI_Isend"), at("subcomm", "MPI_Irecv"))
# inter-communicator {0,1} <-> {2,3}
m.p2p(0, 2, 3 * INT, at("intercomm", "MPI_Send"), at("intercomm", "MPI_Recv"))
m.p2p(1, 3, 3 * INT, at("intercomm", "MPI_Send"), at("intercomm", "MPI_Recv"))
m.p2p(2, 1, 5, at("intercomm", "MPI_Send"), at("intercomm", "MPI_Recv"))
m.p2p(3, 0, 5, at("intercomm", "MPI_Send"), at("intercomm", "MPI_Recv"))
# a send to self counts
for r in range(N):
    m.p2p(r, r, 3 * INT, at("self_send", "MPI_Isend"), at("self_send", "MPI_Recv"))
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
# MPI_PROC_NULL: every routine is a node, none moves a message.
expect_total_calls(p, {at("proc_null", routine): N for routine in
                       ("MPI_Send", "MPI_Recv", "MPI_Sendrecv", "MPI_Isend", "MPI_Irecv", "MPI_Waitall")})
expect_total_calls(p, {"main;start;MPI_Init": N, "main;MPI_Finalize": N,
                       at("zero_bytes", "MPI_Wait"): 2, at("send_modes", "MPI_Wait"): 3 + 2})
expect_rank_calls(p, at("any_source", "MPI_Recv"), {0: N - 1})
expect_rank_calls(p, at("subcomm", "MPI_Send"), {0: 1, 1: 1, 2: 1, 3: 1})
finish()
