"""The rest of test/mpi/requests.c through the Fortran bindings
(test/fortran/requests.F90) on 4 ranks, as `use mpi` (freq_f90),
`include 'mpif.h'` (freq_f77) and `use mpi_f08` (freq_f08): every message
counted once, at the stack that started it, whichever routine completes
it, as requests.py has them for the C program:

  MPI_Waitany (the status names the source; with MPICH 4.0's mpi_f08 the
      index counts from 0, docs/fortran.md); MPI_Waitsome with statuses;
      MPI_Testall of wildcard receives with MPI_STATUSES_IGNORE (their
      sizes come from the statuses the wrapper supplies); MPI_Testany
  80 requests (more than the wrappers keep on their stack) completed by
      one MPI_Waitall with statuses and by MPI_Waitsome
  persistent requests: MPI_Start, MPI_Startall, Ssend_init, a request freed
      while active, MPI_PROC_NULL; each completed start counts once, at
      the stack of its *_init
  MPI_Probe and MPI_Iprobe: nodes, no messages
  a message completed while the program computes in Fortran: seen by the
      function hooks' polling (its duration ends before the 0.5 s the
      program then sleeps without hooks), counted once

no MPI routine under another; stdout as without hooktrace."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flib import *  # noqa: E402,F403
from models import KEEP_LEAF, polled_while_computing, requests, requests_calls  # noqa: E402

require_launcher()
N = 4


def at(function, routine):
    return "main;freq;reqs::%s;%s" % (function, routine)


m = Messages()
requests(m, N, at, "reqs::post_all", ("wait_some", "test_all"))
m.p2p(2, 3, 10 * INT, at("probes", "MPI_Send"), at("probes", "MPI_Recv"))

CALLS = requests_calls(N, at)
CALLS.update({"main;freq;MPI_Init": N, "main;freq;MPI_Finalize": N, at("probes", "MPI_Probe"): 1})

# Ranks 0, 2 and 3 also write their own files (for the polling check).
RANK_FILES = [0, 2, 3]

reference = mpirun(fortran_program("freq_plain"), N)
check_status(reference, 0, "freq_plain")
for variant in ("f90", "f77", "f08"):
    what = "freq_" + variant
    r = mpirun(fortran_program(what), N, config={"mpi": {"rank_files": RANK_FILES}, "throttle": KEEP_LEAF})
    p = expect_run(r, reference, m, CALLS, N, what)
    expect_rank_calls(p, at("many", "MPI_Isend"), {k: 80 for k in range(N)}, what)
    expect_rank_calls(p, at("persistent", "MPI_Recv_init"), {1: 2, 2: 1, 3: 1}, what)
    if p:
        check(p.calls(at("probes", "MPI_Iprobe")) >= 1, what + ": MPI_Iprobe is a node")
        for path in ("main;freq;reqs::overlap;reqs::compute", "main;freq;reqs::overlap;reqs::compute;reqs::leaf"):
            check(p.has(path), "%s: the program computed under the open requests (%s)" % (what, path))
        polled_while_computing(r, at, "main;freq;reqs::overlap", what)
        for rank in RANK_FILES:
            expect_rank_file(r.rank_profile(rank), m, rank, N, what)
finish()
