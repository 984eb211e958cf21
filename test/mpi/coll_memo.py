"""MPI_Allreduce repeated from one call site (test/mpi/coll_memo.c) on 4
ranks, exactly: hooktrace counts a repeated identical blocking Allreduce in
the record of the thread's last one (src/mpi/collectives.c), and must see
what differs between two calls with equal arguments: a communicator freed
and split anew with other members under the same handle, a derived
datatype freed and made again, MPI_COMM_WORLD in between.  Also in trace
mode, where every call is recorded on its own."""
from mpilib import *

require_launcher()
N = 4
PATH = "main;step;reduce;MPI_Allreduce"
TYPED = "main;step;reduce_typed;reduce;MPI_Allreduce"

m = Messages()
for i in range(6):
    pairs = ((0, 2), (1, 3)) if i % 2 == 0 else ((0, 1), (2, 3))
    for a, b in pairs:
        for nbytes, path in ((2 * DOUBLE, PATH), (2 * DOUBLE, PATH),
                             (4 * DOUBLE, TYPED), (6 * DOUBLE, TYPED)):
            m.coll(a, b, nbytes, path)
            m.coll(b, a, nbytes, path)
    for _ in range(2):
        for s in range(N):
            for d in range(N):
                m.coll(s, d, 2 * DOUBLE, PATH)
report_messages(m, N)

for what, config in (("profile", None), ("trace mode", {"trace": {"enabled": True}})):
    r = mpirun(mpi_program("coll_memo"), N, config=config)
    check_status(r, 0, what)
    p = r.summary()
    expect_messages(p, m, N, what)
    expect_total_calls(p, {PATH: 4 * 6 * N, TYPED: 2 * 6 * N}, what)
finish()
