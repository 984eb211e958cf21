"""MPI 4's new communication routines (test/mpi/mpi4.c) on 4 ranks:
MPI_Isendrecv and MPI_Isendrecv_replace are nodes with a sent and a
received message each (MPI_ANY_SOURCE translated from the status, or, with
MPICH 4.0's empty Isendrecv status, no received message); the persistent collectives
(MPI_Bcast_init, MPI_Allreduce_init, MPI_Neighbor_allgather_init) record
their blocking forms' messages once per MPI_Start / MPI_Startall, on the
stack of their _init; a started partitioned send or receive is one
message of all its partitions (partitions x count x type size), on the
stack of MPI_Psend_init / MPI_Precv_init, and MPI_Pready, _range, _list
and MPI_Parrived are nodes without messages.  Exact calls, messages,
bytes and peers per stack and rank, both matrices; stdout and exit status
as without hooktrace; the same in trace mode (a readable archive, an
Enter per profiled call).  Skipped where the MPI library has none of these
routines (Open MPI 4.1: the program says so and exits with 77)."""
import os
import sys

from mpilib import *

require_launcher()
if os.environ.get("HT_MPI4_COMM") != "yes":
    # The program is built either way: without the routines it says so
    # (run as a singleton: it never starts MPI).
    import subprocess
    r = subprocess.run([mpi_program("mpi4_plain")], capture_output=True, text=True, timeout=TIMEOUT)
    check_eq(r.returncode, 77, "mpi4_plain without the MPI 4 routines: exit status")
    check("has no MPI_Isendrecv" in r.stdout, "mpi4_plain says why: %r" % r.stdout)
    if htlib._failed:
        finish()
    print("SKIP: the MPI library has no MPI_Isendrecv, persistent collectives or partitioned "
          "communication (configure: HT_MPI4_COMM=%r)" % os.environ.get("HT_MPI4_COMM"))
    sys.exit(77)

sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "trace"))
from otf2lib import Trace, profile_calls_by_name  # noqa: E402

N = 4
EXE = "mpi4"


def at(*functions):
    return ";".join(("main",) + functions)


def model(empty_status):
    """empty_status: the library completes an Isendrecv with an empty status
    (MPICH 4.0): the receive from MPI_ANY_SOURCE is not recorded."""
    m = Messages()
    for r in range(N):
        left, right = (r - 1) % N, (r + 1) % N
        path = at("isendrecv", "MPI_Isendrecv")
        m.p2p(r, right, 5 * INT, path, path)
        path = at("isendrecv", "MPI_Isendrecv_replace")
        m.p2p(r, left, 3 * DOUBLE, path, None if empty_status else path)
    for _ in range(2):  # each persistent collective started twice
        for d in range(N):
            m.coll(0, d, 6 * INT, at("persistent", "MPI_Bcast_init"))
            for s in range(N):
                m.coll(s, d, 2 * DOUBLE, at("persistent", "MPI_Allreduce_init"))
        for r in range(N):
            for to in ((r - 1) % N, (r + 1) % N):
                m.coll(r, to, 4 * INT, at("persistent", "MPI_Neighbor_allgather_init"))
    send, recv = at("partitioned", "MPI_Psend_init"), at("partitioned", "MPI_Precv_init")
    m.p2p(0, 1, 4 * 8 * INT, send, recv, times=2)
    m.p2p(2, 3, 2 * 3 * DOUBLE, send, recv, times=2)
    report_messages(m, N, times=3)
    return m


CALLS = {
    at("isendrecv", "MPI_Isendrecv"): N,
    at("isendrecv", "MPI_Isendrecv_replace"): N,
    at("isendrecv", "MPI_Wait"): N,
    at("persistent", "MPI_Bcast_init"): N,
    at("persistent", "MPI_Allreduce_init"): N,
    at("persistent", "MPI_Neighbor_allgather_init"): N,
    at("persistent", "MPI_Start"): 3 * N,
    at("persistent", "MPI_Wait"): 3 * N,
    at("persistent", "MPI_Startall"): N,
    at("persistent", "MPI_Waitall"): N,
    at("persistent", "MPI_Request_free"): 3 * N,
    at("partitioned", "MPI_Psend_init"): 2,
    at("partitioned", "MPI_Precv_init"): 2,
    at("partitioned", "MPI_Start"): N,
    at("partitioned", "MPI_Startall"): N,
    at("partitioned", "MPI_Pready"): 2,
    at("partitioned", "MPI_Pready_range"): 4,
    at("partitioned", "MPI_Pready_list"): 2,
    at("partitioned", "MPI_Wait"): 2 * N,
    at("partitioned", "MPI_Request_free"): N,
}
PARRIVED = at("partitioned", "wait_first_partition", "MPI_Parrived")

reference = mpirun(mpi_program("mpi4_plain"), N)
check_status(reference, 0, "mpi4_plain")
check_eq(reference.stderr, "", "mpi4_plain: stderr")
EMPTY_STATUS = "isendrecv status: empty\n" in reference.stdout
print("the library's Isendrecv status: %s" % ("empty" if EMPTY_STATUS else "filled"))


def run(config=None, what="mpi4"):
    r = mpirun(mpi_program(EXE), N, config=config)
    check_status(r, 0, what)
    expect_same_stdout(r, reference, what)
    p = r.summary()
    expect_messages(p, model(EMPTY_STATUS), N, what)
    expect_total_calls(p, CALLS, what)
    if p is not None:
        expect_rank_calls(p, at("isendrecv", "MPI_Isendrecv"), {r: 1 for r in range(N)}, what)
        expect_rank_calls(p, at("partitioned", "MPI_Psend_init"), {0: 1, 2: 1}, what)
        expect_rank_calls(p, at("partitioned", "MPI_Precv_init"), {1: 1, 3: 1}, what)
        # Asked until partition 0 arrived: at least once per start, on the receivers.
        check(p.has(PARRIVED) and p.calls(PARRIVED) >= 4,
              "%s: MPI_Parrived a node, called at least 4 times (got %r)"
              % (what, p.calls(PARRIVED) if p.has(PARRIVED) else None))
        check(p.calls(at("isendrecv", "MPI_Test")) >= N,
              "%s: MPI_Test at least once per rank" % what)
    return r, p


run()
# Polling off: only the program's own Wait/Test see the requests complete.
run({"mpi": {"poll": False}}, "mpi4, poll false")

# Trace mode: the same profile, and a trace with an Enter per call.
r, p = run({"trace": {"enabled": True}}, "mpi4, trace")
if HAVE_OTF2:
    t = Trace(os.path.join(r.directory, EXE + "_trace", "traces.otf2"))
    check_eq(t.print_status, 0, "trace: otf2-print (stderr: %s)" % t.print_stderr[-400:])
    if p is not None:
        check_eq(dict(t.enters()), {k: v for k, v in profile_calls_by_name(p).items() if v},
                 "trace: Enter events per region = profile calls")
    t.check_nesting()
else:
    print("configure --without-otf2: the trace's checks skipped", file=sys.stderr)
finish()
