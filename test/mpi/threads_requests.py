"""Requests made on one thread and completed on another
(test/mpi/threads_requests.c on 2 ranks): rank 0's main thread posts, its
`completer` pthread completes them with MPI_Wait (200 receives of 4096 B),
MPI_Test, Waitall, Waitany, Waitsome, Testall, Testany, Testsome, a Waitall
of its own receives and main's, MPI_Request_free of active sends, MPI_Cancel
(then Wait, or Request_free; and 20000 unmatched receives, one at a time,
cancelled and waited while main polls), a persistent receive started on one thread
and completed on the other; and main waits for sends the completer made.
Every message counts exactly once, on the stack (and so the thread) that
posted it, under MPI_THREAD_MULTIPLE (main polling all along, from hooks
and MPI calls, once per hook and with the default interval) and under
MPI_THREAD_SERIALIZED.  Standard output is the plain build's.  Before
hooktrace gave requests a thread-safe owner, the MPI_Wait case alone
counted 113 to 189 of the 200 messages, one of them of 0 bytes.  Before
MPI_Cancel marked the request ahead of PMPI_Cancel, main's poll counted
1 to 257 of the 20000 cancelled receives as messages, of a stale status's
size, under MPICH (4 runs of this test in 6 failed; Open MPI: none of 30
runs of the loop)."""
from mpilib import *

require_launcher()
N = 2
PEER_SEND, PEER_RECV = "main;peer;MPI_Send", "main;peer_receive;MPI_Recv"
SMALL = ("test", "waitall", "waitany", "waitsome", "testall", "testany", "testsome")

m = Messages()
report_messages(m, N)
m.p2p(1, 0, 4096, PEER_SEND, "main;post_wait;MPI_Irecv", times=200)
for name in SMALL:
    for i in range(20):
        m.p2p(1, 0, (i + 1) * 4, PEER_SEND, "main;post_%s;post_small;MPI_Irecv" % name)
m.p2p(1, 0, 100, PEER_SEND, "main;post_mixed;MPI_Irecv", times=10)
m.p2p(1, 0, 100, PEER_SEND, "completer;complete_mixed;MPI_Irecv", times=10)
m.p2p(0, 1, 64, "main;post_free;MPI_Isend", PEER_RECV, times=10)
m.p2p(1, 0, 8, PEER_SEND, "main;post_cancel;MPI_Irecv")
m.p2p(1, 0, 256, PEER_SEND, "main;post_persistent;MPI_Recv_init", times=6)
m.p2p(0, 1, 32, "completer;sender;MPI_Isend", PEER_RECV, times=10)

CALLS = {
    "completer;complete_wait;MPI_Wait": 200,
    "completer;complete_waitall;MPI_Waitall": 1,
    "completer;complete_mixed;MPI_Waitall": 1,
    "completer;complete_free;MPI_Request_free": 10,
    "completer;complete_cancel;MPI_Cancel": 2,
    "completer;complete_cancel;MPI_Wait": 2,
    "completer;complete_cancel;MPI_Request_free": 1,
    "completer;complete_cancel_one;MPI_Cancel": 20000,
    "completer;complete_cancel_one;MPI_Wait": 20000,
    "main;post_cancel_many;MPI_Irecv": 20000,
    "main;post_persistent;start_persistent;MPI_Start": 3,
    "completer;start_persistent;MPI_Start": 3,
    "main;post_persistent;wait_persistent;MPI_Wait": 3,
    "completer;wait_persistent;MPI_Wait": 3,
    "main;wait_sender;MPI_Waitall": 1,
}

RUNS = [
    ("multiple, poll at every hook", (), {"mpi": {"poll_interval_us": 0, "poll_batch": 1}}),
    ("multiple, default polling", (), None),
    ("serialized", ("serialized",), None),
]
for what, args, config in RUNS:
    reference = mpirun(mpi_program("threads_requests_plain"), N, args=args)
    check_status(reference, 0, what + " (plain)")
    level = ("serialized", 2) if args else ("multiple", 3)
    if not check_eq(reference.stdout, "%s rank 0: %d\n%s rank 1: %d\n" % (level * 2),
                    what + ": the MPI library provides the thread level"):
        continue
    r = mpirun(mpi_program("threads_requests"), N, args=args, config=config)
    check_status(r, 0, what)
    expect_same_stdout(r, reference, what)
    p = r.summary()
    expect_messages(p, m, N, what)
    expect_total_calls(p, CALLS, what)
    if p is not None:
        check_eq(p.doc["threads"], 2, what + ": threads per rank")
finish()
