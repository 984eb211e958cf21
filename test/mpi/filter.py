"""MPI routines are never filtered out by accident (docs/filter.md, "MPI
routines"): on test/mpi/throttle_mpi.c on 4 ranks, patterns that match
them leave every MPI routine's stacks, calls and messages exact, while the
functions they also match are removed at no cost; only an
exclude_functions entry that names one whole leaves it out of the output.

1. exclude_functions ["MPI_*", "^tiny$"] (the regular expression MPI_*
   matches every MPI routine), throttling off: tiny is gone, every other
   stack and message is exact, and rank 0 alone says once that the
   pattern matches an MPI routine.
2. A Score-P filter file "EXCLUDE *" then "INCLUDE main", throttling on:
   every function but main is rewritten away, and every MPI routine's
   calls and messages now hang from main.
3. exclude_functions [".*"]: main too leaves the output (it is only never
   rewritten), and the MPI routines stay, at the top.
4. exclude_functions ["^MPI_Isend$"], the routine's whole name: its
   stacks leave the output, and their calls' time and messages are its
   caller's (exchange sends every ring message); nothing is said."""
import os

from mpilib import (INT, LONG, Messages, check, check_eq, check_status, expect_messages,
                    expect_same_stdout, finish, mpi_program, mpirun, report_messages,
                    require_launcher)
import htlib

require_launcher()
N = 4
CALLS = 5000
EXE = mpi_program("throttle_mpi")
QUIET = {"progress_after_ms": 3600000}
WARNING = "hooktrace: \"exclude_functions\" matches the MPI routine "

reference = mpirun(mpi_program("throttle_mpi_plain"), N)
check_status(reference, 0, "throttle_mpi_plain")


def model(caller_of_ring, report_caller):
    m = Messages()
    for r in range(N):
        m.p2p(r, (r + 1) % N, INT, caller_of_ring + "MPI_Isend", caller_of_ring + "MPI_Irecv",
              times=CALLS)
    for r in range(1, N):
        m.p2p(r, 0, LONG, report_caller + "MPI_Send", report_caller + "MPI_Recv")
    return m


def expect(r, what, calls, m, absent=()):
    check_status(r, 0, what)
    expect_same_stdout(r, reference, what)
    p = r.summary()
    if not p:
        return None
    expect_messages(p, m, N, what)
    for path, n in sorted(calls.items()):
        check_eq(p.calls(path), N * n, "%s: calls of %s (all ranks)" % (what, path))
    names = {f["name"] for f in p.doc["functions"]}
    for name in absent:
        check(name not in names, "%s: %s absent from the profile" % (what, name))
    check_eq(p.doc["mismatched_exits"], 0, what + ": no exit out of step")
    return p


# 1. exclude_functions matching every MPI routine, and tiny.
what = "exclude_functions MPI_*"
r = mpirun(EXE, N, config={"exclude_functions": ["MPI_*", "^tiny$"],
                           "throttle": {"enabled": False}, "outputs": QUIET})
exchange = "main;ring;exchange;"
p = expect(r, what, {"main;compute": 1, "main;ring": 1, "main;ring;MPI_Waitall": CALLS // 100,
                     "main;ring;exchange": CALLS, exchange + "MPI_Isend": CALLS,
                     exchange + "MPI_Irecv": CALLS, "main;outer;middle;MPI_Sendrecv": CALLS,
                     "main;late_caller;late": CALLS + 1,
                     "main;late_caller;late;MPI_Sendrecv": 1},
           model(exchange, "main;report;"), absent=["tiny"])
check_eq(r.stderr.count(WARNING), 1, what + ": said once, by rank 0: %r" % r.stderr)
check(WARNING + "MPI_Send: MPI routines are never filtered out" in r.stderr,
      what + ": the warning says MPI routines stay: %r" % r.stderr)
if p:
    check_eq(p.doc["throttle"]["hook_calls_after_throttling"], N * 2,
             what + ": tiny's two hook calls on each rank, then rewritten")

# 2. A Score-P filter file excluding everything but main.
what = "filter file EXCLUDE *"
d = htlib.run_directory("hooktrace-mpi-filter-")
with open(os.path.join(d, "all.filter"), "w") as f:
    f.write("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE *\n  INCLUDE main\nSCOREP_REGION_NAMES_END\n")
with open(os.path.join(d, "config.json"), "w") as f:
    f.write('{"filter_file": "all.filter", "outputs": {"progress_after_ms": 3600000}}')
r = mpirun(EXE, N, env={"HOOKTRACE_CONFIG": os.path.join(d, "config.json")})
p = expect(r, what, {"main": 1, "main;MPI_Waitall": CALLS // 100, "main;MPI_Isend": CALLS,
                     "main;MPI_Irecv": CALLS, "main;MPI_Sendrecv": CALLS + 1},
           model("main;", "main;"))
check_eq(r.stderr, "", what + ": nothing on stderr")
if p:
    others = sorted(f["name"] for f in p.doc["functions"]
                    if f["name"] != "main" and not f["name"].startswith("MPI_"))
    check_eq(others, [], what + ": main and the MPI routines alone in the profile")
    check_eq(p.doc["throttle"]["functions"], 0, what + ": nothing throttled by the rule")

# 3. Everything excluded by a regular expression: main leaves the output.
what = "exclude_functions .*"
r = mpirun(EXE, N, config={"exclude_functions": [".*"], "outputs": QUIET})
p = expect(r, what, {"MPI_Waitall": CALLS // 100, "MPI_Isend": CALLS, "MPI_Irecv": CALLS,
                     "MPI_Sendrecv": CALLS + 1}, model("", ""), absent=["main"])
check_eq(r.stderr.count(WARNING), 1, what + ": said once, by rank 0: %r" % r.stderr)
if p:
    check_eq(sorted(f["name"] for f in p.doc["functions"] if not f["name"].startswith("MPI_")),
             [], what + ": the MPI routines alone in the profile")

# 4. One routine named whole: left out of the output, its messages its
# caller's.
what = "exclude_functions ^MPI_Isend$"
r = mpirun(EXE, N, config={"exclude_functions": ["^MPI_Isend$"], "throttle": {"enabled": False},
                           "outputs": QUIET})
m = Messages()
for k in range(N):
    m.p2p(k, (k + 1) % N, INT, "main;ring;exchange", exchange + "MPI_Irecv", times=CALLS)
for k in range(1, N):
    m.p2p(k, 0, LONG, "main;report;MPI_Send", "main;report;MPI_Recv")
p = expect(r, what, {"main;ring;exchange": CALLS, exchange + "MPI_Irecv": CALLS,
                     "main;compute;tiny": CALLS, "main;ring;MPI_Waitall": CALLS // 100},
           m, absent=["MPI_Isend"])
check_eq(r.stderr, "", what + ": nothing on stderr")
finish()
