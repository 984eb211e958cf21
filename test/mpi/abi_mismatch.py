"""A libhooktrace built for one MPI in a program built with the other
(docs/what_happens.md, "A program built with another MPI"): programs
compiled here with the OTHER MPI's compiler wrappers than the build's (C,
`include 'mpif.h'`, `use mpi_f08`; MPICH's for an Open MPI build, Open
MPI's for an MPICH build), run on 2 ranks under that MPI's launcher, plain
and with the build tree's libhooktrace in LD_PRELOAD (and the C one linked
with -lhooktrace).  With hooktrace: the same output lines and exit status
as the plain run, exactly one line from hooktrace on stderr, naming both
MPIs, and each process's call-stack profile <exe>_<rank>.json with the
exact calls of the instrumented functions and no MPI routine.  The runs
with hooktrace bind every symbol at load time (LD_BIND_NOW=1).

The ranks' lines interleave, so stdout is compared as a sorted list of
lines.  The Fortran program (abi_mismatch.F90: mpif.h, use mpi, use
mpi_f08) is built twice: as the compiler wrapper links it (under the
--as-needed of Debian's GCC it needs its MPI's Fortran library only, and
reaches the C library through it), and with its MPI's C library linked too
(-Wl,--no-as-needed).  The first crashed while libhooktrace needed its own
MPI's libraries: they came before the program's C library in the search
order, and the program's Fortran library bound its calls to them
(docs/compile.md, "A library without MPI dependency")."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from mpilib import *
import htlib

LIB = os.path.join(BUILDDIR, ".libs", "libhooktrace.so")
SRC = os.path.join(htlib.SRCDIR, "test", "mpi")
RANKS = 2
OPEN_MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                "OMPI_MCA_btl": "self,vader", "OMPI_MCA_rmaps_base_oversubscribe": "1"}

if is_open_mpi():
    OURS, THEIRS = "Open MPI", "MPICH"
    CC, FC, LAUNCH, CLIB, ENV = "mpicc.mpich", "mpif90.mpich", ["mpiexec.hydra"], "-lmpich", {}
else:
    OURS, THEIRS = "MPICH", "Open MPI"
    CC, FC, LAUNCH, CLIB, ENV = ("mpicc.openmpi", "mpif90.openmpi", ["mpirun.openmpi"], "-lmpi",
                                 OPEN_MPI_ENV)

missing = [tool for tool in (CC, LAUNCH[0]) if not shutil.which(tool)]
if missing:
    print("SKIP: %s is not installed (%s)" % (THEIRS, ", ".join(missing)))
    sys.exit(77)
if not os.path.exists(LIB):
    print("SKIP: no shared libhooktrace (%s)" % LIB)
    sys.exit(77)

work = tempfile.mkdtemp(prefix="hooktrace-abi-")


def sanitizer_runtime():
    """The AddressSanitizer runtime libhooktrace needs (CI's sanitizer
    build), which must come first in a program built without it."""
    out = subprocess.run(["ldd", LIB], stdout=subprocess.PIPE, universal_newlines=True).stdout
    asan = re.search(r"libasan\.so\S* => (\S+)", out)
    return asan.group(1) if asan else None


ASAN = sanitizer_runtime()


def build(compiler, source, exe, extra=()):
    cmd = [compiler, "-g", "-finstrument-functions", os.path.join(SRC, source), "-o",
           os.path.join(work, exe)] + list(extra)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, timeout=300)
    return proc.returncode == 0, proc.stdout


def launch(exe, preload):
    """The directory, stdout, stderr and exit status of a 2-rank run in a
    fresh directory.  preload: True, libhooktrace preloaded; False, exe
    links it; None, a run without hooktrace."""
    d = tempfile.mkdtemp(prefix="run-", dir=work)
    env = dict(os.environ)
    for key in list(env):
        if key.startswith("HOOKTRACE_") or key == "LD_PRELOAD":
            del env[key]
    env.update(ENV)
    if ASAN:  # the MPI libraries never free some of their memory
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    # Only the program gets the library, not the launcher.
    first = [ASAN] if ASAN and preload is not None else []
    libraries = first + ([LIB] if preload else [])
    program = ["env", "LD_PRELOAD=" + " ".join(libraries)] if libraries else []
    # Every reference of libhooktrace's resolved at load time: the weak
    # ones to the MPI it was not built for must not fail there.
    if preload is not None:
        program = (program or ["env"]) + ["LD_BIND_NOW=1"]
    try:
        proc = subprocess.run(LAUNCH + ["-n", str(RANKS)] + program + [os.path.join(work, exe)],
                              cwd=d, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=TIMEOUT)
        return d, proc.stdout, proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as e:
        return d, e.stdout or "", (e.stderr or "") + "\n(timed out)", None


def hooktrace_lines(stderr):
    return [line for line in stderr.splitlines() if line.startswith("hooktrace")]


def check_run(exe, what, expected, preload=True, plain=None):
    """plain: the program without hooktrace (exe itself, preload off);
    preload False: exe is linked with libhooktrace."""
    _, out0, err0, rc0 = launch(plain or exe, None)
    check_eq(rc0, 3, "%s: the plain run's exit status (stderr: %s)" % (what, err0[-300:]))
    check_eq(len(out0.splitlines()), RANKS, "%s: the plain run's lines" % what)
    d, out, err, rc = launch(exe, preload)
    tail = err[-1500:]
    check_eq(rc, rc0, "%s: exit status as the plain run's (stderr: %s)" % (what, tail))
    check_eq(sorted(out.splitlines()), sorted(out0.splitlines()), "%s: stdout as the plain run's" % what)
    lines = hooktrace_lines(err)
    check_eq(len(lines), 1, "%s: one line of hooktrace's on stderr (%r)" % (what, lines))
    if lines:
        check(OURS in lines[0] and THEIRS in lines[0], "%s: the line names %s and %s: %r"
              % (what, OURS, THEIRS, lines[0]))
        check("mpi calls are not recorded" in lines[0].lower(), "%s: the line says MPI is off" % what)
    base = os.path.basename(exe)
    check_eq(sorted(os.listdir(d)), sorted("%s_%d.%s" % (base, r, ext) for r in range(RANKS)
                                           for ext in ("folded", "html", "json", "log")),
             "%s: each process's files, by its launcher's rank" % what)
    for r in range(RANKS):
        path = os.path.join(d, "%s_%d.json" % (base, r))
        if not os.path.exists(path):
            continue
        with open(path) as f:
            doc = json.load(f)
        check("mpi" not in doc and "mpi_t" not in doc, "%s: rank %d: no MPI section" % (what, r))
        why = doc.get("mpi_not_recorded", "")
        check(OURS in why and THEIRS in why, "%s: rank %d: mpi_not_recorded names both MPIs: %r"
              % (what, r, why))
        with open(os.path.join(d, "%s_%d.log" % (base, r))) as f:
            check("MPI:             not recorded: " + why in f.read().splitlines(),
                  "%s: rank %d: the logfile says why MPI is not recorded" % (what, r))
        profile = htlib.Profile(doc)
        check_eq(profile.paths(), set(expected), "%s: rank %d: the stacks, no MPI routine" % (what, r))
        for path, calls in expected.items():
            if profile.has(path):
                check_eq(profile.calls(path), calls, "%s: rank %d: calls of %s" % (what, r, path))


C_STACKS = {"main": 1, "main;compute": 3, "main;compute;square": 15, "main;exchange": 3}
F_STACKS = {"main": 1, "main;ring": 1, "main;ring;work::compute": 3,
            "main;ring;work::compute;work::square": 15}

ok, log = build(CC, "abi_mismatch.c", "abi_c")
check(ok, "%s builds abi_mismatch.c: %s" % (CC, log))
if ok:
    check_run("abi_c", "C, LD_PRELOAD", C_STACKS)

# Linked in: -lhooktrace before the MPI's own libraries, as `hooktrace
# mpicc` does.  A link-time check of the MPI may refuse it: then nothing
# runs.
ok, log = build(CC, "abi_mismatch.c", "abi_c_linked",
                ["-L" + os.path.dirname(LIB), "-Wl,-rpath," + os.path.dirname(LIB), "-lhooktrace"])
if ok:
    check_run("abi_c_linked", "C, linked", C_STACKS, preload=False, plain="abi_c")
else:
    print("note: linking -lhooktrace into a %s program was refused:\n%s" % (THEIRS, log))

if shutil.which(FC):
    for flavour, tag, define in (("mpif.h", "fh", []), ("use mpi", "mpi", ["-DUSE_MPI"]),
                                 ("use mpi_f08", "f08", ["-DUSE_MPI_F08"])):
        for linked, how, extra in (("as linked by %s" % FC, "as", []),
                                   ("C library linked", "c", ["-Wl,--no-as-needed", CLIB])):
            exe = "abi_%s_%s" % (tag, how)
            ok, log = build(FC, "abi_mismatch.F90", exe, define + extra)
            what = "Fortran %s, %s, LD_PRELOAD" % (flavour, linked)
            check(ok, "%s: %s builds abi_mismatch.F90: %s" % (what, FC, log))
            if ok:
                check_run(exe, what, F_STACKS)
else:
    print("note: no %s: the Fortran programs are not run" % FC)

if htlib._failed == 0:
    shutil.rmtree(work, ignore_errors=True)
else:
    print("programs and runs kept in %s" % work)
finish()
