"""Regions (test/mpi/regions.c, docs/regions.md) on 2 ranks: each region is
a node under the function that opened it, the same name under two
functions two nodes, with exact calls; the MPI calls inside "iterate" and
their messages are attributed below it, exactly; the program's stdout and
exit status are those of the same source built without libhooktrace (whose
weak references make the calls no-ops); trace mode has the regions as
OTF2 regions with the same calls; an end that does not match the open
region, and a region without a name, are each said once and the tree stays
as docs/regions.md defines."""
import os
import sys

from mpilib import *

sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "trace"))
from otf2lib import Trace, profile_calls_by_name  # noqa: E402

require_launcher()
# The shut-down's progress lines, which a slow run (a loaded machine, the
# sanitizers) prints after a second, are not what stderr is checked for.
QUIET = {"outputs": {"progress_after_ms": 3600000}}
N, STEPS = 2, 20
INT, DOUBLE = 4, 8


def at(*names):
    return ";".join(("main",) + names)


CALLS = {
    at("setup"): N, at("setup", "assemble"): N, at("setup", "assemble", "local_work"): N,
    at("step"): STEPS * N, at("step", "assemble"): STEPS * N,
    at("step", "assemble", "local_work"): STEPS * N,
    at("step", "iterate"): STEPS * N,
    at("step", "iterate", "MPI_Allreduce"): STEPS * N,
    at("step", "iterate", "MPI_Sendrecv"): STEPS * N,
}


def model():
    m = Messages()
    ring = at("step", "iterate", "MPI_Sendrecv")
    for r in range(N):
        m.p2p(r, (r + 1) % N, 4 * INT, ring, ring, times=STEPS)
        for _ in range(STEPS):
            for x in range(N):
                m.coll(r, x, DOUBLE, at("step", "iterate", "MPI_Allreduce"))
    return m


reference = mpirun(mpi_program("regions_plain"), N)
check_status(reference, 0, "regions_plain")
check_eq(reference.stderr, "", "regions_plain: nothing on stderr")

r = mpirun(mpi_program("regions"), N, config=QUIET)
check_status(r, 0, "regions")
expect_same_stdout(r, reference, "regions")
check_eq(r.stderr, "", "regions: nothing on stderr")
p = r.summary()
expect_total_calls(p, CALLS, "regions")
expect_messages(p, model(), N, "regions")
if p is not None:
    check_eq(sorted(path for path in p.paths() if "assemble" in path.split(";")[-1:]),
             [at("setup", "assemble"), at("step", "assemble")],
             "regions: one assemble node under each function that opens it")
    check(at("step", "local_work") not in p.by_path, "regions: local_work only below its region")

# --- trace mode: OTF2 regions named as the program named them ------------------
r = mpirun(mpi_program("regions"), N, config={"trace": {"enabled": True}})
check_status(r, 0, "regions, trace mode")
expect_same_stdout(r, reference, "regions, trace mode")
p = r.summary()
expect_total_calls(p, CALLS, "regions, trace mode")
if HAVE_OTF2:
    t = Trace(os.path.join(r.directory, "regions_trace", "traces.otf2"))
    check_eq(t.print_status, 0, "regions: otf2-print (stderr: %s)" % t.print_stderr[-400:])
    if p is not None:
        calls = {k: v for k, v in profile_calls_by_name(p).items() if v}
        check_eq(dict(t.enters()), calls, "regions, trace mode: Enter events per region = profile calls")
        check_eq(t.enters()["assemble"], (STEPS + 1) * N, "regions, trace mode: assemble entered")
        check_eq(t.enters()["iterate"], STEPS * N, "regions, trace mode: iterate entered")
    t.check_nesting()
else:
    # configure --without-otf2: each rank says once that it writes no
    # trace, and makes no trace folder; the profile above is exact.
    check_eq(r.stderr.count("hooktrace: trace mode needs OTF2"), N,
             "regions, trace mode without OTF2: one line per rank on stderr (%r)" % r.stderr)
    check(not os.path.exists(os.path.join(r.directory, "regions_trace")),
          "regions, trace mode without OTF2: no trace folder")

# --- mismatched ends ---------------------------------------------------------
r = mpirun(mpi_program("regions"), N, args=["mismatch"], config=QUIET)
check_status(r, 0, "regions mismatch")
expected_lines = [
    "hooktrace: hooktrace_region_end(\"never_opened\") came while no region of that name was "
    "open on this thread: ignored (said once per region name; docs/regions.md)",
    "hooktrace: hooktrace_region_end(\"outer\") came while calls or regions opened inside it "
    "were still open: they end with it (said once per region name; docs/regions.md)",
    "hooktrace: hooktrace_region_end(\"inner\") came while no region of that name was open on "
    "this thread: ignored (said once per region name; docs/regions.md)",
]
lines = r.stderr.splitlines()
for line in expected_lines:
    check_eq(lines.count(line), N, "regions mismatch: said once per rank: " + line)
check_eq(len(lines), N * len(expected_lines), "regions mismatch: nothing else on stderr (%r)"
         % r.stderr)
p = r.summary()
expect_total_calls(p, {at("mismatch"): N, at("mismatch", "outer"): N,
                       at("mismatch", "outer", "inner"): N,
                       at("mismatch", "outer", "inner", "local_work"): N,
                       at("MPI_Finalize"): N}, "regions mismatch")
if p is not None:
    check_eq(sorted(path for path in p.paths() if "never_opened" in path), [],
             "regions mismatch: no node for a region never opened")

# --- no name ------------------------------------------------------------------
r = mpirun(mpi_program("regions"), N, args=["unnamed"], config=QUIET)
check_status(r, 0, "regions unnamed")
check_eq(r.stderr.splitlines(),
         ["hooktrace: a region without a name (a null or empty name) was ignored (said once)"] * N,
         "regions unnamed: one line per rank")
p = r.summary()
expect_total_calls(p, {at("unnamed"): N, at("unnamed", "local_work"): N}, "regions unnamed")
finish()
