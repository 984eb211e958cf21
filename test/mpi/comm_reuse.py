"""Point-to-point peers and bytes on split and Cartesian communicators
(test/mpi/comm_reuse.c, 2 ranks), exactly, with a split communicator freed
and the next one (in the other rank order) made under the same handle:
each thread's last looked-up communicator table (src/mpi/ranks.h,
ht_last_map) must not be taken for the new one's; on the Cartesian one,
MPI_Sendrecv's cases besides the common one (MPI_ANY_SOURCE, MPI_PROC_NULL,
a derived datatype).  The run checks that the handle was indeed reused
(both libraries do), or the test would prove nothing."""
import os

from mpilib import *

require_launcher()
N = 2

m = Messages()
m.p2p(0, 1, 8, "main;reversed;MPI_Send", "main;reversed;MPI_Recv")
m.p2p(1, 0, 16, "main;ordered;MPI_Send", "main;ordered;MPI_Recv")
m.p2p(0, 1, 24, "main;cart;MPI_Sendrecv", "main;cart;MPI_Sendrecv")
m.p2p(1, 0, 24, "main;cart;MPI_Sendrecv", "main;cart;MPI_Sendrecv")
# From MPI_ANY_SOURCE, one way only (MPI_PROC_NULL), a derived datatype.
for sender in (0, 1):
    m.p2p(sender, 1 - sender, 32, "main;cart_more;MPI_Sendrecv", "main;cart_more;MPI_Sendrecv")
    m.p2p(sender, 1 - sender, 24, "main;cart_more;MPI_Sendrecv_replace",
          "main;cart_more;MPI_Sendrecv_replace")
m.p2p(0, 1, 12, "main;cart_more;MPI_Sendrecv", "main;cart_more;MPI_Sendrecv")
report_messages(m, N)

reference = mpirun(mpi_program("comm_reuse_plain"), N)
check_status(reference, 0, "plain")
# Under AddressSanitizer (CI's second stage) freed memory is not handed out
# again at once, so the handle is new there: the messages are still exact,
# and the first stage's run covers the reuse.
if os.environ.get("ASAN_OPTIONS") is None:
    check_eq(reference.stdout, "same handle rank 0: 1\nsame handle rank 1: 1\n",
             "the ordered split reuses the freed split's handle")
r = mpirun(mpi_program("comm_reuse"), N)
check_status(r, 0)
expect_same_stdout(r, reference, "hooktrace")
expect_messages(r.summary(), m, N)
finish()
