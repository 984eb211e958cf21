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
from models import p2p_calls, p2p_sends  # noqa: E402

require_launcher()
N = 4


def at(function, routine):
    return "main;fsends;sends::%s;%s" % (function, routine)


m = Messages()
p2p_sends(m, N, at)

CALLS = p2p_calls(N, at)   # MPI_PROC_NULL: nodes, no messages
CALLS.update({"main;fsends;MPI_Init": N, "main;fsends;MPI_Finalize": N,
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
