"""The rest of test/mpi/p2p.c through the Fortran bindings
(test/fortran/sends.F90) on 4 ranks, as `use mpi` (fsends_f90),
`include 'mpif.h'` (fsends_f77) and `use mpi_f08` (fsends_f08): exact
messages, bytes and peers per stack and rank and in comm_matrix, as
p2p.py has them for the C program:

  MPI_PROC_NULL with Send, Recv (its status says MPI_PROC_NULL), Sendrecv,
      Isend, Irecv: nodes, no messages
  messages of 0 bytes (blocking and non-blocking): one message each
  derived datatypes: count x type size, not the extent
  Sendrecv and Sendrecv_replace: one message each way
  Bsend, Ssend, Rsend, Ibsend, Issend, Irsend
  a split communicator (with MPI_ANY_SOURCE, and a pending wildcard Irecv
      whose communicator is freed) and an inter-communicator: peers are
      world ranks
  a send to the process itself counts

every call counted once, no MPI routine under another; stdout as without
hooktrace."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flib import *  # noqa: E402,F403

require_launcher()
N = 4


def at(function, routine):
    return "main;fsends;sends::%s;%s" % (function, routine)


m = Messages()
for r in range(N):
    # Sendrecv: 3 doubles to r+1; Sendrecv_replace: 5 ints to r-1
    m.p2p(r, (r + 1) % N, 3 * DOUBLE, at("sendrecv", "MPI_Sendrecv"), at("sendrecv", "MPI_Sendrecv"))
    m.p2p(r, (r - 1) % N, 5 * INT, at("sendrecv", "MPI_Sendrecv_replace"),
          at("sendrecv", "MPI_Sendrecv_replace"))
    # a send to self counts
    m.p2p(r, r, 3 * INT, at("self_send", "MPI_Isend"), at("self_send", "MPI_Recv"))
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

# MPI_PROC_NULL: every routine is a node, none moves a message.
CALLS = {at("proc_null", routine): N for routine in
         ("MPI_Send", "MPI_Recv", "MPI_Sendrecv", "MPI_Isend", "MPI_Irecv", "MPI_Waitall")}
CALLS.update({"main;fsends;MPI_Init": N, "main;fsends;MPI_Finalize": N,
              at("zero_bytes", "MPI_Wait"): 2, at("send_modes", "MPI_Wait"): 3 + 2,
              at("send_modes", "MPI_Barrier"): N, at("self_send", "MPI_Wait"): N})

reference = mpirun(fortran_program("fsends_plain"), N)
check_status(reference, 0, "fsends_plain")
for variant in ("f90", "f77", "f08"):
    what = "fsends_" + variant
    r = mpirun(fortran_program(what), N)
    p = expect_run(r, reference, m, CALLS, N, what)
    expect_rank_calls(p, at("subcomm", "MPI_Send"), {0: 1, 1: 1, 2: 1, 3: 1}, what)
    expect_rank_calls(p, at("send_modes", "MPI_Recv"), {3: 4}, what)
finish()
