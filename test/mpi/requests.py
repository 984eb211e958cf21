"""Non-blocking point-to-point (test/mpi/requests.c) on 4 ranks: messages
are counted once, at the stack that started them, whichever routine
completes them (Waitany, Waitsome, Testsome, Testall with wildcard receives
and MPI_STATUSES_IGNORE, Testany, Waitall/Waitsome of 80 requests, or the
hooks' polling while the program computes); persistent requests count each completed Start, on the stack of
their *_init; a cancelled receive is no message; matched probes count at
MPI_Mrecv/MPI_Imrecv with the peer as a world rank."""
from mpilib import *

require_launcher()
N = 4


def at(function, routine):
    return "main;%s;%s" % (function, routine)


m = Messages()
for r in range(1, N):  # r longs to rank 0, completed by MPI_Waitany
    m.p2p(r, 0, r * LONG, at("wait_any", "MPI_Isend"), at("wait_any", "MPI_Irecv"))
for function in ("wait_some", "test_some", "test_all"):  # all to all, 4 s + d + 1 ints
    for s in range(N):
        for d in range(N):
            if s != d:
                m.p2p(s, d, (4 * s + d + 1) * INT, at(function, "post_all;MPI_Isend"),
                      at(function, "post_all;MPI_Irecv"))
for r in range(N):  # ring, 3 ints, MPI_Testany
    m.p2p(r, (r + 1) % N, 3 * INT, at("test_any", "MPI_Isend"), at("test_any", "MPI_Irecv"))
# 40 + 40 messages of 1 int each way between 0 <-> 1 and 2 <-> 3
for r in range(N):
    m.p2p(r, r ^ 1, INT, at("many", "MPI_Isend"), at("many", "MPI_Irecv"), times=80)
# persistent: 4 starts of 4 ints 0 -> 1 (the last one freed while active);
# 2 <-> 3: 2 Startalls of 6 doubles each way
m.p2p(0, 1, 4 * INT, at("persistent", "MPI_Send_init"), at("persistent", "MPI_Recv_init"), times=4)
m.p2p(2, 3, 6 * DOUBLE, at("persistent", "MPI_Ssend_init"), at("persistent", "MPI_Recv_init"), times=2)
m.p2p(3, 2, 6 * DOUBLE, at("persistent", "MPI_Ssend_init"), at("persistent", "MPI_Recv_init"), times=2)
# cancel: of rank 0's two Irecvs only the uncancelled one is a message
m.p2p(1, 0, 10, at("cancel", "MPI_Send"), at("cancel", "MPI_Irecv"))
# completed while the program computes
m.p2p(0, 1, 250 * INT, at("overlap", "MPI_Isend"), at("overlap", "MPI_Recv"))
m.p2p(2, 3, 250 * INT, at("overlap", "MPI_Isend"), at("overlap", "MPI_Irecv"))
m.p2p(2, 3, INT, at("overlap", "MPI_Send"), at("overlap", "MPI_Recv"))  # the token
# matched probes (the last two in a communicator with reversed ranks)
m.p2p(2, 3, 10 * INT, at("matched_probe", "MPI_Send"), at("matched_probe", "MPI_Mrecv"))
m.p2p(2, 3, 20 * INT, at("matched_probe", "MPI_Send"), at("matched_probe", "MPI_Imrecv"))
m.p2p(0, 1, 3 * DOUBLE, at("matched_probe", "MPI_Send"), at("matched_probe", "MPI_Imrecv"))
m.p2p(1, 0, 5 * INT, at("matched_probe", "MPI_Send"), at("matched_probe", "MPI_Mrecv"))
report_messages(m, N, times=2)

# Ranks 0, 2 and 3 also write their own files (for the polling check below).
RANK_FILES = [0, 2, 3]
r = mpirun(mpi_program("requests"), N, config={"mpi": {"rank_files": RANK_FILES}})
check_status(r, 0, "requests")
check("cancelled rank 0: 1\n" in r.stdout, "MPI_Test_cancelled confirms the cancel: %r" % r.stdout)
reference = mpirun(mpi_program("requests_plain"), N)
check_status(reference, 0, "requests_plain")
expect_same_stdout(r, reference, "requests with hooktrace")

