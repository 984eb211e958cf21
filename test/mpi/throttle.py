"""Throttling in an MPI program (test/mpi/throttle_mpi.c on 4 ranks,
min_calls 1000, docs/throttle.md): the pure leaf tiny is throttled on every
rank at exactly its 1001st call, while exchange (starts one small message
a call) and outer > middle (an MPI call to MPI_PROC_NULL beneath) are also
far under the threshold but never throttled, because they are ancestors of
MPI calls: every call and every message stays counted.  late is cheap and
MPI-free for 5000 calls and then calls MPI once: it is throttled first, so
that MPI call is recorded under its caller.  With throttling off, tiny and
late keep all their calls."""
from mpilib import *

require_launcher()
N = 4
CALLS = 5000
MIN_CALLS = 1000
EXE = mpi_program("throttle_mpi")
ALL_RANKS = list(range(N))
TINY, EXCHANGE, LATE = "main;compute;tiny", "main;ring;exchange", "main;late_caller;late"
ISEND, IRECV = EXCHANGE + ";MPI_Isend", EXCHANGE + ";MPI_Irecv"
# every stack that is never throttled, with its calls on each rank (ring
# completes exchange's requests every 100 calls)
KEPT = {"main;compute": 1, "main;ring": 1, "main;ring;MPI_Waitall": CALLS // 100,
        EXCHANGE: CALLS, ISEND: CALLS, IRECV: CALLS, "main;outer": CALLS,
        "main;outer;middle": CALLS, "main;outer;middle;MPI_Sendrecv": CALLS,
        "main;late_caller": 1}

m = Messages()
for r in range(N):
    m.p2p(r, (r + 1) % N, INT, ISEND, IRECV, times=CALLS)
report_messages(m, N)

reference = mpirun(mpi_program("throttle_mpi_plain"), N)
check_status(reference, 0, "throttle_mpi_plain")


def launch(throttle, what):
    """One run with every rank writing its own file too (the summary lists
    per-rank figures only for stacks that moved messages)."""
    r = mpirun(EXE, N, config={"throttle": throttle, "mpi": {"rank_files": ALL_RANKS}})
    check_status(r, 0, what)
    expect_same_stdout(r, reference, what)
    p = r.summary()
    expect_messages(p, m, N, what)
    ranks = [r.rank_profile(k) for k in ALL_RANKS]
    expect_imbalance(p, ranks, what)
    for k, rp in enumerate(ranks):
        expect_rank_file(rp, m, k, N, what)
        # Rank 0 named every function of the job once (docs/symbols.md):
        # no rank read symbols of its own, and each got every one it has.
        if rp:
            naming = rp.doc["symbols"]
            check_eq(naming["named_here"], 0, "%s: rank %d named no function itself" % (what, k))
            check(naming["named_by_rank_0"] >= len(rp.doc["functions"]) > 0,
                  "%s: rank %d took its %d functions' names from rank 0: %r"
                  % (what, k, len(rp.doc["functions"]), naming))
    return p, ranks


def expect_kept(p, ranks, what):
    """The stacks in KEPT, per rank and summed, are never marked throttled."""
    for path, calls in sorted(KEPT.items()):
        for k, rp in enumerate(ranks):
            if rp:
                check_eq(rp.calls(path), calls, "%s: rank %d: calls of %s" % (what, k, path))
                check(not rp.stack(path).get("throttled"),
                      "%s: rank %d: %s not throttled" % (what, k, path))
        if p:
            check_eq(p.calls(path), N * calls, "%s: calls of %s (all ranks)" % (what, path))
            check(not p.stack(path).get("throttled"), "%s: %s not throttled" % (what, path))
    for path in (ISEND, IRECV):
        expect_rank_calls(p, path, {k: CALLS for k in ALL_RANKS}, what)


# 1. Throttled: tiny and late stop at their 1001st call on each rank,
# nothing else; late's one MPI call, made after, sits under its caller.
what = "throttled"
# 1 ms, so that a stall on a loaded machine cannot keep late or tiny whole.
p, ranks = launch({"min_calls": MIN_CALLS, "max_ns_per_call": 1000000}, what)
expect_kept(p, ranks, what)
for k, rp in enumerate(ranks):
    if rp:
        check_eq(rp.calls(TINY), MIN_CALLS + 1, "%s: rank %d: tiny's calls up to its throttling"
                 % (what, k))
        check_eq(rp.stack(TINY).get("throttled"), True, "%s: rank %d: tiny marked" % (what, k))
        check_eq(rp.calls(LATE), MIN_CALLS + 1, "%s: rank %d: late's calls up to its throttling"
                 % (what, k))
        check_eq(rp.calls("main;late_caller;MPI_Sendrecv"), 1,
                 "%s: rank %d: late's MPI call, made after its throttling, under its caller"
                 % (what, k))
        check(not rp.has(LATE + ";MPI_Sendrecv"), "%s: rank %d: no MPI stack under late" % (what, k))
        check_eq(rp.doc["throttle"]["functions"], 2, "%s: rank %d: tiny and late throttled"
                 % (what, k))
if p:
    check_eq(p.calls(TINY), N * (MIN_CALLS + 1), what + ": tiny's calls (all ranks)")
    check_eq(p.stack(TINY).get("throttled"), True, what + ": tiny marked in the summary")
    check_eq(p.doc["throttle"]["functions"], 2, what + ": functions throttled (summary)")
    check_eq(sorted(q for q in p.paths() if p.by_path[q].get("throttled")), sorted([LATE, TINY]),
             what + ": the only throttled stacks")
    check_eq(p.doc["mismatched_exits"], 0, what + ": no exit out of step")

# 2. Throttling off: every call of tiny counted, nothing marked.
what = "throttling off"
p, ranks = launch({"enabled": False}, what)
expect_kept(p, ranks, what)
for k, rp in enumerate(ranks):
    if rp:
        check_eq(rp.calls(TINY), CALLS, "%s: rank %d: calls of tiny" % (what, k))
        check_eq(rp.calls(LATE), CALLS + 1, "%s: rank %d: calls of late" % (what, k))
        check_eq(rp.calls(LATE + ";MPI_Sendrecv"), 1, "%s: rank %d: late's MPI call" % (what, k))
if p:
    check_eq(p.doc["throttle"]["enabled"], False, what + ": said so in the JSON")
    check_eq(p.doc["throttle"]["functions"], 0, what + ": functions throttled")
    check_eq([q for q in p.paths() if p.by_path[q].get("throttled")], [], what + ": no stack marked")
finish()
