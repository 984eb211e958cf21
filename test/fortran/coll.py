"""More of the C MPI tests through the Fortran bindings (test/fortran/
coll.F90), on 4 and on 3 ranks, built three ways: `use mpi` (fcoll_f90),
`include 'mpif.h'` (fcoll_f77) and `use mpi_f08` (fcoll_f08).  Each must
record exactly the messages, bytes and peers the rules of docs/mpi.md give
(the model of test/mpi/collectives.py and requests.py), per stack, per rank
and in comm_matrix / coll_matrix:

  rooted collectives (root = last rank): Bcast, Gather, Gatherv, Scatter,
      Scatterv, Reduce
  Allgather, Allgatherv, Alltoallv, Allreduce, Reduce_scatter,
      Reduce_scatter_block, Scan, Exscan
  MPI_IN_PLACE in Allreduce and in Gather at the root
  Ibcast, Iallreduce, Igatherv completed by one MPI_Waitall
  a sub-communicator from MPI_Comm_split (peers are world ranks)
  matched probes: Mprobe/Mrecv, Improbe/Imrecv (also in a communicator with
      the ranks reversed; MPI_PROC_NULL moves nothing)
  a cancelled MPI_Irecv is no message (MPI_Test_cancelled says .true.)
  Isend/Irecv completed by MPI_Testsome
  MPI_IN_PLACE in Allgather and Alltoallv, in Reduce at the root and
      Scatter at the root (receive side)
  Ialltoallw (one datatype per peer)
  an inter-communicator: Bcast with MPI_ROOT / MPI_PROC_NULL, Allreduce,
      Barrier

every call counted once, no MPI routine under another; stdout as without
hooktrace.  The rest of test/mpi/collectives.c is in nbcoll.py and
neighbour.py."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flib import *  # noqa: E402,F403


require_launcher()


def at(function, routine):
    return "main;fcoll;coll::%s;%s" % (function, routine)


def model(n):
    m = Messages()
    ranks = range(n)
    root = n - 1
    pairs = [(s, d) for s in ranks for d in ranks]
    # rooted
    for d in ranks:
        m.coll(root, d, 6 * INT, at("rooted", "MPI_Bcast"))
        m.coll(root, d, 3 * DOUBLE, at("rooted", "MPI_Scatter"))
        m.coll(root, d, (2 * d + 1) * INT, at("rooted", "MPI_Scatterv"))
        m.coll(root, d, 6 * INT, at("nonblocking", "MPI_Ibcast"))
    for s in ranks:
        m.coll(s, root, 2 * INT, at("rooted", "MPI_Gather"))
        m.coll(s, root, (s + 1) * INT, at("rooted", "MPI_Gatherv"))
        m.coll(s, root, 4 * DOUBLE, at("rooted", "MPI_Reduce"))
        m.coll(s, root, (s + 1) * INT, at("nonblocking", "MPI_Igatherv"))
        # MPI_IN_PLACE at root 0
        m.coll(s, 0, 4 * DOUBLE, at("in_place", "MPI_Gather"))
    # everyone
    for s, d in pairs:
        m.coll(s, d, 2 * INT, at("everyone", "MPI_Allgather"))
        m.coll(s, d, (s + 2) * INT, at("everyone", "MPI_Allgatherv"))
        m.coll(s, d, (s + d + 1) * INT, at("everyone", "MPI_Alltoallv"))
        m.coll(s, d, 5 * DOUBLE, at("everyone", "MPI_Allreduce"))
        m.coll(s, d, (d + 1) * INT, at("everyone", "MPI_Reduce_scatter"))
        m.coll(s, d, 2 * DOUBLE, at("everyone", "MPI_Reduce_scatter_block"))
        if d > s:
            m.coll(s, d, 3 * INT, at("everyone", "MPI_Scan"))
            m.coll(s, d, 2 * DOUBLE, at("everyone", "MPI_Exscan"))
        m.coll(s, d, 7 * INT, at("in_place", "MPI_Allreduce"))
        m.coll(s, d, 5 * DOUBLE, at("nonblocking", "MPI_Iallreduce"))
    # sub-communicator: the parity halves, sub-rank 0 = highest world rank
    for parity in (0, 1):
        half = sorted((r for r in ranks if r % 2 == parity), reverse=True)
        for i, x in enumerate(half):
            if i > 0:
                m.coll(half[0], x, 2 * INT, at("sub_colls", "MPI_Bcast"))
            for j, y in enumerate(half):
                m.coll(x, y, INT, at("sub_colls", "MPI_Allreduce"))
                if j > i:
                    m.coll(x, y, DOUBLE, at("sub_colls", "MPI_Scan"))
    # matched probes: n-2 -> n-1 in MPI_COMM_WORLD; 0 <-> 1 in the reversed one
    m.p2p(n - 2, n - 1, 10 * INT, at("matched_probe", "MPI_Send"), at("matched_probe", "MPI_Mrecv"))
    m.p2p(n - 2, n - 1, 20 * INT, at("matched_probe", "MPI_Send"), at("matched_probe", "MPI_Imrecv"))
    m.p2p(0, 1, 3 * DOUBLE, at("matched_probe", "MPI_Send"), at("matched_probe", "MPI_Imrecv"))
    m.p2p(1, 0, 5 * INT, at("matched_probe", "MPI_Send"), at("matched_probe", "MPI_Mrecv"))
    # cancel: of rank 0's two Irecvs only the uncancelled one is a message
    m.p2p(1, 0, 10, at("cancel", "MPI_Send"), at("cancel", "MPI_Irecv"))
    # Testsome: all to all, 4 s + d + 1 ints
    for s, d in pairs:
        if s != d:
            m.p2p(s, d, (4 * s + d + 1) * INT, at("test_some", "MPI_Isend"), at("test_some", "MPI_Irecv"))
    # MPI_IN_PLACE deciding what is sent (in_place_sends())
    for s, d in pairs:
        m.coll(s, d, 3 * INT, at("in_place_sends", "MPI_Allgather"))      # recvcount x recvtype
        m.coll(s, d, (s + d + 1) * INT, at("in_place_sends", "MPI_Alltoallv"))  # recvcounts[d]
        m.coll(s, d, ((s + d) % 3 + 1) * (DOUBLE if (s + d) % 2 == 0 else INT),
               at("ialltoallw", "MPI_Ialltoallw"))
    for s in ranks:
        m.coll(s, 0, 6 * DOUBLE, at("more_in_place", "MPI_Reduce"))
        m.coll(root, s, 2 * INT, at("more_in_place", "MPI_Scatter"))
    # inter-communicator A = [0, n/2), B = [n/2, n)
    a, b = range(n // 2), range(n // 2, n)
    for y in b:
        m.coll(a[0], y, 4 * INT, at("inter", "MPI_Bcast"))
    for g, h in ((a, b), (b, a)):
        for x in g:
            for y in h:
                m.coll(x, y, 2 * INT, at("inter", "MPI_Allreduce"))
    return m


def calls(n):
    """Calls (over all ranks) of some stacks, those that move nothing included."""
    return {
        "main;fcoll;MPI_Init": n, "main;fcoll;MPI_Finalize": n,
        at("rooted", "MPI_Bcast"): n, at("everyone", "MPI_Exscan"): n,
        at("in_place", "MPI_Allreduce"): n, at("in_place", "MPI_Gather"): n,
        at("nonblocking", "MPI_Ibcast"): n, at("nonblocking", "MPI_Iallreduce"): n,
        at("nonblocking", "MPI_Igatherv"): n, at("nonblocking", "MPI_Waitall"): n,
        at("sub_colls", "MPI_Bcast"): n,
        # n of MPI_PROC_NULL each
        at("matched_probe", "MPI_Mprobe"): 2 + n,
        at("matched_probe", "MPI_Mrecv"): 2 + n,
        at("matched_probe", "MPI_Imrecv"): 2 + n,
        at("matched_probe", "MPI_Wait"): 2 + n,
        at("cancel", "MPI_Irecv"): 2, at("cancel", "MPI_Cancel"): 1, at("cancel", "MPI_Wait"): 2,
        at("test_some", "MPI_Isend"): n * (n - 1), at("test_some", "MPI_Irecv"): n * (n - 1),
        at("more_in_place", "MPI_Scatter"): n, at("ialltoallw", "MPI_Wait"): n,
        at("inter", "MPI_Bcast"): n, at("inter", "MPI_Barrier"): n,
    }


for variant in ("f90", "f77", "f08"):
    exe = os.path.join(BUILDDIR, "test", "fortran", "fcoll_" + variant)
    for n in (4, 3):
        what = "fcoll_%s on %d ranks" % (variant, n)
        r = mpirun(exe, n)
        check_status(r, 0, what)
        reference = mpirun(exe + "_plain", n)
        check_status(reference, 0, what + " (plain)")
        # Every rank prints: the order of lines varies between runs.
        lines = sorted(r.stdout.splitlines())
        check_eq(lines, sorted(reference.stdout.splitlines()), what + ": stdout as without hooktrace")
        check("fcoll cancelled: T" in lines, "%s: MPI_Test_cancelled confirms the cancel: %r"
              % (what, r.stdout))
        p = r.summary()
        expect_messages(p, model(n), n, what)
        expect_total_calls(p, calls(n), what)
        expect_rank_calls(p, at("cancel", "MPI_Irecv"), {0: 2}, what)
        expect_rank_calls(p, at("matched_probe", "MPI_Imrecv"), {1: 2, n - 1: 2}, what)
        check_eq(nested_mpi(p), [], what + ": no MPI routine under another")
finish()