p = r.summary()
expect_messages(p, m, N, "requests")
expect_total_calls(p, {
    at("wait_any", "MPI_Waitany"): N - 1,
    at("wait_any", "MPI_Wait"): N - 1,
    at("persistent", "MPI_Start"): 8,        # 4 on rank 0, 4 on rank 1
    at("persistent", "MPI_Startall"): 6,     # 2 on each of ranks 1 (MPI_PROC_NULL), 2 and 3
    at("persistent", "MPI_Request_free"): 1 + 3 + 2 + 2,
    at("cancel", "MPI_Cancel"): 1,
    at("cancel", "MPI_Wait"): 2,
    at("overlap", "MPI_Wait"): 2,
    at("matched_probe", "MPI_Probe"): 1,
    at("matched_probe", "MPI_Mprobe"): 2 + N,    # N of MPI_PROC_NULL
    at("matched_probe", "MPI_Mrecv"): 2 + N,
    at("matched_probe", "MPI_Imrecv"): 2 + N,
    at("matched_probe", "MPI_Wait"): 2 + N,
    at("many", "MPI_Waitall"): N,
})
expect_rank_calls(p, at("cancel", "MPI_Irecv"), {0: 2})
expect_rank_calls(p, at("matched_probe", "MPI_Mrecv"), {0: 2, 3: 2})
expect_rank_calls(p, at("many", "MPI_Isend"), {k: 80 for k in range(N)})
# "ranks" lists the ranks that moved messages: not rank 1's MPI_PROC_NULL Send_init
expect_rank_calls(p, at("persistent", "MPI_Send_init"), {0: 1})
expect_total_calls(p, {at("persistent", "MPI_Send_init"): 2})
expect_rank_calls(p, at("persistent", "MPI_Recv_init"), {1: 2, 2: 1, 3: 1})
expect_rank_calls(p, at("wait_some", "post_all;MPI_Isend"), {k: N - 1 for k in range(N)})
for path in ("main;overlap;compute", "main;overlap;compute;leaf"):
    check(p is None or p.has(path), "the program computed under the open requests (%s)" % path)


def polled_while_computing(run, what):
    """A message's duration ends when hooktrace first sees it complete
    (docs/mpi.md).  The message completed before the computation started,
    and 0.5 s pass without hooks between the computation and the Wait/Test
    (requests.c, overlap).  Seen by polling during the computation, its
    duration is at most the time from its start to the end of the
    computation; seen only at the Wait/Test, it would be at least 0.5 s
    longer.  The check allows half of that (0.25 s) for everything else, so
    it does not depend on how fast anything ran.  Per rank, from the rank
    files of ranks 0, 2 and 3."""
    for path, rank, field in (("MPI_Isend", 0, "message_time_sent_s"), ("MPI_Isend", 2, "message_time_sent_s"),
                              ("MPI_Irecv", 3, "message_time_received_s")):
        q = run.rank_profile(rank)
        if q is None:
            continue
        # From the message's start to the end of the computation: the overlap
        # function's own time before the sleep is at most its whole time
        # minus the 0.5 s sleep and the final Wait/Test.
        overlap = q.stack("main;overlap")["time_incl_s"]
        bound = overlap - 0.5 + 0.25
        entry = q.rank_entries(at("overlap", path)).get(rank, {})
        if check(field in entry, "%s: %s of rank %d has %s" % (what, path, rank, field)):
            check(entry[field] < bound,
                  "%s: overlap %s on rank %d seen complete by polling during compute: "
                  "message time %.6f s, must be below %.6f s" % (what, path, rank, entry[field], bound))

if p:
    polled_while_computing(r, "defaults")
    for rank in RANK_FILES:
        expect_rank_file(r.rank_profile(rank), m, rank, N, "defaults")

# Polling from every hook, one request at a time: the same figures.
r = mpirun(mpi_program("requests"), N,
           config={"mpi": {"poll_interval_us": 0, "poll_batch": 1, "rank_files": RANK_FILES}})
check_status(r, 0, "poll_interval_us 0")
expect_same_stdout(r, reference, "poll_interval_us 0")
p = r.summary()
expect_messages(p, m, N, "poll_interval_us 0")
if p:
    polled_while_computing(r, "poll_interval_us 0")
finish()
