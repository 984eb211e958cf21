"""Non-blocking point-to-point (test/mpi/requests.c) on 4 ranks: messages
are counted once, at the stack that started them, whichever routine
completes them (Waitany, Waitsome, Testsome, Testall with wildcard receives
and MPI_STATUSES_IGNORE, Testany, Waitall/Waitsome of 80 requests, or the
hooks' polling while the program computes); persistent requests count each completed Start, on the stack of
their *_init; a cancelled receive is no message; matched probes count at
MPI_Mrecv/MPI_Imrecv with the peer as a world rank."""
from mpilib import *
from models import KEEP_LEAF, polled_while_computing, requests, requests_calls

require_launcher()
N = 4


def at(function, routine):
    return "main;%s;%s" % (function, routine)


m = Messages()
requests(m, N, at, "post_all", ("wait_some", "test_some", "test_all"))
# cancel: of rank 0's two Irecvs only the uncancelled one is a message
m.p2p(1, 0, 10, at("cancel", "MPI_Send"), at("cancel", "MPI_Irecv"))
# matched probes (the last two in a communicator with reversed ranks)
m.p2p(2, 3, 10 * INT, at("matched_probe", "MPI_Send"), at("matched_probe", "MPI_Mrecv"))
m.p2p(2, 3, 20 * INT, at("matched_probe", "MPI_Send"), at("matched_probe", "MPI_Imrecv"))
m.p2p(0, 1, 3 * DOUBLE, at("matched_probe", "MPI_Send"), at("matched_probe", "MPI_Imrecv"))
m.p2p(1, 0, 5 * INT, at("matched_probe", "MPI_Send"), at("matched_probe", "MPI_Mrecv"))
report_messages(m, N, times=2)

# Ranks 0, 2 and 3 also write their own files (for the polling check below).
RANK_FILES = [0, 2, 3]
r = mpirun(mpi_program("requests"), N, config={"mpi": {"rank_files": RANK_FILES}, "throttle": KEEP_LEAF})
check_status(r, 0, "requests")
check("cancelled rank 0: 1\n" in r.stdout, "MPI_Test_cancelled confirms the cancel: %r" % r.stdout)
reference = mpirun(mpi_program("requests_plain"), N)
check_status(reference, 0, "requests_plain")
expect_same_stdout(r, reference, "requests with hooktrace")

p = r.summary()
expect_messages(p, m, N, "requests")
expect_total_calls(p, requests_calls(N, at))
expect_total_calls(p, {
    at("cancel", "MPI_Cancel"): 1,
    at("cancel", "MPI_Wait"): 2,
    at("matched_probe", "MPI_Probe"): 1,
    at("matched_probe", "MPI_Mprobe"): 2 + N,    # N of MPI_PROC_NULL
    at("matched_probe", "MPI_Mrecv"): 2 + N,
    at("matched_probe", "MPI_Imrecv"): 2 + N,
    at("matched_probe", "MPI_Wait"): 2 + N,
})
expect_rank_calls(p, at("cancel", "MPI_Irecv"), {0: 2})
expect_rank_calls(p, at("matched_probe", "MPI_Mrecv"), {0: 2, 3: 2})
expect_rank_calls(p, at("many", "MPI_Isend"), {k: 80 for k in range(N)})
# "ranks" lists the ranks that moved messages: not rank 1's MPI_PROC_NULL Send_init
expect_rank_calls(p, at("persistent", "MPI_Send_init"), {0: 1})
expect_rank_calls(p, at("persistent", "MPI_Recv_init"), {1: 2, 2: 1, 3: 1})
expect_rank_calls(p, at("wait_some", "post_all;MPI_Isend"), {k: N - 1 for k in range(N)})
for path in ("main;overlap;compute", "main;overlap;compute;leaf"):
    check(p is None or p.has(path), "the program computed under the open requests (%s)" % path)

if p:
    polled_while_computing(r, at, "main;overlap", "defaults")
    for rank in RANK_FILES:
        expect_rank_file(r.rank_profile(rank), m, rank, N, "defaults")

# Polling from every hook, one request at a time: the same figures.
r = mpirun(mpi_program("requests"), N,
           config={"mpi": {"poll_interval_us": 0, "poll_batch": 1, "rank_files": RANK_FILES},
                   "throttle": KEEP_LEAF})
check_status(r, 0, "poll_interval_us 0")
expect_same_stdout(r, reference, "poll_interval_us 0")
p = r.summary()
expect_messages(p, m, N, "poll_interval_us 0")
if p:
    polled_while_computing(r, at, "main;overlap", "poll_interval_us 0")

# No polling at all (mpi.poll false, for an MPI that misbehaves when asked
# about a request: docs/config.md): the same messages, each seen complete
# at the program's own Wait or Test, so the overlap's messages last past
# the 0.5 s without hooks.
r = mpirun(mpi_program("requests"), N,
           config={"mpi": {"poll": False, "rank_files": RANK_FILES}, "throttle": KEEP_LEAF})
check_status(r, 0, "poll false")
expect_same_stdout(r, reference, "poll false")
p = r.summary()
expect_messages(p, m, N, "poll false")
q = r.rank_profile(0)
if q:
    entry = q.rank_entries(at("overlap", "MPI_Isend")).get(0, {})
    check(entry.get("message_time_sent_s", 0) >= 0.5,
          "poll false: rank 0's overlap Isend seen complete only at its Wait, after the 0.5 s: %r" % entry)
finish()
