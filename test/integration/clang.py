"""Clang through the `hooktrace` command (docs/compile.md): `hooktrace
clang` and `hooktrace clang-14` (C) and hooktrace-clang++ (C++, the
one-word command) at -O2 compile with -finstrument-functions-after-
inlining, so the helpers clang inlines have no node and the functions it
keeps out of line have exact call counts; the output is the plain build's.
The control, the same C file with plain -finstrument-functions, shows the
inlined helpers' hooks that the option leaves out.  A --exclude-* option,
which clang lacks, is a clear error.  Skipped where there is no clang."""
import os
import shutil
import subprocess
import tempfile

from htlib import *
from prefixlib import Prefix, sanitized, skip

if not shutil.which("clang") or not shutil.which("clang++"):
    skip("no clang and clang++ on the PATH (Debian: apt-get install clang)")
if sanitized():
    skip("the library is built with sanitizers, whose GCC runtime a program clang builds without them cannot load")

prefix = Prefix()
work = tempfile.mkdtemp(prefix="hooktrace-clang-")
C_SOURCE = os.path.join(SRCDIR, "test", "programs", "clang_inline.c")
CXX_SOURCE = os.path.join(SRCDIR, "test", "programs", "clang_inline.cpp")


def build(argv, exe, what):
    proc = prefix.compile(argv + ["-o", os.path.join(work, exe)])
    check_eq((proc.returncode, proc.stderr), (0, ""), "%s: builds" % what)
    return os.path.join(work, exe)


def functions(p):
    return {s["function"] for s in p.doc["stacks"]}


def descend_paths():
    """descend, called 8 times from main, 10 levels below itself."""
    return {"main" + ";descend" * depth: 8 for depth in range(1, 12)}


C_EXPECTED = {"main": 1, "main;accumulate": 5, "main;twice": 3, **descend_paths()}

plain = build(["clang", "-O2", "-g", C_SOURCE], "c_plain", "C plain")
reference = subprocess.run([plain], stdout=subprocess.PIPE, universal_newlines=True).stdout
check_eq(reference, "clang_inline: 3539598 440\n", "C plain: output")

# 1. hooktrace clang, and clang-14 by its own name where it is installed.
compilers = ["clang"] + (["clang-14"] if shutil.which("clang-14") else [])
for cc in compilers:
    exe = build(["hooktrace", cc, "-O2", C_SOURCE], "c_" + cc.replace("-", "_"), "hooktrace " + cc)
    r = run(exe)
    check_eq((r.returncode, r.stdout, r.stderr), (0, reference, ""), "hooktrace %s: exit status and output" % cc)
    p = r.profile()
    expect_calls(p, C_EXPECTED)
    check_eq(functions(p), {"main", "accumulate", "descend", "twice"},
             "hooktrace %s: the inlined helpers (square, add_squares) have no node" % cc)
    check_eq(p.paths(), set(C_EXPECTED), "hooktrace %s: no other stack" % cc)
    check_eq(p.doc["throttle"]["plugin_used"], False, "hooktrace %s: no GCC plugin" % cc)
    check_eq(p.stack("main;accumulate")["line"], 21, "hooktrace %s: -g added (file:line)" % cc)

# 2. The control: plain -finstrument-functions keeps the hooks of the
# inlined copies, so the helpers are nodes with every inlined call.
exe = build(["clang", "-O2", "-g", "-finstrument-functions", C_SOURCE, "-I" + os.path.join(SRCDIR, "include"),
             "-L" + os.path.join(BUILDDIR, ".libs"), "-Wl,-rpath," + os.path.join(BUILDDIR, ".libs"),
             "-lhooktrace"], "c_control", "control")
r = run(exe)
check_eq(r.returncode, 0, "control: exit status")
p = r.profile()
# 100 + ... + 104 from accumulate, 3 from twice.
check_eq(sum(s["calls"] for s in p.doc["stacks"] if s["function"] == "add_squares"), 510 + 3,
         "control: add_squares' inlined copies keep their hooks")
check(p.has("main;accumulate;add_squares;square"), "control: square under them")

# 3. C++ through the one-word command hooktrace-clang++ (installed where
# configure found clang++).
check(prefix.command("clang++") is not None, "hooktrace-clang++ made by configure (bin: %s)" % os.listdir(prefix.bin))
cxx = prefix.command("clang++") or "clang++"
argv = [cxx] if prefix.command("clang++") else ["hooktrace", "clang++"]
cxx_plain = build(["clang++", "-O2", "-g", CXX_SOURCE], "cxx_plain", "C++ plain")
cxx_reference = subprocess.run([cxx_plain], stdout=subprocess.PIPE, universal_newlines=True).stdout
check_eq(cxx_reference, "clang_inline_cxx: 1212\n", "C++ plain: output")
exe = build(argv + ["-O2", CXX_SOURCE], "cxx", "hooktrace-clang++")
r = run(exe)
check_eq((r.returncode, r.stdout, r.stderr), (0, cxx_reference, ""), "hooktrace-clang++: exit status and output")
p = r.profile()
T = "main;geo::total_area(geo::Shape* const*, int)"
CXX_EXPECTED = {"main": 1, T: 4, T + ";geo::Square::area() const": 16, T + ";geo::Circle::area() const": 24}
expect_calls(p, CXX_EXPECTED)
check_eq(p.paths(), set(CXX_EXPECTED),
         "hooktrace-clang++: no other stack (scale(), clamp_sum, constructors and destructors inlined)")

# 4. The exclude options are GCC's: a clear error, no compile.
proc = prefix.compile(["hooktrace", "--exclude-function=twice", "clang", "-c", C_SOURCE, "-o",
                       os.path.join(work, "x.o")])
check_eq(proc.returncode, 2, "--exclude-function with clang: exit status")
check("has no -finstrument-functions-exclude-*-list" in proc.stderr and
      "no_instrument_function" in proc.stderr, "--exclude-function with clang: says why: %r" % proc.stderr)
check(not os.path.exists(os.path.join(work, "x.o")), "--exclude-function with clang: nothing compiled")

shutil.rmtree(work, ignore_errors=True)
finish()
