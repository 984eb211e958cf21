"""The link-order trap (docs/troubleshooting.md): a program compiled with
-finstrument-functions whose hooks bind to glibc's empty ones although
libhooktrace is loaded gets ONE warning on stderr naming the fix, and the
same program under LD_PRELOAD (libhooktrace first in the lookup order) is
profiled with exact counts and no warning.  An uninstrumented program
under LD_PRELOAD (MPI-only mode) gets no warning."""
import os
import re
import subprocess

from htlib import *

LIBRARY = os.path.join(BUILDDIR, ".libs", "libhooktrace.so")


def preload(exe):
    """LD_PRELOAD for exe: libhooktrace, after the AddressSanitizer runtime
    when exe has one (CI's sanitizer build: it must come first)."""
    out = subprocess.run(["ldd", exe], stdout=subprocess.PIPE, universal_newlines=True).stdout
    asan = re.search(r"libasan\.so\S* => (\S+)", out)
    return {"LD_PRELOAD": (asan.group(1) + " " if asan else "") + LIBRARY}


def instrumented(exe):
    """Whether exe calls the hooks (CI's second build compiles every
    program with -finstrument-functions, the plain ones too)."""
    out = subprocess.run(["nm", "-D", "--undefined-only", exe], stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    return "__cyg_profile_func_enter" in out

WARNING = "hooktrace: warning: this program was compiled with -finstrument-functions"
EXPECTED = {"main;work": 3, "main;work;compute": 3, "main;work;compute;leaf": 300,
            "main;work;leaf": 3, "main;compute": 1, "main;compute;leaf": 1000, "main;nap": 1}


def warnings(r):
    return sum(1 for line in r.stderr.splitlines() if line.startswith("hooktrace: warning:"))


# libc before libhooktrace: nothing recorded, one warning with the fix.
r = run(program("basic_hooks_elsewhere"))
check_eq(r.returncode, 0, "exit status, hooks elsewhere")
check("basic: sink=257173.5" in r.stdout, "the program's output is unchanged")
check_eq(warnings(r), 1, "warnings, hooks elsewhere")
check(WARNING in r.stderr, "the warning says why: %r" % r.stderr)
check("libc.so" in r.stderr, "the warning names where the hooks bind: %r" % r.stderr)
check("hooktrace mpicc" in r.stderr and "pkg-config --libs hooktrace" in r.stderr,
      "the warning names the fix: %r" % r.stderr)
check_eq(len(r.profile().doc["stacks"]), 0, "stacks recorded with the hooks elsewhere")

# The same binary with libhooktrace preloaded: ours bind, exact counts.
r = run(program("basic_hooks_elsewhere"), env=preload(program("basic_hooks_elsewhere")))
check_eq(r.returncode, 0, "exit status, preloaded")
check_eq(warnings(r), 0, "warnings, instrumented and preloaded")
p = r.profile()
expect_calls(p, EXPECTED)

# MPI-only mode: an uninstrumented program, preloaded: no warning, no
# stacks (or, in the build that instruments it, its full profile).
r = run(program("basic_plain"), env=preload(program("basic_plain")))
check_eq(r.returncode, 0, "exit status, plain and preloaded")
check_eq(warnings(r), 0, "warnings, plain and preloaded")
if instrumented(program("basic_plain")):
    expect_calls(r.profile(), EXPECTED)
else:
    check_eq(len(r.profile().doc["stacks"]), 0, "stacks of an uninstrumented program")

# Linked the right way: no warning.
r = run(program("basic"))
check_eq(warnings(r), 0, "warnings, linked after the objects")
check_eq(r.profile().calls("main;work;compute;leaf"), 300, "calls of main;work;compute;leaf")

finish()
