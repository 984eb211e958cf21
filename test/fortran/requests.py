"""The rest of test/mpi/requests.c through the Fortran bindings
(test/fortran/requests.F90) on 4 ranks, as `use mpi` (freq_f90),
`include 'mpif.h'` (freq_f77) and `use mpi_f08` (freq_f08): every message
counted once, at the stack that started it, whichever routine completes
it, as requests.py has them for the C program:

  MPI_Waitany (the status names the source; with MPICH 4.0's mpi_f08 the
      index counts from 0, docs/mpi.md); MPI_Waitsome with statuses;
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

require_launcher()
N = 4


def at(function, routine):
    return "main;freq;reqs::%s;%s" % (function, routine)


m = Messages()
for r in range(1, N):  # r 8-byte integers to rank 0, completed by MPI_Waitany
    m.p2p(r, 0, r * LONG, at("wait_any", "MPI_Isend"), at("wait_any", "MPI_Irecv"))
for function in ("wait_some", "test_all"):  # all to all, 4 s + d + 1 ints
    for s in range(N):
        for d in range(N):
            if s != d:
                m.p2p(s, d, (4 * s + d + 1) * INT, at(function, "reqs::post_all;MPI_Isend"),
                      at(function, "reqs::post_all;MPI_Irecv"))
for r in range(N):
    m.p2p(r, (r + 1) % N, 3 * INT, at("test_any", "MPI_Isend"), at("test_any", "MPI_Irecv"))
    # 40 + 40 messages of 1 int each way between 0 <-> 1 and 2 <-> 3
    m.p2p(r, r ^ 1, INT, at("many", "MPI_Isend"), at("many", "MPI_Irecv"), times=80)
# persistent: 4 starts of 4 ints 0 -> 1 (the last one freed while active);
# 2 <-> 3: 2 Startalls of 6 doubles each way
m.p2p(0, 1, 4 * INT, at("persistent", "MPI_Send_init"), at("persistent", "MPI_Recv_init"), times=4)
m.p2p(2, 3, 6 * DOUBLE, at("persistent", "MPI_Ssend_init"), at("persistent", "MPI_Recv_init"), times=2)
m.p2p(3, 2, 6 * DOUBLE, at("persistent", "MPI_Ssend_init"), at("persistent", "MPI_Recv_init"), times=2)
m.p2p(2, 3, 10 * INT, at("probes", "MPI_Send"), at("probes", "MPI_Recv"))
# completed while the program computes
m.p2p(0, 1, 250 * INT, at("overlap", "MPI_Isend"), at("overlap", "MPI_Recv"))
m.p2p(2, 3, 250 * INT, at("overlap", "MPI_Isend"), at("overlap", "MPI_Irecv"))
m.p2p(2, 3, INT, at("overlap", "MPI_Send"), at("overlap", "MPI_Recv"))  # the token

CALLS = {
    "main;freq;MPI_Init": N, "main;freq;MPI_Finalize": N,
    at("wait_any", "MPI_Waitany"): N - 1, at("wait_any", "MPI_Wait"): N - 1,
    at("persistent", "MPI_Start"): 8,        # 4 on rank 0, 4 on rank 1
    at("persistent", "MPI_Startall"): 6,     # 2 on each of ranks 1 (MPI_PROC_NULL), 2 and 3
    at("persistent", "MPI_Request_free"): 1 + 3 + 2 + 2,
    at("persistent", "MPI_Send_init"): 2,    # rank 1's MPI_PROC_NULL one moves nothing
    at("probes", "MPI_Probe"): 1,
    at("many", "MPI_Waitall"): N,
    at("overlap", "MPI_Wait"): 2,
}

# Ranks 0, 2 and 3 also write their own files (for the polling check).
RANK_FILES = [0, 2, 3]


def polled_while_computing(run, what):
    """As in test/mpi/requests.py: a message's duration ends when hooktrace
    first sees it complete.  It completed before the computation started,
    and 0.5 s pass without hooks between the computation and the
    Wait/Test.  Seen by polling during the computation, its duration is at
    most the overlap function's time minus that 0.5 s; seen only at the
    Wait/Test, it would be at least 0.5 s longer.  Half of that (0.25 s) is
    allowed for everything else, so the check does not depend on how fast
    anything ran."""
    for path, rank, field in (("MPI_Isend", 0, "message_time_sent_s"), ("MPI_Isend", 2, "message_time_sent_s"),
                              ("MPI_Irecv", 3, "message_time_received_s")):
        q = run.rank_profile(rank)
        if q is None:
            continue
        bound = q.stack("main;freq;reqs::overlap")["time_incl_s"] - 0.5 + 0.25
        entry = q.rank_entries(at("overlap", path)).get(rank, {})
        if check(field in entry, "%s: %s of rank %d has %s" % (what, path, rank, field)):
            check(entry[field] < bound,
                  "%s: overlap %s on rank %d seen complete by polling during compute: "
                  "message time %.6f s, must be below %.6f s" % (what, path, rank, entry[field], bound))


reference = mpirun(fortran_program("freq_plain"), N)
check_status(reference, 0, "freq_plain")
for variant in ("f90", "f77", "f08"):
    what = "freq_" + variant
    r = mpirun(fortran_program(what), N, config={"mpi": {"rank_files": RANK_FILES}})
    p = expect_run(r, reference, m, CALLS, N, what)
    expect_rank_calls(p, at("many", "MPI_Isend"), {k: 80 for k in range(N)}, what)
    expect_rank_calls(p, at("persistent", "MPI_Recv_init"), {1: 2, 2: 1, 3: 1}, what)
    if p:
        check(p.calls(at("probes", "MPI_Iprobe")) >= 1, what + ": MPI_Iprobe is a node")
        for path in ("main;freq;reqs::overlap;reqs::compute", "main;freq;reqs::overlap;reqs::compute;reqs::leaf"):
            check(p.has(path), "%s: the program computed under the open requests (%s)" % (what, path))
        polled_while_computing(r, what)
        for rank in RANK_FILES:
            expect_rank_file(r.rank_profile(rank), m, rank, N, what)
finish()
