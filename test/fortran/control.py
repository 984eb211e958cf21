"""test/mpi/control.c through the Fortran bindings (test/fortran/
control.F90) on 3 ranks: what controls MPI recording, for `use mpi`
(fcontrol_f90, every case below), `use mpi_f08` (fcontrol_f08: MPI_Pcontrol,
log_ranks, no MPI_Finalize) and `include 'mpif.h'` (fcontrol_f77:
MPI_Pcontrol, log_messages):
- MPI_Pcontrol(0)...(1) excludes exactly the second of three exchanges:
  its MPI calls are no nodes and its messages are not counted; an Isend
  made before a pause and waited for during it is not counted either;
- "mpi": {"log_messages": false}: no MPI routine is a node (MPI_Init and
  MPI_Finalize aside) and nothing is counted;
- HOOKTRACE_OFF=1: nothing written;
- "mpi": {"log_ranks": [0]}: only rank 0's sends and receives;
- "mpi": {"rank_files": [1, 2]}: those ranks also write <exe>_<rank>.json
  with their own figures; the exit status of STOP after MPI_Finalize
  passes through;
- stopping without MPI_Finalize leaves <exe>_<rank>.json for every rank,
  with its own figures;
- stdout is the same in every case, and as without hooktrace.
MPI_Init_thread starts MPI: a node like MPI_Init."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flib import *  # noqa: E402,F403
from models import EXCHANGE_ROUTINES, exchanges  # noqa: E402

require_launcher()
N = 3


def at(function, routine):
    return "main;fcontrol;ctl::%s;%s" % (function, routine)


m = Messages()
exchanges(m, N, at)   # the first and the third; straddle(): no message

EXCHANGE = "main;fcontrol;ctl::exchange"
CALLS = {at("exchange", routine): 2 * N for routine in EXCHANGE_ROUTINES}
CALLS.update({EXCHANGE: 2 * N, at("straddle", "MPI_Isend"): N, "main;fcontrol;MPI_Barrier": N,
              "main;fcontrol;MPI_Init_thread": N, "main;fcontrol;MPI_Finalize": N})

reference = mpirun(fortran_program("fcontrol_plain"), N)
check_status(reference, 0, "fcontrol_plain")


def pcontrol(exe, what):
    r = mpirun(exe, N)
    p = expect_run(r, reference, m, CALLS, N, what)
    check(p is None or not any(p.has(at("straddle", x)) for x in ("MPI_Recv", "MPI_Wait")),
          what + ": the calls during the pause are no nodes")
    check_eq([f for f in r.files() if re.match(r"fcontrol_f\d\d_\d", f)], [], what + ": no per-rank files by default")


def log_messages_false(exe, what):
    r = mpirun(exe, N, config={"mpi": {"log_messages": False}})
    p = expect_run(r, reference, Messages(), {EXCHANGE: 2 * N}, N, what)
    if p:
        check_eq(p.mpi_paths(), [], what + ": no MPI routine is a node")


def hooktrace_off(exe, what):
    r = mpirun(exe, N, env={"HOOKTRACE_OFF": "1"})
    check_status(r, 0, what)
    check_eq(lines(r), lines(reference), what + ": stdout as without hooktrace")
    check_eq(r.files(), [], what + ": no files")


def log_ranks(exe, what):
    r = mpirun(exe, N, config={"mpi": {"log_ranks": [0]}})
    calls = {at("exchange", routine): 2 for routine in EXCHANGE_ROUTINES}
    calls[EXCHANGE] = 2 * N
    p = expect_run(r, reference, m.only_ranks({0}), calls, N, what)
    for path in p.mpi_paths() if p else []:
        ranks = sorted(p.rank_entries(path))
        check(ranks in ([], [0]), "%s: %s only on rank 0, found on %r" % (what, path, ranks))


def rank_files_exit(exe, what):
    plain5 = mpirun(fortran_program("fcontrol_plain"), N, args=["exit=5"])
    r = mpirun(exe, N, args=["exit=5"], config={"mpi": {"rank_files": [1, 2]}})
    check_eq(r.returncode, plain5.returncode, what + ": exit status as without hooktrace")
    check_status(r, 5, what)
    check_eq(lines(r), lines(reference), what + ": stdout as without hooktrace")
    expect_messages(r.summary(), m, N, what)
    check(not r.exists("_0.json"), what + ": no file for rank 0")
    for rank in (1, 2):
        expect_rank_file(r.rank_profile(rank), m, rank, N, what)


def nofinalize(exe, what):
    r = mpirun(exe, N, args=["nofinalize"], allow_no_finalize=True)
    check_eq(lines(r), lines(reference), what + ": stdout as without hooktrace")
    check(not r.exists(".json"), "%s: no summary (files: %s)" % (what, " ".join(r.files())))
    for rank in range(N):
        q = r.rank_profile(rank)
        if q:
            expect_total_calls(q, {EXCHANGE: 2, at("exchange", "MPI_Sendrecv"): 2},
                               "%s, rank %d" % (what, rank))
            check(not q.has("main;fcontrol;MPI_Finalize"), "%s: rank %d has no MPI_Finalize" % (what, rank))
            expect_rank_file(q, m, rank, N, what)


# Every case with use mpi; with the other interfaces the cases that take
# other paths through their wrappers (recording, passing through).
CASES = {"f90": (pcontrol, log_messages_false, hooktrace_off, log_ranks, rank_files_exit, nofinalize),
         "f08": (pcontrol, log_ranks, nofinalize),
         "f77": (pcontrol, log_messages_false)}
for variant, cases in sorted(CASES.items()):
    for case in cases:
        case(fortran_program("fcontrol_" + variant), "fcontrol_%s, %s" % (variant, case.__name__))
finish()
