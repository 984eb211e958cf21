"""Every MPI routine the MPI library exports is wrapped, or on the list of
routines with nothing to record in docs/mpi_routines.md.

The MPI library is the one the build's test programs link
(test/mpi/p2p_plain, as ldd resolves it); its MPI_ routines are the
functions `nm -D --defined-only` lists.  The wrapped ones are the MPI_
functions the runtime library that the instrumented test programs link
exports (test/mpi/p2p, as ldd resolves it), so a routine of routines.py whose wrapper
configure left out (a failed HT_MPI4_COMM check, say) counts as not
wrapped.  Fails on:
- a routine the library exports that is neither wrapped nor matched by a
  pattern of the documented list (a new MPI's new routine, say);
- a routine of routines.py that the library exports but the runtime
  library does not wrap;
- a name the documented list gives exactly (no wildcard) that is wrapped:
  the list and the wrappers would disagree.
And for the Fortran bindings: every routine of routines.py that has one
(not the large-count or sessions rows, nor MPI_Pcontrol) and whose
mpif.h name (mpi_isendrecv_) the MPI's Fortran library exports (the one
test/fortran/fmpi_f90_plain links, if built) is exported by the runtime
library too."""
import fnmatch
import os
import re
import subprocess
import sys

from mpilib import *

SRCDIR = os.environ.get("HT_TOP_SRCDIR", ".")
sys.path.insert(0, os.path.join(SRCDIR, "src", "mpi"))
from routines import ROUTINES  # noqa: E402

DOC = os.path.join(SRCDIR, "docs", "mpi_routines.md")
SECTION = "## Routines with nothing to record"


def linked_library(program, pattern):
    """The path ldd resolves for the first library of `program` whose
    file name matches pattern."""
    out = subprocess.run(["ldd", program], capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = re.match(r"\s*(\S+) => (\S+)", line)
        if m and re.fullmatch(pattern, m.group(1)):
            return os.path.realpath(m.group(2))
    return None


def functions(library, prefix):
    """The functions `library` defines and exports whose names start with
    prefix (nm: T, W and i symbols)."""
    out = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True,
                         text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "TWi" and fields[2].startswith(prefix):
            names.add(fields[2].split("@")[0])
    return names


def documented_patterns():
    """The names and wildcard patterns of the documented list: every
    `MPI_...` in the second column of the table in its section."""
    text = open(DOC).read()
    start = text.find(SECTION)
    check(start >= 0, "%s has a section %r" % (DOC, SECTION))
    end = text.find("\n## ", start + 1)
    rows = [line for line in text[start:end if end > 0 else len(text)].splitlines()
            if line.startswith("|") and not line.startswith("|---")][1:]
    patterns = []
    for row in rows:
        cells = row.split("|")
        patterns += re.findall(r"`(MPI_[A-Za-z0-9_*]+)`", cells[2] if len(cells) > 2 else "")
    check(len(patterns) > 20, "the documented list has its patterns (got %d)" % len(patterns))
    return patterns


program = mpi_program("p2p_plain")
library = linked_library(program, r"lib(mpi|mpich)\.so(\.\d+)*")
if not check(library is not None, "ldd finds the MPI library of %s" % program):
    finish()
instrumented = mpi_program("p2p")
runtime = linked_library(instrumented, r"libhooktrace(-\w+)?\.so(\.\d+)*")
if not check(runtime is not None, "ldd finds the runtime library of %s" % instrumented):
    finish()
print("MPI library: %s\nruntime library: %s" % (library, runtime))

exported = functions(library, "MPI_")
table = {row["name"] for row in ROUTINES}
# Less the upper-case Fortran names of the mpif.h wrappers (MPI_SEND).
wrapped = functions(runtime, "MPI_") - {name.upper() for name in table}
patterns = documented_patterns()
print("%d MPI_ routines exported, %d wrapped, %d rows in routines.py, %d documented patterns"
      % (len(exported), len(wrapped & exported), len(table), len(patterns)))

# Wrapped: every wrapper is a row of the table (no stray MPI_ export).
check_eq(sorted(wrapped - table), [], "MPI_ functions the runtime library exports outside routines.py")
check_eq(sorted((table & exported) - wrapped), [],
         "routines of routines.py the MPI library exports but the runtime library does not wrap")

rest = exported - wrapped
unlisted = sorted(n for n in rest if not any(fnmatch.fnmatchcase(n, p) for p in patterns))
check_eq(unlisted, [], "exported MPI_ routines neither wrapped nor on %s's list" % DOC)
exact = [p for p in patterns if "*" not in p]
check_eq(sorted(set(exact) & table), [], "routines listed as nothing to record but wrapped")
check_eq(sorted(p for p in set(exact) if exact.count(p) > 1), [], "names listed twice")

# Fortran: the mpif.h / use mpi names of the wrapped routines.
fprogram = os.path.join(BUILDDIR, "test", "fortran", "fmpi_f90_plain")
if os.path.exists(fprogram):
    flibrary = linked_library(fprogram, r"lib(mpichfort|mpi_mpifh)\.so(\.\d+)*")
    if check(flibrary is not None, "ldd finds the MPI Fortran library of %s" % fprogram):
        fexported = functions(flibrary, "mpi_")
        fwrapped = functions(runtime, "mpi_")
        bound = [r["name"] for r in ROUTINES if not r.get("large_count") and not r.get("sessions")
                 and r["name"] != "MPI_Pcontrol"]
        missing = sorted(n.lower() + "_" for n in bound
                         if n in exported and n.lower() + "_" in fexported
                         and n.lower() + "_" not in fwrapped)
        check_eq(missing, [], "Fortran entries of %s that the runtime library does not wrap" % flibrary)
        print("Fortran library: %s (%d of the wrapped routines' mpif.h names)"
              % (flibrary, sum(1 for n in bound if n.lower() + "_" in fexported)))
else:
    print("no Fortran test program (%s): Fortran names not compared" % fprogram)
finish()
