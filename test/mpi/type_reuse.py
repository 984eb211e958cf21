"""Derived datatypes freed and made again between sends of predefined ones
(test/mpi/type_reuse.c), on 2 ranks: every send's bytes exactly, although
the handle of a freed type may name the next one (hooktrace keeps the sizes
of predefined types only, src/mpi/ranks.c)."""
from mpilib import *

require_launcher()
N = 2

m = Messages()
for k in range(1, 7):
    for nbytes in (3 * k * INT, 2 * DOUBLE, 5 * INT):
        m.p2p(0, 1, nbytes, "main;exchange;MPI_Send", "main;exchange;MPI_Recv")
report_messages(m, N)
sent = sum(12 * k + 16 + 20 for k in range(1, 7))

r = mpirun(mpi_program("type_reuse"), N)
check_status(r, 0, "type_reuse")
check_eq(r.stdout, "bytes sent rank 0: %d\nbytes sent rank 1: 0\n" % sent, "stdout")
p = r.summary()
expect_messages(p, m, N, "type_reuse")
expect_total_calls(p, {"main;exchange": 6 * N, "main;exchange;MPI_Send": 18,
                       "main;exchange;MPI_Recv": 18},
                   "type_reuse")
finish()
