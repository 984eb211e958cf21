"""The Fortran bindings (test/fortran/p2p.F90: blocking, non-blocking,
persistent and PROC_NULL point-to-point, Wait/Test families, Bcast,
Allreduce with MPI_IN_PLACE, Alltoall(w), Put/Get, MPI_Pcontrol) on 4 ranks,
built three ways:
`use mpi` (fmpi_f90), `include 'mpif.h'` (fmpi_f77) and `use mpi_f08`
(fmpi_f08): each must record exactly the messages, bytes and peers the same
program records in C terms, under the same paths (main program by its name,
module procedures as module::procedure, MPI routines as MPI_Send ...), every
call counted once; stdout as without hooktrace."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flib import *  # noqa: E402,F403


require_launcher()
N = 4


def at(function, routine):
    return "main;fmpi;comm::%s;%s" % (function, routine)


def model():
    m = Messages()
    for r in range(N):
        right, left = (r + 1) % N, (r - 1) % N
        m.p2p(r, right, 10 * INT, at("ring", "MPI_Send"), at("ring", "MPI_Recv"))
        # nonblocking: 4 doubles each way, then 1 int to the right
        m.p2p(r, right, 4 * DOUBLE, at("nonblocking", "MPI_Isend"), at("nonblocking", "MPI_Irecv"))
        m.p2p(r, left, 4 * DOUBLE, at("nonblocking", "MPI_Isend"), at("nonblocking", "MPI_Irecv"))
        m.p2p(r, right, INT, at("nonblocking", "MPI_Isend"), at("nonblocking", "MPI_Irecv"))
        # persistent: 3 starts of 6 ints to the right
        m.p2p(r, right, 6 * INT, at("persistent", "MPI_Send_init"), at("persistent", "MPI_Recv_init"),
              times=3)
        # tests: MPI_Test, MPI_Testall; the Sendrecv between MPI_Pcontrol(0)
        # and (1) in paused() records nothing
        m.p2p(r, right, 2 * INT, at("tests", "MPI_Isend"), at("tests", "MPI_Irecv"))
        m.p2p(r, right, 3 * INT, at("tests", "MPI_Isend"), at("tests", "MPI_Irecv"))
        # one_sided: the origin records; Get moves 1 int from the left
        m.rma(r, right, 2 * INT, at("one_sided", "MPI_Put"))
        m.rma(r, left, INT, at("one_sided", "MPI_Get"))
    # MPI_ANY_SOURCE with MPI_STATUS_IGNORE
    for r in range(1, N):
        m.p2p(r, 0, 100 * r, at("any_source", "MPI_Send"), at("any_source", "MPI_Recv"))
    for s in range(N):
        m.coll(1, s, 8 * INT, at("collectives", "MPI_Bcast"))
        for d in range(N):
            m.coll(s, d, 3 * INT, at("collectives", "MPI_Allreduce"))   # MPI_IN_PLACE
            m.coll(s, d, 2 * INT, at("collectives", "MPI_Alltoall"))
            m.coll(s, d, INT, at("collectives", "MPI_Alltoallw"))
    return m


CALLS = {at("proc_null", routine): N for routine in ("MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Wait")}
CALLS.update({"main;fmpi;MPI_Init": N, "main;fmpi;MPI_Finalize": N,
              at("ring", "MPI_Send"): N, at("ring", "MPI_Recv"): N,
              at("nonblocking", "MPI_Isend"): 3 * N, at("nonblocking", "MPI_Irecv"): 3 * N,
              at("nonblocking", "MPI_Waitall"): N, at("nonblocking", "MPI_Waitany"): N,
              at("persistent", "MPI_Startall"): 3 * N, at("persistent", "MPI_Waitall"): 3 * N,
              at("persistent", "MPI_Request_free"): 2 * N,
              at("collectives", "MPI_Bcast"): N, at("collectives", "MPI_Allreduce"): N,
              at("collectives", "MPI_Alltoall"): N, at("collectives", "MPI_Barrier"): N,
              at("tests", "MPI_Wait"): N, at("one_sided", "MPI_Put"): N, at("one_sided", "MPI_Get"): N})

m = model()
for variant in ("f90", "f77", "f08"):
    exe = os.path.join(BUILDDIR, "test", "fortran", "fmpi_" + variant)
    r = mpirun(exe, N)
    check_status(r, 0, "fmpi_" + variant)
    reference = mpirun(exe + "_plain", N)
    check_status(reference, 0, "fmpi_%s_plain" % variant)
    # Every rank prints: the order of lines varies between runs.
    check_eq(sorted(r.stdout.splitlines()), sorted(reference.stdout.splitlines()),
             "fmpi_%s stdout as without hooktrace" % variant)
    p = r.summary()
    expect_messages(p, m, N, "fmpi_" + variant)
    expect_total_calls(p, CALLS, "fmpi_" + variant)
    check(p is not None and not p.has(at("paused", "MPI_Sendrecv")),
          "fmpi_%s: nothing recorded between MPI_Pcontrol(0) and (1)" % variant)
    check_eq(nested_mpi(p), [], "fmpi_%s: no MPI routine under another" % variant)
finish()
