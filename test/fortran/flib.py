"""Helpers of the Fortran MPI tests (test/fortran/*.py), on top of
test/mpi/mpilib.py: where the programs are, and the checks every run of a
Fortran program gets.

A Fortran test program is built once per interface, fX_f90 (`use mpi`),
fX_f77 (`include 'mpif.h'`) and fX_f08 (`use mpi_f08`), from one source,
and once more without hooktrace (fX_plain or fX_<variant>_plain): every
rank prints one line, and the lines of the instrumented runs must be those
of the plain run, in any order (the ranks' output interleaves)."""
import os
import sys

sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "mpi"))
from mpilib import *  # noqa: E402,F401,F403
from mpilib import MPI_NAME, check, check_eq, check_status, expect_messages, expect_total_calls  # noqa: E402

MPICH = MPI_NAME == "mpich"


def fortran_program(name):
    """Path of a test program from test/fortran built by `make check`."""
    return os.path.join(BUILDDIR, "test", "fortran", name)  # noqa: F405


def nested_mpi(profile):
    """Paths with an MPI routine under another: a call counted twice (the
    library's Fortran binding calling the C routine we also wrap)."""
    return [path for path in (profile.paths() if profile else [])
            if any(a.startswith("MPI_") and b.startswith("MPI_")
                   for a, b in zip(path.split(";"), path.split(";")[1:]))]


def lines(run):
    return sorted(run.stdout.splitlines())


def expect_run(run, reference, model, calls, ranks, what):
    """A run of a Fortran program: exit status 0, one line per rank, the
    same as the plain run's (compared sorted; reference None: not
    compared), exactly the model's messages (expect_messages), the given
    calls per stack, and no MPI routine under another.  Returns the summary
    profile (or None)."""
    check_status(run, 0, what)
    check_eq(len(run.stdout.splitlines()), ranks, what + ": one line per rank")
    if reference is not None:
        check_eq(lines(run), lines(reference), what + ": stdout as without hooktrace")
    profile = run.summary()
    expect_messages(profile, model, ranks, what)
    expect_total_calls(profile, calls, what)
    check_eq(nested_mpi(profile), [], what + ": no MPI routine under another")
    return profile
