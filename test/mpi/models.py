"""The messages the C test programs of test/mpi move, for the drivers of
both those programs (test/mpi/*.py) and their Fortran counterparts
(test/fortran/*.py), which do the same through the Fortran bindings.

Each function adds one part of a program's messages to a model (mpilib's
Messages) on n ranks.  at(function, routine) is the driver's stack of an
MPI routine called in one of the program's functions: the C and Fortran
programs name their stacks differently ("main;fence_ops;MPI_Put",
"main;frma;onesided::fence_ops;MPI_Put"), the messages are the same.
What only one of the programs does stays in its driver."""

from mpilib import DOUBLE, INT, LONG, Messages, check


# --- point-to-point (p2p.c, sends.F90) ---------------------------------------

def p2p_sends(m, n, at):
    """p2p.c's sendrecv(), self_send(), zero_bytes(), derived(),
    send_modes(), subcomm() and intercomm() on 4 ranks."""
    for r in range(n):
        # Sendrecv: 3 doubles to r+1; Sendrecv_replace: 5 ints to r-1
        m.p2p(r, (r + 1) % n, 3 * DOUBLE, at("sendrecv", "MPI_Sendrecv"), at("sendrecv", "MPI_Sendrecv"))
        m.p2p(r, (r - 1) % n, 5 * INT, at("sendrecv", "MPI_Sendrecv_replace"),
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


def p2p_messages(n, at):
    """Every message of test/mpi/p2p.c on n = 4 ranks: p2p_sends' and the C
    program's own blocking ring (10 ints to r+1) and MPI_ANY_SOURCE receives
    (r sends 100 r bytes to 0)."""
    m = Messages()
    p2p_sends(m, n, at)
    for r in range(n):
        m.p2p(r, (r + 1) % n, 10 * INT, at("blocking_ring", "MPI_Send"), at("blocking_ring", "MPI_Recv"))
    for r in range(1, n):
        m.p2p(r, 0, 100 * r, at("any_source", "MPI_Send"), at("any_source", "MPI_Recv"))
    return m


def p2p_calls(n, at):
    """Calls (over all ranks) of p2p_sends' stacks that move fewer messages
    than they have calls: with MPI_PROC_NULL every routine is a node, none
    moves a message; the Waits."""
    calls = {at("proc_null", routine): n for routine in
             ("MPI_Send", "MPI_Recv", "MPI_Sendrecv", "MPI_Isend", "MPI_Irecv", "MPI_Waitall")}
    calls.update({at("zero_bytes", "MPI_Wait"): 2, at("send_modes", "MPI_Wait"): 3 + 2})
    return calls


# --- requests (requests.c, requests.F90) ------------------------------------

def requests(m, n, at, post_all, all_to_all):
    """requests.c's wait_any(), test_any(), many(), persistent() and
    overlap() on 4 ranks, and the all-to-all messages its post_all() starts
    for each function of all_to_all; post_all: that routine's name in the
    stack ("post_all", "reqs::post_all")."""
    for r in range(1, n):  # r longs to rank 0, completed by MPI_Waitany
        m.p2p(r, 0, r * LONG, at("wait_any", "MPI_Isend"), at("wait_any", "MPI_Irecv"))
    for function in all_to_all:  # all to all, 4 s + d + 1 ints
        for s in range(n):
            for d in range(n):
                if s != d:
                    m.p2p(s, d, (4 * s + d + 1) * INT, at(function, post_all + ";MPI_Isend"),
                          at(function, post_all + ";MPI_Irecv"))
    for r in range(n):
        # ring, 3 ints, MPI_Testany
        m.p2p(r, (r + 1) % n, 3 * INT, at("test_any", "MPI_Isend"), at("test_any", "MPI_Irecv"))
        # 40 + 40 messages of 1 int each way between 0 <-> 1 and 2 <-> 3
        m.p2p(r, r ^ 1, INT, at("many", "MPI_Isend"), at("many", "MPI_Irecv"), times=80)
    # persistent: 4 starts of 4 ints 0 -> 1 (the last one freed while active);
    # 2 <-> 3: 2 Startalls of 6 doubles each way
    m.p2p(0, 1, 4 * INT, at("persistent", "MPI_Send_init"), at("persistent", "MPI_Recv_init"), times=4)
    m.p2p(2, 3, 6 * DOUBLE, at("persistent", "MPI_Ssend_init"), at("persistent", "MPI_Recv_init"), times=2)
    m.p2p(3, 2, 6 * DOUBLE, at("persistent", "MPI_Ssend_init"), at("persistent", "MPI_Recv_init"), times=2)
    # completed while the program computes
    m.p2p(0, 1, 250 * INT, at("overlap", "MPI_Isend"), at("overlap", "MPI_Recv"))
    m.p2p(2, 3, 250 * INT, at("overlap", "MPI_Isend"), at("overlap", "MPI_Irecv"))
    m.p2p(2, 3, INT, at("overlap", "MPI_Send"), at("overlap", "MPI_Recv"))  # the token


def requests_calls(n, at):
    """Calls (over all ranks) of the stacks of requests() that do not move
    one message per call."""
    return {
        at("wait_any", "MPI_Waitany"): n - 1,
        at("wait_any", "MPI_Wait"): n - 1,
        at("persistent", "MPI_Start"): 8,        # 4 on rank 0, 4 on rank 1
        at("persistent", "MPI_Startall"): 6,     # 2 on each of ranks 1 (MPI_PROC_NULL), 2 and 3
        at("persistent", "MPI_Request_free"): 1 + 3 + 2 + 2,
        at("persistent", "MPI_Send_init"): 2,    # rank 1's MPI_PROC_NULL one moves nothing
        at("many", "MPI_Waitall"): n,
        at("overlap", "MPI_Wait"): 2,
    }


# The polling checks need hooks during the computation: leaf() is called a
# million times at a few ns each, so throttling would rewrite its hook calls
# away after 100,000 and leave the computation without hooks (a completion
# is then seen at the next hook or MPI call; docs/mpi.md).  The runs that
# check polling keep it recorded.
KEEP_LEAF = {"never": ["(^|::)leaf$"]}


def polled_while_computing(run, at, overlap, what):
    """A message's duration ends when hooktrace first sees it complete
    (docs/mpi.md).  The message completed before the computation started,
    and 0.5 s pass without hooks between the computation and the Wait/Test
    (requests.c, overlap).  Seen by polling during the computation, its
    duration is at most the time from its start to the end of the
    computation; seen only at the Wait/Test, it would be at least 0.5 s
    longer.  The check allows half of that (0.25 s) for everything else, so
    it does not depend on how fast anything ran.  Per rank, from the rank
    files of ranks 0, 2 and 3; overlap: the stack of the overlap function."""
    for path, rank, field in (("MPI_Isend", 0, "message_time_sent_s"), ("MPI_Isend", 2, "message_time_sent_s"),
                              ("MPI_Irecv", 3, "message_time_received_s")):
        q = run.rank_profile(rank)
        if q is None:
            continue
        # From the message's start to the end of the computation: the overlap
        # function's own time before the sleep is at most its whole time
        # minus the 0.5 s sleep and the final Wait/Test.
        bound = q.stack(overlap)["time_incl_s"] - 0.5 + 0.25
        entry = q.rank_entries(at("overlap", path)).get(rank, {})
        if check(field in entry, "%s: %s of rank %d has %s" % (what, path, rank, field)):
            check(entry[field] < bound,
                  "%s: overlap %s on rank %d seen complete by polling during compute: "
                  "message time %.6f s, must be below %.6f s" % (what, path, rank, entry[field], bound))


# --- collectives (collectives.c, nbcoll.F90, neighbour.F90) ------------------

def rooted_and_everyone(n, add):
    """The pairwise messages of collectives.c's rooted() and everyone() on
    n ranks (nonblocking() repeats them with the I-routines): add(routine,
    sender, receiver, bytes, function) for each, routine in lower case
    ("bcast"), function "rooted" or "everyone"."""
    ranks = range(n)
    root = n - 1
    for d in ranks:
        add("bcast", root, d, 6 * INT, "rooted")
        add("scatter", root, d, 3 * DOUBLE, "rooted")
        add("scatterv", root, d, (2 * d + 1) * INT, "rooted")
    for s in ranks:
        add("gather", s, root, 2 * INT, "rooted")
        add("gatherv", s, root, (s + 1) * INT, "rooted")
        add("reduce", s, root, 4 * DOUBLE, "rooted")
    for s in ranks:
        for d in ranks:
            add("allgather", s, d, 2 * INT, "everyone")
            add("allgatherv", s, d, (s + 2) * INT, "everyone")
            add("alltoall", s, d, 3 * INT, "everyone")
            add("alltoallv", s, d, (s + d + 1) * INT, "everyone")
            add("alltoallw", s, d, ((s + d) % 3 + 1) * (DOUBLE if (s + d) % 2 == 0 else INT), "everyone")
            add("allreduce", s, d, 5 * DOUBLE, "everyone")
            add("reduce_scatter", s, d, (d + 1) * INT, "everyone")
            add("reduce_scatter_block", s, d, 2 * DOUBLE, "everyone")
            if d > s:
                add("scan", s, d, 3 * INT, "everyone")
                add("exscan", s, d, 2 * DOUBLE, "everyone")


def empty_blocks(m, n, at):
    """collectives.c's empty_blocks(): the blocks of 0 bytes are no
    messages."""
    for s in range(n):
        for d in range(n):
            if (s + d) % 2:
                m.coll(s, d, INT, at("empty_blocks", "MPI_Alltoallv"))
        if s % 2:
            m.coll(s, 0, INT, at("empty_blocks", "MPI_Gatherv"))


def neighbour_collectives(m, n, at, ring, line, dist_graph, alltoallw=True):
    """collectives.c's neighbour collectives, in the functions named ring
    (a periodic 1-D ring: left and right neighbour, the same rank on 2
    ranks; every Neighbor_* and Ineighbor_* routine, the alltoallw ones
    only if alltoallw), line (a non-periodic line: no neighbour beyond the
    ends) and dist_graph (a distributed graph: r -> r+1, r+2)."""
    for r in range(n):
        left, right = (r - 1) % n, (r + 1) % n
        for prefix in ("MPI_Neighbor_", "MPI_Ineighbor_"):
            def nb(routine, to, nbytes):
                m.coll(r, to, nbytes, at(ring, prefix + routine))
            for to in (left, right):
                nb("allgather", to, 2 * INT)
                nb("allgatherv", to, (r + 1) * INT)
                nb("alltoall", to, 3 * DOUBLE)
            if prefix == "MPI_Neighbor_":
                nb("alltoallv", left, INT)
                nb("alltoallv", right, 2 * INT)
                if alltoallw:
                    nb("alltoallw", left, DOUBLE)
                    nb("alltoallw", right, 3 * INT)
            else:  # the same to both sides (see collectives.c)
                for to in (left, right):
                    nb("alltoallv", to, 2 * INT)
                    if alltoallw:
                        nb("alltoallw", to, 3 * INT)
        m.coll(r, (r + 1) % n, INT, at(dist_graph, "MPI_Neighbor_alltoallv"))
        m.coll(r, (r + 2) % n, 3 * INT, at(dist_graph, "MPI_Neighbor_alltoallv"))
        for to in (r - 1, r + 1):
            if 0 <= to < n:
                m.coll(r, to, 2 * INT, at(line, "MPI_Neighbor_alltoall"))


def intercomm_collectives(m, n, at, bcast_allreduce=False, alltoallw=False):
    """collectives.c's inter(), A = [0, n/2), B = [n/2, n) (nothing on 1
    rank): Gather, Allgather, Alltoall, Reduce_scatter_block, Allgatherv,
    Alltoallv, Scatter, Scatterv, Reduce, Ibcast; with bcast_allreduce
    also its Bcast and Allreduce, with alltoallw nbcoll.F90's Alltoallw (a
    datatype per remote rank)."""
    if n < 2:
        return
    a, b = range(n // 2), range(n // 2, n)
    if bcast_allreduce:
        for x in b:
            m.coll(a[0], x, 4 * INT, at("inter", "MPI_Bcast"))
    for x in a:
        m.coll(x, b[0], 2 * INT, at("inter", "MPI_Gather"))
    for g, h in ((a, b), (b, a)):
        for x in g:
            for y in h:
                if bcast_allreduce:
                    m.coll(x, y, 2 * INT, at("inter", "MPI_Allreduce"))
                m.coll(x, y, 3 * INT, at("inter", "MPI_Allgather"))
                m.coll(x, y, 1 * INT, at("inter", "MPI_Alltoall"))
                # vectors of 2 |A| |B| ints, split evenly over the remote group
                m.coll(x, y, 2 * len(g) * INT, at("inter", "MPI_Reduce_scatter_block"))
                m.coll(x, y, (x + 1) * INT, at("inter", "MPI_Allgatherv"))
            for i, y in enumerate(h):
                m.coll(x, y, (i + 1) * INT, at("inter", "MPI_Alltoallv"))
                if alltoallw:
                    m.coll(x, y, (i + 1) * INT, at("inter", "MPI_Alltoallw"))
    for y in b:
        m.coll(a[0], y, 2 * INT, at("inter", "MPI_Scatter"))
    for i, x in enumerate(a):
        m.coll(b[0], x, (i + 1) * INT, at("inter", "MPI_Scatterv"))
        m.coll(x, b[0], 3 * INT, at("inter", "MPI_Reduce"))
        m.coll(b[0], x, 5 * INT, at("inter", "MPI_Ibcast"))


# --- one-sided (rma.c, rma.F90) ---------------------------------------------

def rma_operations(m, n, at):
    """rma.c's fence_ops(), request_ops(), edge_ops() and sub_window(): every
    operation a message from the origin to the target; a target that is the
    origin itself counts, a 0-byte operation is one message."""
    for r in range(n):
        def to(k):
            return (r + k) % n
        m.rma(r, to(1), 5 * INT, at("fence_ops", "MPI_Put"))
        m.rma(r, to(2), 3 * 2 * INT, at("fence_ops", "MPI_Get"))  # 3 x contiguous(2 ints)
        m.rma(r, to(3), 4 * INT, at("fence_ops", "MPI_Accumulate"))
        m.rma(r, to(1), 2 * INT + 2 * INT, at("fence_ops", "MPI_Get_accumulate"))
        m.rma(r, to(2), 2 * INT, at("fence_ops", "MPI_Fetch_and_op"))
        m.rma(r, to(3), 3 * INT, at("fence_ops", "MPI_Compare_and_swap"))
        m.rma(r, to(1), 7 * INT, at("request_ops", "MPI_Rput"))
        m.rma(r, to(2), 9 * INT, at("request_ops", "MPI_Rget"))
        m.rma(r, to(3), 2 * INT, at("request_ops", "MPI_Raccumulate"))
        m.rma(r, to(1), 3 * INT + 3 * INT, at("request_ops", "MPI_Rget_accumulate"))
        m.rma(r, r, 2 * INT, at("edge_ops", "MPI_Put"))   # to itself: counts
        m.rma(r, to(1), 0, at("edge_ops", "MPI_Put"))     # 0 bytes: one message
        m.rma(r, (r - 1) % n, INT, at("sub_window", "MPI_Put"))  # window over reversed ranks


def rma_calls(n, at):
    """Calls of rma.c's stacks that move fewer messages than they have
    calls."""
    return {at("request_ops", "MPI_Wait"): 4 * n,
            at("edge_ops", "MPI_Put"): 3 * n,          # one to MPI_PROC_NULL
            at("edge_ops", "MPI_Accumulate"): n}       # to MPI_PROC_NULL: no message


# --- control (control.c, control.F90) ---------------------------------------

EXCHANGE_ROUTINES = ("MPI_Sendrecv", "MPI_Isend", "MPI_Irecv", "MPI_Waitall", "MPI_Allreduce")


def exchanges(m, n, at):
    """control.c's three exchanges, the second between MPI_Pcontrol(0) and
    MPI_Pcontrol(1): only the first and the third count.  straddle(): its
    MPI_Isend before MPI_Pcontrol(0), its Wait during the pause: forgotten
    (docs/mpi.md), no message."""
    for exchange in (1, 3):  # the second one is paused
        for r in range(n):
            nxt, prv = (r + 1) % n, (r - 1) % n
            m.p2p(r, nxt, 4 * INT, at("exchange", "MPI_Sendrecv"), at("exchange", "MPI_Sendrecv"))
            m.p2p(r, prv, 2 * DOUBLE, at("exchange", "MPI_Isend"), at("exchange", "MPI_Irecv"))
            for d in range(n):
                m.coll(r, d, INT, at("exchange", "MPI_Allreduce"))
