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
  one call site, many calls the sum of the calls (recorded once per shape)

MPI_IN_PLACE calls pass 0 / MPI_DATATYPE_NULL as the ignored arguments."""
from mpilib import *
from models import empty_blocks, intercomm_collectives, neighbour_collectives, rooted_and_everyone

require_launcher()


def at(function, routine):
    return "main;%s;%s" % (function, routine)


def model(n):
    """The messages of collectives.c on n ranks."""
    m = Messages()
    ranks = range(n)
    pairs = [(s, d) for s in ranks for d in ranks]

    def blocking(routine, s, d, nbytes, function):
        m.coll(s, d, nbytes, at(function, "MPI_" + routine.capitalize()))

    def nonblocking(routine, s, d, nbytes, function):
        m.coll(s, d, nbytes, at("nonblocking", "MPI_I" + routine))
    rooted_and_everyone(n, blocking)
    rooted_and_everyone(n, nonblocking)
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
    empty_blocks(m, n, at)   # blocks of 0 bytes: no message
    # periodic ring (left and right neighbour, the same rank on 2 ranks),
    # distributed graph, non-periodic line
    neighbour_collectives(m, n, at, "neighbour", "line_neighbour", "graph_neighbour")
    # one call site called many times, on a dup freed before the end
    for s, d in pairs:
        for _ in range(5):
            m.coll(s, d, 3 * INT, at("repeated", "MPI_Allreduce"))
        for _ in range(2):
            m.coll(s, d, 5 * DOUBLE, at("repeated", "MPI_Allreduce"))
        for _ in range(4):
            m.coll(s, d, 2 * INT, at("repeated", "MPI_Iallreduce"))
        if s == 0:
            for _ in range(3):
                m.coll(s, d, 4 * INT, at("repeated", "MPI_Bcast"))
    # inter-communicator A = [0, n/2), B = [n/2, n)
    intercomm_collectives(m, n, at, bcast_allreduce=True)
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
         at("line_neighbour", "MPI_Neighbor_alltoall"): n,
         at("repeated", "MPI_Allreduce"): 7 * n, at("repeated", "MPI_Iallreduce"): 4 * n,
         at("repeated", "MPI_Bcast"): 3 * n}
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
