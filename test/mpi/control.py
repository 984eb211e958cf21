"""What controls MPI recording (test/mpi/control.c on 3 ranks, three
exchanges, the second between MPI_Pcontrol(0) and MPI_Pcontrol(1)):
- MPI_Pcontrol(0)...(1) excludes exactly that exchange: its MPI calls are
  no nodes and its messages are not counted; an Isend made before a pause
  and waited for during it is not counted either;
- "mpi": {"log_messages": false}: no MPI routine is a node (MPI_Init and
  MPI_Finalize aside) and nothing is counted;
- "mpi": {"log_ranks": [0]}: only rank 0's sends and receives;
- "mpi": {"rank_files": [1, 2]}: those ranks also write <exe>_<rank>.json
  with their own figures;
- exiting without MPI_Finalize leaves <exe>_<rank>.json for every rank,
  with its own figures (the launcher is told not to kill the other ranks
  when the first one exits);
- stdout is the same with logging on or off, with HOOKTRACE_OFF=1, and
  without hooktrace; the exit status passes through."""
import re

from mpilib import *
from models import EXCHANGE_ROUTINES, exchanges

require_launcher()
N = 3
EXE = mpi_program("control")


def at(function, routine):
    return "main;%s;%s" % (function, routine)


m = Messages()
exchanges(m, N, at)   # the first and the third; straddle(): no message
report_messages(m, N)

reference = mpirun(mpi_program("control_plain"), N)
check_status(reference, 0, "control_plain")
check_eq([l.split(":")[0] for l in reference.stdout.splitlines()], ["control rank %d" % i for i in range(N)],
         "the reference output has one line per rank")

# Defaults, MPI_Pcontrol around the second exchange.
r = mpirun(EXE, N)
check_status(r, 0, "default")
expect_same_stdout(r, reference, "default")
p = r.summary()
expect_messages(p, m, N, "Pcontrol")
expect_total_calls(p, {"main;exchange": 2 * N}, "Pcontrol")
expect_total_calls(p, {at("exchange", routine): 2 * N for routine in EXCHANGE_ROUTINES}, "Pcontrol")
expect_total_calls(p, {at("straddle", "MPI_Isend"): N}, "Pcontrol")
check(p is None or not any(p.has(at("straddle", x)) for x in ("MPI_Recv", "MPI_Wait")),
      "Pcontrol: the calls during the pause are no nodes")
check_eq([f for f in r.files() if f.startswith("control_")], [], "no per-rank files by default")

# straddle() again as the last thing before MPI_Finalize: its Isend from
# before the pause is forgotten by the final check of open requests too.
r = mpirun(EXE, N, args=["straddle-last"])
check_status(r, 0, "straddle-last")
p = r.summary()
expect_messages(p, m, N, "straddle-last")
expect_total_calls(p, {at("straddle", "MPI_Isend"): 2 * N}, "straddle-last")

# log_messages false: the wrappers only call PMPI.
r = mpirun(EXE, N, config={"mpi": {"log_messages": False}})
check_status(r, 0, "log_messages false")
expect_same_stdout(r, reference, "log_messages false")
p = r.summary()
expect_messages(p, Messages(), N, "log_messages false")
if p:
    check_eq(p.mpi_paths(), [], "log_messages false: no MPI routine is a node")
    expect_total_calls(p, {"main;exchange": 2 * N, "main;report": N}, "log_messages false")

# HOOKTRACE_OFF=1: the program runs as if uninstrumented, nothing written.
r = mpirun(EXE, N, env={"HOOKTRACE_OFF": "1"})
check_status(r, 0, "HOOKTRACE_OFF=1")
expect_same_stdout(r, reference, "HOOKTRACE_OFF=1")
check_eq(r.files(), [], "HOOKTRACE_OFF=1: no files")

