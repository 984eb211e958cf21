"""MPI_Cancel of a receive while a third thread holds it in MPI_Testsome
(test/mpi/cancel_race.c, 2 ranks, MPI_THREAD_MULTIPLE): over 400 rounds,
the profile holds exactly the messages the program saw arrive (the
receives MPI_Test_cancelled said were not cancelled, and the MPI_Recv
that took a matched round's message if its cancel succeeded), none for a
cancelled receive, with the default polling and with main polling at every
hook.  Each of the 300 unmatched rounds is cancelled inside the tester's
MPI_Testsome, after MPI looked at the receive (a generalized request's
query function waits for the cancel), and main polls the receive before
the tester tests again.  Before completion asked MPI_Test_cancelled for
every receive, the cancel's mark missed the request the tester held (out
of main's table), and main's poll counted the cancelled completion as a
message of 0 bytes: 300 of 300 under Open MPI, 294 to 300 under MPICH
(random timing instead of the query function: 0 to 1 in 400 rounds)."""
import re

from mpilib import *

require_launcher()
N = 2
ROUNDS, MATCHED = 400, 100
IRECV = "main;post_round;MPI_Irecv"
INSTEAD = "main;receive_instead;MPI_Recv"
PEER = "main;peer;MPI_Send"

for what, config in (("default polling", None),
                     ("poll at every hook", {"mpi": {"poll_interval_us": 0, "poll_batch": 1}})):
    r = mpirun(mpi_program("cancel_race"), N, config=config)
    check_status(r, 0, what)
    if r.stdout.startswith("thread level"):
        print("SKIP: %s" % r.stdout.strip())
        raise SystemExit(77)
    seen = dict(re.findall(r"^(received|cancelled|received instead|cancelled inside MPI_Testsome)"
                           r" rank 0: (\d+)$", r.stdout, re.M))
    if not check_eq(sorted(seen), ["cancelled", "cancelled inside MPI_Testsome", "received",
                                   "received instead"],
                    what + ": rank 0's counts in stdout:\n" + r.stdout):
        continue
    received, cancelled, instead, raced = (
        int(seen[k]) for k in ("received", "cancelled", "received instead",
                               "cancelled inside MPI_Testsome"))
    # Every unmatched round's cancel came inside the tester's MPI_Testsome
    # (neither library holds a lock across the query function).
    check_eq(raced, ROUNDS - MATCHED, what + ": rounds cancelled inside MPI_Testsome")
    check_eq(received + cancelled, ROUNDS, what + ": receives completed")
    check_eq(received + instead, MATCHED, what + ": messages rank 1 sent, received once each")
    # Both outcomes occur: the unmatched rounds are always cancelled.
    check(cancelled >= ROUNDS - MATCHED and received > 0,
          what + ": %d cancelled, %d received" % (cancelled, received))
    print("%s: %d received, %d cancelled (%d inside MPI_Testsome), %d received instead"
          % (what, received, cancelled, raced, instead))
    m = Messages()
    report_messages(m, N, times=4)
    m.p2p(1, 0, 8, PEER, IRECV, times=received)
    m.p2p(1, 0, 8, PEER, INSTEAD, times=instead)
    p = r.summary()
    expect_messages(p, m, N, what)
    expect_total_calls(p, {
        IRECV: ROUNDS,
        "canceller;cancel_round;MPI_Cancel": ROUNDS,
        "main;peer;MPI_Send": MATCHED,
    }, what)
finish()
