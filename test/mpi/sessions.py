"""MPI 4 sessions (test/mpi/sessions.c) on 4 ranks: a program that starts
MPI with MPI_Session_init and never calls MPI_Init is one job, as an
MPI_Init program is: one merged profile, <exe>.*, with "ranks": 4, exact
calls, messages, bytes and peers in world ranks (those of the mpi://WORLD
process set: a split communicator in reversed order and one made from the
world group reversed translate to them), nothing on stderr, exit status 0,
stdout as without hooktrace.  Also: the job ends at the last session that
closes (two sessions open at once, work after the first closed); a
program that also calls MPI_Init ends it at the last of MPI_Finalize and
MPI_Session_finalize; each rank's own file (mpi.rank_files), and only
those without MPI_Session_finalize; trace mode (one archive, a location
per rank, sends per world rank as in the profile); MPI_T started with
the job is said to start inside MPI_Session_init.  Skipped where the MPI library has no sessions (Open MPI 4.1)."""
import json
import os
import re
import sys

from mpilib import *

require_launcher()
if os.environ.get("HT_MPI_SESSIONS") != "yes":
    print("SKIP: the MPI library has no MPI 4 sessions (configure: HT_MPI_SESSIONS=%r)"
          % os.environ.get("HT_MPI_SESSIONS"))
    sys.exit(77)

sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "trace"))
from otf2lib import Trace, profile_calls_by_name  # noqa: E402

N = 4
EXE = "sessions"


def at(*functions):
    return ";".join(("main",) + functions)


def model():
    """Every message of test/mpi/sessions.c, in world ranks."""
    m = Messages()
    for r in range(N):
        m.p2p(r, (r + 1) % N, 10 * INT, at("ring", "MPI_Send"), at("ring", "MPI_Recv"))
    for x in range(N):
        for y in range(N):
            m.coll(x, y, LONG, at("total", "MPI_Allreduce"))
    # Parity halves in reversed order: sub-rank 0 is world 2 (3), sub-rank 1
    # world 0 (1); it sends 8 * its world rank bytes.
    for high, low in ((2, 0), (3, 1)):
        m.p2p(high, low, 8 * high, at("halves", "MPI_Send"), at("halves", "MPI_Recv"))
        m.coll(high, low, INT, at("halves", "MPI_Allreduce"))
        m.coll(low, high, INT, at("halves", "MPI_Allreduce"))
    # The reversed world: its rank 0 is world N - 1, its rank 1 world N - 2.
    m.p2p(N - 1, N - 2, 3 * DOUBLE, at("reversed", "MPI_Send"), at("reversed", "MPI_Recv"))
    for r in range(1, N):
        m.coll(r, 0, 3 * LONG, at("MPI_Gather"))
    return m


def calls(sessions):
    """Calls summed over the ranks; square() runs 2 (r + 1) times on rank r."""
    return {
        at("open_world"): sessions * N,
        at("open_world", "MPI_Session_init"): sessions * N,
        at("compute"): 2 * N,
        at("compute", "square"): sum(2 * (r + 1) for r in range(N)),
        at("ring"): N, at("ring", "MPI_Send"): N, at("ring", "MPI_Recv"): N,
        at("total"): N, at("total", "MPI_Allreduce"): N,
        at("halves"): N, at("halves", "MPI_Send"): 2, at("halves", "MPI_Recv"): 2,
        at("halves", "MPI_Allreduce"): N,
        at("reversed"): N, at("reversed", "MPI_Send"): 1, at("reversed", "MPI_Recv"): 1,
        at("MPI_Gather"): N,
    }


def files_of(run):
    return sorted(f for f in run.files() if f.startswith(EXE) and f != "config.json")


def with_cvars(run, files):
    """files and the .mpit.json each of their JSON profiles names for its
    MPI_T control variables (docs/mpi_t.md), if it names one."""
    named = []
    for f in files:
        if f.endswith(".json") and os.path.exists(os.path.join(run.directory, f)):
            with open(os.path.join(run.directory, f)) as doc:
                cvars_file = json.load(doc).get("mpi_t", {}).get("cvars_file")
            if cvars_file:
                named.append(cvars_file)
    return sorted(files + named)


SUMMARY = [EXE + s for s in (".folded", ".html", ".json", ".log")]

# The reference for stdout: the program without hooktrace (the modes
# print the same but for their name).
reference = mpirun(mpi_program("sessions_plain"), N, args=["one"])
check_status(reference, 0, "sessions_plain")
check_eq(reference.stderr, "", "sessions_plain: stderr")


def run_mode(mode, config=None, stderr=""):
    r = mpirun(mpi_program(EXE), N, args=[mode], config=config,
               allow_no_finalize=mode == "unfinished")
    what = "sessions " + mode
    check_status(r, 0, what)
    if stderr is not None:
        check_eq(r.stderr, stderr, what + ": stderr")
    expected = reference.stdout.replace("sessions one:", "sessions %s:" % mode)
    check(r.stdout == expected and expected != "", "%s: stdout differs from the reference:\n"
          "--- got\n%s--- expected\n%s" % (what, r.stdout, expected))
    return r


