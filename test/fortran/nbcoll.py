"""The rest of test/mpi/collectives.c through the Fortran bindings
(test/fortran/nbcoll.F90) on 4, 3, 2 and 1 ranks, as `use mpi` (fnbcoll_f90)
and `use mpi_f08` (fnbcoll_f08): each collective split into the pairwise
messages of docs/mpi.md, exactly, per stack, per rank and in coll_matrix:

  every non-blocking collective (Ibarrier ... Iexscan, the counts of
      collectives.c), recorded at its own stack when the one MPI_Waitall of
      all 17 requests completes them
  blocks of 0 bytes are no messages (Bcast, Alltoallv, Gatherv)
  Fortran's MPI_BOTTOM as an Alltoallv's send buffer (not MPI_IN_PLACE:
      the send counts decide)
  an inter-communicator (2 ranks or more): Gather, Allgather, Alltoall,
      Reduce_scatter_block, Scatter, Scatterv, Reduce, Allgatherv,
      Alltoallv, Ibcast, Alltoallw (a datatype per remote rank; with
      MPICH's mpi_f08 only when both groups have the same size: MPICH
      4.0's binding sizes the datatype arrays with the local group's size,
      an error without hooktrace too, docs/fortran.md)

every call counted once, no MPI routine under another; stdout as without
hooktrace (on 4 ranks)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flib import *  # noqa: E402,F403
from models import empty_blocks, intercomm_collectives, rooted_and_everyone  # noqa: E402

require_launcher()


def at(function, routine):
    return "main;fnbcoll;nbcoll::%s;%s" % (function, routine)


def model(n, uneven_inter_w=True):
    m = Messages()
    rooted_and_everyone(n, lambda routine, s, d, nbytes, function:
                        m.coll(s, d, nbytes, at("nonblocking", "MPI_I" + routine)))
    empty_blocks(m, n, at)   # blocks of 0 bytes: no message
    # MPI_BOTTOM: the send counts, me + 2 peer + 1
    for s in range(n):
        for d in range(n):
            m.coll(s, d, (s + 2 * d + 1) * INT, at("bottom", "MPI_Alltoallv"))
    # inter-communicator A = [0, n/2), B = [n/2, n)
    intercomm_collectives(m, n, at, alltoallw=uneven_inter_w or n % 2 == 0)
    return m


def calls(n, uneven_inter_w=True):
    c = {"main;fnbcoll;MPI_Init": n, "main;fnbcoll;MPI_Finalize": n,
         at("nonblocking", "MPI_Ibarrier"): n, at("nonblocking", "MPI_Iexscan"): n,
         at("nonblocking", "MPI_Waitall"): n, at("empty_blocks", "MPI_Bcast"): n,
         at("empty_blocks", "MPI_Alltoallv"): n, at("bottom", "MPI_Alltoallv"): n}
    if n >= 2:
        c.update({at("inter", "MPI_Ibcast"): n, at("inter", "MPI_Wait"): n})
        if uneven_inter_w or n % 2 == 0:
            c[at("inter", "MPI_Alltoallw")] = n
    return c


# stdout as without hooktrace: compared on 4 ranks
reference = mpirun(fortran_program("fnbcoll_plain"), 4)
check_status(reference, 0, "fnbcoll_plain on 4 ranks")
for n in (4, 3, 2, 1):
    for variant in ("f90", "f08"):
        what = "fnbcoll_%s on %d rank%s" % (variant, n, "s" if n > 1 else "")
        uneven_inter_w = not (MPICH and variant == "f08")
        r = mpirun(fortran_program("fnbcoll_" + variant), n, [] if uneven_inter_w else ["no-uneven-inter-alltoallw"])
        p = expect_run(r, reference if n == 4 else None, model(n, uneven_inter_w), calls(n, uneven_inter_w), n,
                       what)
        if p and n == 1:
            check_eq(p.doc.get("coll_matrix"), [], what + ": coll_matrix is empty")
finish()