# log_ranks [0]: rank 0's own sends and receives only.
r = mpirun(EXE, N, config={"mpi": {"log_ranks": [0]}})
check_status(r, 0, "log_ranks [0]")
expect_same_stdout(r, reference, "log_ranks [0]")
p = r.summary()
expect_messages(p, m.only_ranks({0}), N, "log_ranks [0]")
if p:
    expect_total_calls(p, {"main;exchange": 2 * N}, "log_ranks [0]")
    expect_total_calls(p, {at("exchange", routine): 2 for routine in EXCHANGE_ROUTINES}, "log_ranks [0]")
    for path in p.mpi_paths():
        ranks = sorted(p.rank_entries(path))
        check(ranks in ([], [0]), "log_ranks [0]: %s only on rank 0, found on %r" % (path, ranks))

# rank_files [1, 2] and an exit status of 5 from every rank.
plain5 = mpirun(mpi_program("control_plain"), N, args=["exit=5"])
r = mpirun(EXE, N, args=["exit=5"], config={"mpi": {"rank_files": [1, 2]}})
check_eq(r.returncode, plain5.returncode, "exit status as without hooktrace")
check_status(r, 5, "exit=5")
expect_same_stdout(r, reference, "exit=5 with rank_files")
p = r.summary()
expect_messages(p, m, N, "rank_files")
check(not r.exists("_0.json"), "rank_files [1, 2]: no file for rank 0")
for rank in (1, 2):
    expect_rank_file(r.rank_profile(rank), m, rank, N, "rank_files")

# No MPI_Finalize: every rank writes its own file, nobody the summary.
r = mpirun(EXE, N, args=["nofinalize"], allow_no_finalize=True)
expect_same_stdout(r, reference, "nofinalize")
check(not r.exists(".json"), "nofinalize: no summary (files: %s)" % " ".join(r.files()))
for rank in range(N):
    q = r.rank_profile(rank)
    if q:
        expect_total_calls(q, {"main;exchange": 2, "main;report": 1,
                               at("exchange", "MPI_Sendrecv"): 2}, "nofinalize, rank %d" % rank)
        check(not q.has("main;MPI_Finalize"), "nofinalize: rank %d has no MPI_Finalize" % rank)
        expect_rank_file(q, m, rank, N, "nofinalize")
# outputs.progress_after_ms 0: rank 0 alone reports the steps of shut-down
# on stderr (the other ranks merge silently).
r = mpirun(EXE, N, config={"outputs": {"progress_after_ms": 0}})
check_status(r, 0, "progress")
steps = [re.sub(r"^hooktrace: \d+\.\d s: ", "", line)
         for line in r.stderr.splitlines() if re.match(r"^hooktrace: \d+\.\d s: ", line)]
steps = [re.sub(r"into \d+ stacks", "into <n> stacks", step) for step in steps]
check_eq(steps, ["all %d ranks reached MPI_Finalize" % N, "named the functions",
                 "merged 1 thread into <n> stacks", "merged %d ranks and wrote control.*" % N, "done"],
         "progress: rank 0's steps, once each")
# The last rank reaches MPI_Finalize 1.5 s after the others: rank 0 says it
# waited for it (at least 1 s of the 1.5, whatever the ranks' skew), and
# naming took none of that time.
r = mpirun(EXE, N, args=["late=1500"], config={"outputs": {"progress_after_ms": 0}})
check_status(r, 0, "late")
times = {re.sub(r"^hooktrace: \d+\.\d s: ", "", line): float(line.split()[1])
         for line in r.stderr.splitlines() if re.match(r"^hooktrace: \d+\.\d s: ", line)}
arrived = times.get("all %d ranks reached MPI_Finalize" % N)
check(arrived is not None and arrived >= 1.0,
      "late: rank 0 says how long it waited for the last rank: %r" % r.stderr)
named = times.get("named the functions")
check(arrived is not None and named is not None and named >= arrived,
      "late: the functions are named after the wait: %r" % r.stderr)
finish()