# --- one session, no MPI_Init -------------------------------------------------
r = run_mode("one")
check_eq(files_of(r), with_cvars(r, SUMMARY), "one: one merged profile, no per-rank files")
p = r.summary()
expect_messages(p, model(), N, "one")
expect_total_calls(p, calls(1), "one")
expect_total_calls(p, {at("MPI_Session_finalize"): N}, "one")
expect_rank_calls(p, at("halves", "MPI_Send"), {2: 1, 3: 1}, "one")
expect_rank_calls(p, at("reversed", "MPI_Recv"), {N - 2: 1}, "one")
if p is not None:
    check(not any(path.split(";")[-1] in ("MPI_Init", "MPI_Init_thread", "MPI_Finalize")
                  for path in p.paths()), "one: no MPI_Init or MPI_Finalize stack")
    log = open(r.path(".log")).read()
    check("ranks:           4 " in log, "one: the logfile says 4 ranks")

# --- MPI_T started with the job: the logfile and JSON name MPI_Session_init ----
r = run_mode("one", config={"mpi_t": {"pvars": ["unexpected_recvq_length$"]}})
p = r.summary()
if p is not None:
    check_eq((p.doc.get("mpi_t") or {}).get("startup_in"), "MPI_Session_init",
             "pvars: MPI_T started inside MPI_Session_init (JSON)")
    log = open(r.path(".log")).read()
    check(re.search(r"MPI_T start-up: +[0-9.]+ s on rank 0, inside MPI_Session_init\n", log),
          "pvars: the logfile says MPI_T started inside MPI_Session_init")

# --- every rank's own file: exact calls per rank ----------------------------------
r = run_mode("one", config={"mpi": {"rank_files": "all"}})
check_eq(files_of(r), with_cvars(r, SUMMARY + ["%s_%d.%s" % (EXE, rank, s) for rank in range(N)
                                               for s in ("folded", "html", "json", "log")]),
         "rank_files all: the summary and each rank's files")
for rank in range(N):
    own = r.rank_profile(rank)
    expect_rank_file(own, model(), rank, N, "rank_files all")
    if own is not None:
        check_eq(own.calls(at("compute", "square")), 2 * (rank + 1),
                 "rank %d's file: calls of square" % rank)
        check_eq(own.calls(at("open_world", "MPI_Session_init")), 1,
                 "rank %d's file: calls of MPI_Session_init" % rank)

# --- two sessions open at once: the job ends at the last ------------------------
# The Allreduce and everything after it run on the second session's
# communicator after the first session closed.
r = run_mode("overlap")
check_eq(files_of(r), with_cvars(r, SUMMARY), "overlap: one merged profile")
p = r.summary()
expect_messages(p, model(), N, "overlap")
expect_total_calls(p, calls(2), "overlap")
expect_total_calls(p, {at("MPI_Session_finalize"): 2 * N}, "overlap")

# --- MPI_Init, then a session that outlives MPI_Finalize ----------------------
r = run_mode("mixed")
check_eq(files_of(r), with_cvars(r, SUMMARY), "mixed: one merged profile")
p = r.summary()
expect_messages(p, model(), N, "mixed")
expect_total_calls(p, calls(1), "mixed")
expect_total_calls(p, {at("MPI_Init"): N, at("MPI_Finalize"): N,
                       at("MPI_Session_finalize"): N}, "mixed")

# --- no MPI_Session_finalize: each rank's own files at exit -----------------------
r = run_mode("unfinished")
check_eq(files_of(r), with_cvars(r, ["%s_%d.%s" % (EXE, rank, s) for rank in range(N)
                                   for s in ("folded", "html", "json", "log")]),
         "unfinished: each rank's files, no summary")
for rank in range(N):
    expect_rank_file(r.rank_profile(rank), model(), rank, N, "unfinished")

# --- trace mode: one archive for the job --------------------------------------
if HAVE_OTF2:
    r = run_mode("one", config={"trace": {"enabled": True}}, stderr=None)
    check(re.fullmatch(r"hooktrace: trace: \./sessions_trace/traces\.otf2 \(\d+ events\)\n", r.stderr),
          "trace: rank 0's one line on stderr, got %r" % r.stderr)
    p = r.summary()
    t = Trace(os.path.join(r.directory, EXE + "_trace", "traces.otf2"))
    check_eq(t.print_status, 0, "trace: otf2-print (stderr: %s)" % t.print_stderr[-400:])
    check_eq(t.defs_status, 0, "trace: otf2-print -G")
    check_eq(sorted(loc & 0xffffffff for loc in t.locations()), list(range(N)),
             "trace: one location per rank")
    if p is not None:
        check_eq(dict(t.enters()), {k: v for k, v in profile_calls_by_name(p).items() if v},
                 "trace: Enter events per region = profile calls")
        check_eq(dict(t.sends()), {k: v[0] for k, v in model().matrix("comm_matrix").items()},
                 "trace: MpiSend per sender and receiver (world ranks) = the model")
    t.check_nesting()
else:
    print("configure --without-otf2: the trace's checks skipped", file=sys.stderr)

# --- a message to itself on a mpi://SELF communicator, polling off ----------
# (docs/mpi.md, "Switching polling off": MPICH 4.0 with UCX crashes in
# PMPI_Request_get_status on the open receive, with or without hooktrace.)
r = mpirun(mpi_program(EXE), N, args=["self"], config={"mpi": {"poll": False}})
check_status(r, 0, "self, poll false")
check_eq(r.stdout, "self: received 7\n" * N, "self, poll false: every rank received its message")
p = r.summary()
if p is not None:
    expect_total_calls(p, {at("self_session", "MPI_Send"): N, at("self_session", "MPI_Irecv"): N,
                           at("self_session", "MPI_Wait"): N}, "self, poll false")
    m = Messages()
    for k in range(N):
        m.p2p(k, k, INT, at("self_session", "MPI_Send"), at("self_session", "MPI_Irecv"))
    expect_messages(p, m, N, "self, poll false")
finish()
