"""Every collective (test/mpi/collectives.c) on 4, 3, 2 and 1 ranks: each
is split into pairwise messages, counted per stack and rank on both sides
and in coll_matrix on the sending side.  The rules (a rank's message to
itself is never counted):

  Bcast, Scatter(v)         root -> every other rank
  Gather(v), Reduce         every other rank -> root
  Allgather(v), Alltoall(v,w), Allreduce
                            every rank -> every other rank
  Reduce_scatter(_block)    r -> i: recvcounts[i] (or recvcount)
  Scan, Exscan              r -> every j > r
  Barrier, 0-byte blocks    nothing
  neighbour collectives     r -> each neighbour (a periodic 1-D ring, a
                            line, a distributed graph)
  sub-communicators         peers are world ranks
  inter-communicators       to the ranks of the remote group
  non-blocking forms        as the blocking ones, at the I-routine's stack

MPI_IN_PLACE calls pass 0 / MPI_DATATYPE_NULL as the ignored arguments."""
from mpilib import *

require_launcher()


def at(function, routine):
    return "main;%s;%s" % (function, routine)


def model(n):
    """The messages of collectives.c on n ranks."""
    m = Messages()
    ranks = range(n)
    root = n - 1
    pairs = [(s, d) for s in ranks for d in ranks]
    for blocking in (True, False):
        def c(routine, s, d, nbytes, function="rooted"):
            """routine in lower case: MPI_Bcast in rooted() or everyone(),
            MPI_Ibcast in nonblocking()."""
            if blocking:
                m.coll(s, d, nbytes, at(function, "MPI_" + routine.capitalize()))
            else:
                m.coll(s, d, nbytes, at("nonblocking", "MPI_I" + routine))
        for d in ranks:
            c("bcast", root, d, 6 * INT)
            c("scatter", root, d, 3 * DOUBLE)
            c("scatterv", root, d, (2 * d + 1) * INT)
        for s in ranks:
            c("gather", s, root, 2 * INT)
            c("gatherv", s, root, (s + 1) * INT)
            c("reduce", s, root, 4 * DOUBLE)
        for s, d in pairs:
            c("allgather", s, d, 2 * INT, "everyone")
            c("allgatherv", s, d, (s + 2) * INT, "everyone")
            c("alltoall", s, d, 3 * INT, "everyone")
            c("alltoallv", s, d, (s + d + 1) * INT, "everyone")
            c("alltoallw", s, d, ((s + d) % 3 + 1) * (DOUBLE if (s + d) % 2 == 0 else INT), "everyone")
            c("allreduce", s, d, 5 * DOUBLE, "everyone")
            c("reduce_scatter", s, d, (d + 1) * INT, "everyone")
            c("reduce_scatter_block", s, d, 2 * DOUBLE, "everyone")
            if d > s:
                c("scan", s, d, 3 * INT, "everyone")
                c("exscan", s, d, 2 * DOUBLE, "everyone")
    # MPI_IN_PLACE
    for s, d in pairs:
        m.coll(s, d, 7 * INT, at("in_place", "MPI_Allreduce"))
        m.coll(s, d, 3 * INT, at("in_place", "MPI_Allgather"))
    for s in ranks:
        m.coll(s, 0, 4 * DOUBLE, at("in_place", "MPI_Gather"))
        m.coll(s, 0, 6 * DOUBLE, at("in_place", "MPI_Reduce"))
    # sub-communicators: the parity halves, sub-rank 0 = highest world rank
    for parity in (0, 1):
        half = sorted((r for r in ranks if r % 2 == parity), reverse=True)
        for i, x in enumerate(half):
            if i > 0:
                m.coll(half[0], x, 2 * INT, at("sub_colls", "MPI_Bcast"))
            for j, y in enumerate(half):
                m.coll(x, y, INT, at("sub_colls", "MPI_Allreduce"))
                if j > i:
                    m.coll(x, y, DOUBLE, at("sub_colls", "MPI_Scan"))
    # blocks of 0 bytes: no message
    for s, d in pairs:
        if (s + d) % 2:
            m.coll(s, d, INT, at("empty_blocks", "MPI_Alltoallv"))
    for s in ranks:
        if s % 2:
            m.coll(s, 0, INT, at("empty_blocks", "MPI_Gatherv"))
    # periodic ring: left and right neighbour (the same rank on 2 ranks)
    for r in ranks:
        left, right = (r - 1) % n, (r + 1) % n
        for prefix in ("MPI_Neighbor_", "MPI_Ineighbor_"):
            def nb(routine, to, nbytes):
                m.coll(r, to, nbytes, at("neighbour", prefix + routine))
            for to in (left, right):
                nb("allgather", to, 2 * INT)
                nb("allgatherv", to, (r + 1) * INT)
                nb("alltoall", to, 3 * DOUBLE)
            if prefix == "MPI_Neighbor_":
                nb("alltoallv", left, INT)
                nb("alltoallv", right, 2 * INT)
                nb("alltoallw", left, DOUBLE)
                nb("alltoallw", right, 3 * INT)
            else:  # the same to both sides (see collectives.c)
                for to in (left, right):
                    nb("alltoallv", to, 2 * INT)
                    nb("alltoallw", to, 3 * INT)
        # distributed graph: to r+1 and r+2
        m.coll(r, (r + 1) % n, INT, at("graph_neighbour", "MPI_Neighbor_alltoallv"))
        m.coll(r, (r + 2) % n, 3 * INT, at("graph_neighbour", "MPI_Neighbor_alltoallv"))
        # non-periodic line: no neighbour beyond the ends
        for to in (r - 1, r + 1):
            if 0 <= to < n:
                m.coll(r, to, 2 * INT, at("line_neighbour", "MPI_Neighbor_alltoall"))
    # inter-communicator A = [0, n/2), B = [n/2, n)
    if n >= 2:
        a, b = range(n // 2), range(n // 2, n)
        for x in b:
            m.coll(a[0], x, 4 * INT, at("inter", "MPI_Bcast"))
        for x in a:
            m.coll(x, b[0], 2 * INT, at("inter", "MPI_Gather"))
        for g, h in ((a, b), (b, a)):
            for x in g:
                for y in h:
                    m.coll(x, y, 2 * INT, at("inter", "MPI_Allreduce"))
                    m.coll(x, y, 3 * INT, at("inter", "MPI_Allgather"))
                    m.coll(x, y, 1 * INT, at("inter", "MPI_Alltoall"))
                    # vectors of 2 |A| |B| ints, split evenly over the remote group
                    m.coll(x, y, 2 * len(g) * INT, at("inter", "MPI_Reduce_scatter_block"))
                    m.coll(x, y, (x + 1) * INT, at("inter", "MPI_Allgatherv"))
                for i, y in enumerate(h):
                    m.coll(x, y, (i + 1) * INT, at("inter", "MPI_Alltoallv"))
        for y in b:
            m.coll(a[0], y, 2 * INT, at("inter", "MPI_Scatter"))
        for i, x in enumerate(a):
            m.coll(b[0], x, (i + 1) * INT, at("inter", "MPI_Scatterv"))
            m.coll(x, b[0], 3 * INT, at("inter", "MPI_Reduce"))
            m.coll(b[0], x, 5 * INT, at("inter", "MPI_Ibcast"))
    report_messages(m, n)
    return m


def calls(n):
    """Calls (over all ranks) of some stacks, those that move nothing
    included."""
    c = {at("rooted", "MPI_Barrier"): n, at("nonblocking", "MPI_Ibarrier"): n,
         at("nonblocking", "MPI_Waitall"): n, at("nonblocking", "MPI_Wait"): n,
         at("rooted", "MPI_Bcast"): n, at("everyone", "MPI_Exscan"): n,
         at("neighbour", "MPI_Neighbor_allgather"): n, at("empty_blocks", "MPI_Bcast"): n,
         at("empty_blocks", "MPI_Alltoallv"): n, at("neighbour", "MPI_Wait"): 5 * n,
         at("line_neighbour", "MPI_Neighbor_alltoall"): n}
    if n >= 2:
        c[at("inter", "MPI_Barrier")] = n
        c[at("inter", "MPI_Bcast")] = n
    return c


reference = None
for n in (4, 3, 2, 1):
    what = "collectives on %d rank%s" % (n, "s" if n > 1 else "")
    r = mpirun(mpi_program("collectives"), n)
    check_status(r, 0, what)
    if n == 4:
        reference = mpirun(mpi_program("collectives_plain"), n)
        check_status(reference, 0, "collectives_plain")
        expect_same_stdout(r, reference, "collectives with hooktrace")
    p = r.summary()
    expect_messages(p, model(n), n, what)
    expect_total_calls(p, calls(n), what)
    if p and n == 1:
        check_eq(p.doc.get("coll_matrix"), [], what + ": coll_matrix is empty")
        check_eq(p.doc.get("comm_matrix"), [], what + ": comm_matrix is empty")
finish()
