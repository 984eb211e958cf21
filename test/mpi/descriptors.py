"""The program's descriptor table, with and without hooktrace (issue 36,
point 1): rank 0 of test/mpi/lifecycle_mpi.c (mode fds) lists its open
descriptors after MPI_Init and after MPI_Finalize, number and target
(digits made N).  Instrumented, the list is the plain program's exactly:
Open MPI opens and closes dozens of component libraries at MPI_Init, and
hooktrace keeps the file of a closed library only if it calls the hooks
(src/symbols/closed.c), so none of theirs stays open.  docs/what_happens.md,
"A library is closed with dlclose"."""

import re

from mpilib import *

RANKS = 2
plain = mpirun(mpi_program("lifecycle_mpi_plain"), RANKS, args=["fds"])
check_status(plain, 0, "plain")
instrumented = mpirun(mpi_program("lifecycle_mpi"), RANKS, args=["fds"])
check_status(instrumented, 0, "instrumented")


def table(run):
    # Shared-memory segments carry random names (UCX: ucx_shm_posix_<hex>).
    return [re.sub(r"/dev/shm/\S+", "/dev/shm/<segment>", l) for l in run.stdout.splitlines()
            if l.startswith(("init ", "finalized "))]


listed = table(plain)
check(any(l.startswith("init ") for l in listed) and any(l.startswith("finalized ") for l in listed),
      "the plain program lists its descriptors at both points: %s" % listed)
check_eq(table(instrumented), listed, "the descriptor table is the plain program's")
check(not any(".so" in l for l in table(instrumented)),
      "no library file held open: %s" % table(instrumented))
finish()
