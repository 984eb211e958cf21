"""Messages over 2 GiB (test/mpi/large.c) on 2 ranks: one message of
2,202,009,600 bytes (2,100 blocks of a 1 MiB contiguous type) with
MPI_Send/MPI_Recv, then MPI_Isend/MPI_Irecv + MPI_Wait, and, where the
library has the MPI 4 large-count routines (MPICH 4.0, not Open MPI 4.1),
MPI_Send_c/MPI_Recv_c and MPI_Isend_c/MPI_Irecv_c with a plain MPI_Count
of bytes (and MPI_Bcast_c and MPI_Allgatherv_c with small counts).  The
sender's bytes, the receiver's, the per-rank figures and comm_matrix are
exact (a received count over INT_MAX bytes was 0 before); the same run is
traced, and hooktrace-analyze gives the same comm_matrix from the trace
(the OTF2 message length is 64-bit).  Each message is a 2.2 GB copy: the
program runs once, with no plain reference run."""
import json
import os
import subprocess

from mpilib import *

require_launcher()
N = 2
BYTES = 1048576 * 2100
assert BYTES == 2202009600


def at(function, routine):
    return "main;%s;%s" % (function, routine)


large_count = not is_open_mpi()
m = Messages()
m.p2p(0, 1, BYTES, at("blocking", "MPI_Send"), at("blocking", "MPI_Recv"))
m.p2p(0, 1, BYTES, at("nonblocking", "MPI_Isend"), at("nonblocking", "MPI_Irecv"))
if large_count:
    m.p2p(0, 1, BYTES, at("large_count", "MPI_Send_c"), at("large_count", "MPI_Recv_c"))
    m.p2p(1, 0, LONG, at("large_count", "MPI_Send"), at("large_count", "MPI_Recv"))
    m.p2p(0, 1, BYTES, at("large_count", "MPI_Isend_c"), at("large_count", "MPI_Irecv_c"))
    m.coll(0, 1, 7 * DOUBLE, at("large_count", "MPI_Bcast_c"))
    m.coll(0, 1, 3 * INT, at("large_count", "MPI_Allgatherv_c"))
    m.coll(1, 0, 5 * INT, at("large_count", "MPI_Allgatherv_c"))
report_messages(m, N, times=3 if large_count else 2)
expected_stdout = "".join("%s rank %d: 1\n" % (name, r)
                          for name in ["blocking", "nonblocking"] + (["large-count"] if large_count else [])
                          for r in range(N))
expected_stdout += "large-count routines: %d\n" % large_count

r = mpirun(mpi_program("large"), N, config={"trace": {"enabled": True}}, timeout=240)
check_status(r, 0, "large")
check_eq(r.stdout, expected_stdout, "large: stdout (the data arrived, counts as without hooktrace)")
p = r.summary()
expect_messages(p, m, N, "large")
if p:
    check_eq(p.rank_traffic(at("blocking", "MPI_Recv")), {1: (0, 0, 1, BYTES)},
             "receiver's figures of one 2,202,009,600-byte MPI_Recv")
    big = 4 if large_count else 2
    check_eq(p.matrix("comm_matrix").get((0, 1)), (big, big * BYTES),
             "comm_matrix 0 -> 1: every message, bytes summed exactly")
    expect_total_calls(p, {at("large_count", "MPI_Send_c"): 1, at("large_count", "MPI_Recv_c"): 1,
                           at("large_count", "MPI_Isend_c"): 1, at("large_count", "MPI_Irecv_c"): 1}
                       if large_count else {at("nonblocking", "MPI_Wait"): 2})

    if HAVE_OTF2:
        # The same messages in the OTF2 trace, through the analyzer.
        analyze = os.path.join(BUILDDIR, "hooktrace-analyze")
        report = os.path.join(r.directory, "analysis.json")
        proc = subprocess.run([analyze, "-q", "--json", report, os.path.join(r.directory, "large_trace")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                              timeout=120)
        if check_eq(proc.returncode, 0, "hooktrace-analyze exit status (%s)" % proc.stderr):
            with open(report) as f:
                analysis = json.load(f)
            check_eq(analysis["comm_matrix"], p.doc["comm_matrix"], "analyzer comm_matrix = profile comm_matrix")
finish()
