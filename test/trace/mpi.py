"""Trace mode with MPI: the point-to-point, request and collective test
programs of test/mpi, traced.  otf2-print reads every archive; per sender
and receiver (world ranks, mapped by otf2-print through our communicator,
group and COMM_LOCATIONS definitions) the MpiSend + MpiIsend events, less
cancelled Isends, equal the profile's comm_matrix; Enter events per region
equal the profile's calls; events nest and stay in time order; every
blocking collective has one MpiCollectiveBegin and one MpiCollectiveEnd."""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "integration"))
sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "mpi"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from htlib import check, check_eq, finish  # noqa: E402
from mpilib import check_status, mpi_program, mpirun, require_launcher  # noqa: E402
from otf2lib import Trace, profile_calls_by_name  # noqa: E402

require_launcher()
TRACE = {"trace": {"enabled": True}}


def traced_run(name, ranks):
    r = mpirun(mpi_program(name), ranks, config=TRACE)
    check_status(r, 0, "%s traced on %d ranks" % (name, ranks))
    t = Trace(os.path.join(r.directory, name + "_trace", "traces.otf2"))
    check_eq(t.print_status, 0, "otf2-print of %s (stderr: %s)" % (name, t.print_stderr[-400:]))
    check_eq(t.defs_status, 0, "otf2-print -G of %s" % name)
    return r, t


def compare(name, ranks, matrix=True):
    r, t = traced_run(name, ranks)
    p = r.summary()
    calls = {k: v for k, v in profile_calls_by_name(p).items() if v}
    check_eq(dict(t.enters()), calls, "%s: Enter events per region = profile calls" % name)
    check_eq(t.count("ENTER"), t.count("LEAVE"), "%s: Leave events = Enter events" % name)
    check_eq(sorted(loc & 0xffffffff for loc in t.locations()), list(range(ranks)),
             "%s: one location per rank" % name)
    t.check_nesting()
    if matrix:
        expected = {k: v[0] for k, v in p.matrix("comm_matrix").items()}
        check_eq(dict(t.sends()), expected, "%s: MpiSend+MpiIsend per sender and receiver "
                 "= comm_matrix" % name)
        check(sum(expected.values()) > 0, "%s moved messages" % name)
    # One Begin and one End per blocking collective call.
    blocking = sum(n for region, n in t.enters().items()
                   if re.match(r"MPI_(Barrier|Bcast|Gatherv?|Scatterv?|Allgatherv?|Alltoall[vw]?|"
                               r"Allreduce|Reduce(_scatter(_block)?)?|Scan|Exscan)$", region))
    check_eq(t.count("MPI_COLLECTIVE_BEGIN"), blocking, "%s: MpiCollectiveBegin events" % name)
    check_eq(t.count("MPI_COLLECTIVE_END"), blocking, "%s: MpiCollectiveEnd events" % name)
    return r, t


r, t = compare("p2p", 4)
check(t.count("MPI_IRECV") > 0 and t.count("MPI_IRECV") == t.count("MPI_IRECV_REQUEST")
      - sum(1 for k, _, _, _ in t.events if k == "MPI_REQUEST_CANCELLED"),
      "p2p: every IrecvRequest completes or is cancelled")
check('INTER_COMM' in t.definitions, "p2p: the inter-communicator is defined as one")
check('Type: COMM_LOCATIONS' in t.definitions, "p2p: the COMM_LOCATIONS group is defined")

r, t = compare("requests", 4)
check(t.count("MPI_ISEND") > 0, "requests: Isend events")
isends = collections.defaultdict(set)
done = collections.defaultdict(set)
for kind, loc, _, attrs in t.events:
    if kind in ("MPI_ISEND", "MPI_ISEND_COMPLETE", "MPI_REQUEST_CANCELLED"):
        request = int(re.search(r"Request: (\d+)", attrs).group(1))
        (isends if kind == "MPI_ISEND" else done)[loc].add(request)
check_eq({loc: len(ids) for loc, ids in isends.items()},
         {loc: len(ids & done[loc]) for loc, ids in isends.items()},
         "requests: every Isend completes or is cancelled, per location")
# A non-blocking send starts when its routine is entered, whatever else the
# wrapper recorded meanwhile (requests its poll saw complete, a reused
# request handle's earlier operation): an MpiIsend later than its Enter
# would make a message seem to arrive before it was sent.
last_enter, late = {}, []
for kind, loc, ts, attrs in t.events:
    if kind == "ENTER":
        last_enter[loc] = ts
    elif kind == "MPI_ISEND" and ts != last_enter.get(loc):
        late.append((loc, ts - last_enter.get(loc, 0)))
check_eq(late, [], "requests: every MpiIsend has its routine's Enter time")

r, t = compare("collectives", 4, matrix=False)
check(t.count("MPI_COLLECTIVE_BEGIN") > 10, "collectives: collective events")
check(t.count("NON_BLOCKING_COLLECTIVE_REQUEST") > 0, "collectives: non-blocking collective requests")
check_eq(t.count("NON_BLOCKING_COLLECTIVE_COMPLETE"), t.count("NON_BLOCKING_COLLECTIVE_REQUEST"),
         "collectives: every non-blocking collective completes")

# A run that ends without MPI_Finalize: each rank writes an archive of its
# own, whose Enter events equal that rank's own profile.
r = mpirun(mpi_program("control"), 3, args=["nofinalize"], allow_no_finalize=True, config=TRACE)
for rank in range(3):
    q = r.rank_profile(rank)
    if not check(q is not None, "nofinalize: rank %d wrote its profile" % rank):
        continue
    t = Trace(os.path.join(r.directory, "control_%d_trace" % rank, "traces.otf2"))
    check_eq(t.print_status, 0, "nofinalize: otf2-print of rank %d's archive" % rank)
    calls = {k: v for k, v in profile_calls_by_name(q).items() if v}
    check_eq(dict(t.enters()), calls, "nofinalize: rank %d Enter events = its calls" % rank)
    check_eq(t.locations(), [rank], "nofinalize: rank %d's archive has its location" % rank)
    check(t.count("MPI_SEND") > 0 and 'Communicator: "MPI_COMM_WORLD"' in
          "".join(a for _, _, _, a in t.events), "nofinalize: rank %d's sends name MPI_COMM_WORLD" % rank)
    t.check_nesting()

finish()
