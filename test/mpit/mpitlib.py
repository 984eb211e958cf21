"""Helpers for the MPI_T tests (test/mpit): everything of test/mpi/mpilib.py,
plus the programs of this folder, the counts of hooktrace's own MPI_T calls
that test/mpit/counting.h prints, and lookups in the "mpi_t" fields of the
JSON profile.

A part of a test that the MPI library cannot support (MPICH 4.0 as Debian
builds it exposes no performance variables; Open MPI 4.1 does not expose
its point-to-point monitoring counters) calls skip_part(): it prints
"SKIP (part): <reason>" and the test goes on with what it can check."""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mpi"))
from mpilib import *  # noqa: E402,F401,F403
from mpilib import BUILDDIR, MPI_NAME, check, check_eq  # noqa: E402

COUNT_LINE = re.compile(r"^mpit rank (\d+): reads (\d+) sessions (\d+)$")
LISTED_LINE = re.compile(r"^mpit cvars rank (\d+): listed (-?\d+)$")
LEFT_OUT_NOTE = re.compile(r"^(\d+) of the (\d+) control variables the library lists could not be"
                           r" described")


def mpit_program(name):
    """Path of a test program from test/mpit built by `make check`."""
    return os.path.join(BUILDDIR, "test", "mpit", name)


def library():
    """"ompi-c" or "mpich" (configure's HT_MPI_NAME)."""
    return MPI_NAME or ("ompi-c" if is_open_mpi() else "mpich")


def skip_part(reason):
    print("SKIP (part): " + reason)


def counts(run, ranks, what):
    """{rank: (reads, sessions)} from the programs' last lines; one line per
    rank or a failed check."""
    found = {}
    for line in run.stdout.splitlines():
        m = COUNT_LINE.match(line.strip())
        if m:
            found[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
    check_eq(sorted(found), list(range(ranks)), what + ": one count line per rank")
    return found


def mpi_t(profile):
    """The top-level "mpi_t" object ({} and a failed check if missing)."""
    if profile is None:
        return {}
    m = profile.doc.get("mpi_t")
    check(isinstance(m, dict), "the profile has a top-level \"mpi_t\" object")
    return m if isinstance(m, dict) else {}


def pvar_names(profile):
    """Names of the performance variables hooktrace read."""
    return [p.get("name") for p in mpi_t(profile).get("pvars", [])]


def stack_pvars(profile, path):
    """A stack's "pvars" object ({} if it has none)."""
    if profile is None or not profile.has(path):
        return {}
    return profile.by_path[path].get("pvars", {})


def paths_with_pvars(profile):
    if profile is None:
        return []
    return sorted(p for p, s in profile.by_path.items() if "pvars" in s)


def notes(profile):
    return mpi_t(profile).get("notes", [])


def cvars_listed(run):
    """{rank: the number of control variables MPI_T_cvar_get_num gave
    hooktrace} from the programs' last lines (-1: it was not called)."""
    found = {}
    for line in run.stdout.splitlines():
        m = LISTED_LINE.match(line.strip())
        if m:
            found[int(m.group(1))] = int(m.group(2))
    return found


def cvars_left_out(profile):
    """How many control variables the library lists but could not describe
    (hooktrace's note says so; 0 without the note)."""
    for note in notes(profile):
        m = LEFT_OUT_NOTE.match(note)
        if m:
            return int(m.group(1))
    return 0


def mpit_file(run, suffix=""):
    """<basename><suffix>.mpit.json, the control variables' own file, as a
    dict ({} and a failed check if it is missing or not JSON)."""
    name = suffix + ".mpit.json"
    if not check(run.exists(name), "%s%s written (files: %s)" % (run.basename, name,
                                                                  " ".join(run.files()))):
        return {}
    try:
        with open(run.path(name)) as f:
            return json.load(f)
    except ValueError as e:
        check(False, "%s%s is not valid JSON: %s" % (run.basename, name, e))
        return {}
