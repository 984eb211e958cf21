"""A C program calling Fortran subroutines, both calling MPI (test/fortran/
mixed.c, mixed_f.F90: `use mpi` and `use mpi_f08`) on 4 ranks: every call
counted once (whether the library's Fortran binding calls PMPI_ or MPI_
underneath), each under its caller of either language, with the C and the
Fortran call of one routine under the same name (MPI_Sendrecv,
MPI_Allreduce)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flib import *  # noqa: E402,F403


require_launcher()
N = 4
m = Messages()
for r in range(N):
    m.p2p(r, (r + 1) % N, 2 * INT, "main;c_ring;MPI_Sendrecv", "main;c_ring;MPI_Sendrecv")
    m.p2p(r, (r + 1) % N, 3 * INT, "main;f_ring;MPI_Sendrecv", "main;f_ring;MPI_Sendrecv")
for s in range(N):
    for d in range(N):
        m.coll(s, d, 2 * DOUBLE, "main;f_allreduce;MPI_Allreduce")
        m.coll(s, d, INT, "main;MPI_Allreduce")
    m.coll(0, s, 5 * INT, "main;f08_bcast;MPI_Bcast")

r = mpirun(os.path.join(BUILDDIR, "test", "fortran", "mixed"), N)
check_status(r, 0, "mixed")
check_eq(sorted(r.stdout.splitlines()), ["mixed rank %d: %d" % (i, N) for i in range(N)], "mixed output")
p = r.summary()
expect_messages(p, m, N, "mixed")
expect_total_calls(p, {"main;c_ring;MPI_Sendrecv": N, "main;f_ring;MPI_Sendrecv": N,
                       "main;f_allreduce;MPI_Allreduce": N, "main;MPI_Allreduce": N,
                       "main;f08_bcast;MPI_Bcast": N, "main;MPI_Init": N, "main;MPI_Finalize": N}, "mixed")
check_eq(nested_mpi(p), [], "mixed: no MPI routine under another")
finish()
