"""End to end: hooktrace's own traces through hooktrace-analyze.  For the
test/mpi programs without one-sided traffic (which the trace does not
record as messages), the analyzer's comm_matrix equals the profile's
exactly, every send finds its receive, and no message arrives before it
was sent."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "integration"))
sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "mpi"))
from htlib import check, check_eq, finish, memcheck  # noqa: E402
from mpilib import check_status, mpi_program, mpirun, require_launcher  # noqa: E402

require_launcher()
ANALYZE = os.path.join(os.environ.get("HT_TOP_BUILDDIR", "."), "hooktrace-analyze")

# control pauses logging with MPI_Pcontrol(0) on some ranks while messages
# are in flight: the matrices still agree, but the paused side's events are
# missing by design, so its warnings are not checked.
for name, ranks, args, clean in (("p2p", 4, [], True), ("requests", 4, [], True),
                                 ("control", 3, [], False), ("collectives", 3, [], True)):
    r = mpirun(mpi_program(name), ranks, args=args, config={"trace": {"enabled": True}})
    check_status(r, 0, "%s traced" % name)
    report = os.path.join(r.directory, "analysis.json")
    proc = subprocess.run(memcheck([ANALYZE, "-q", "--json", report,
                                    os.path.join(r.directory, name + "_trace")]),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=120)
    if not check_eq(proc.returncode, 0, "%s: hooktrace-analyze exit status (%s)" % (name, proc.stderr)):
        continue
    with open(report) as f:
        analysis = json.load(f)
    profile = r.summary().doc
    check_eq(analysis["comm_matrix"], profile["comm_matrix"],
             "%s: analyzer comm_matrix = profile comm_matrix" % name)
    w = analysis["warnings"]
    for kind in () if not clean else ("missing_receive", "receive_without_send", "nonpositive_duration",
                 "unknown_request", "unmapped_rank", "isend_not_completed"):
        check_eq(w[kind], 0, "%s: %s warnings" % (name, kind))

finish()
