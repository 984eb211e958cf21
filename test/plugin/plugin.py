"""hooktrace's GCC plugin (src/plugin, docs/plugin.md) on a C++ MPI program
in the shape of an application (test/plugin/tiny.cpp, 2 ranks) and a
Fortran one (tiny_module.f90, serial).

With the plugin at its default limit, the accessors, inline helpers and
std::vector internals that are too small to measure never reach a hook: they
appear in no stack, the JSON's "uninstrumented" object names them, and every
function that is kept (loops, longer bodies, tiny functions that call MPI,
main) keeps its exact call count and its messages.  The control build
(max-statements=0 inlined-hooks=keep) keeps every hook, so the same functions show up with
their exact counts and nothing is listed as uninstrumented.  At -O0, where
GCC inlines nothing, the plugin removes nothing either (docs/plugin.md):
tiny.cpp compiled as at -O0 (tiny_O0.cpp: #pragma GCC optimize("O0"))
records every tiny call, as the control does.  Bad plugin arguments stop the compiler with a message that names
them."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mpi"))
from mpilib import *  # noqa: E402,F401
import htlib  # noqa: E402

require_launcher()
N = 2
ROUNDS, ELEMENTS, POLYNOMIALS = 3, 100, 5
PROGRAM = lambda name: os.path.join(BUILDDIR, "test", "plugin", name)  # noqa: E731

SUM = "main;sum_grid(Grid&)"
SEND = "main;send_one(double, int)"
RECV = "main;receive_one(int)"
KEPT = {"main": 1, SUM: ROUNDS, "main;polynomial(double, double)": POLYNOMIALS}
# The program's own tiny functions, as the profile names them.
TINY = ["Grid::at(int)", "Grid::size() const", "twice(double)", "plus_one"]
TINY_CALLS = {SUM + ";Grid::at(int)": ROUNDS * ELEMENTS,
              SUM + ";twice(double)": ROUNDS * ELEMENTS,
              SUM + ";Grid::size() const": ROUNDS * (ELEMENTS + 1),
              SUM + ";plus_one": ROUNDS}

m = Messages()
m.p2p(0, 1, DOUBLE, SEND + ";MPI_Send", RECV + ";MPI_Recv", times=ROUNDS)

reference = mpirun(PROGRAM("tiny_plain"), N)
check_status(reference, 0, "tiny_plain")


def launch(name):
    r = mpirun(PROGRAM(name), N, config={"mpi": {"rank_files": [0, 1]}})
    check_status(r, 0, name)
    expect_same_stdout(r, reference, name)
    p = r.summary()
    expect_messages(p, m, N, name)
    for k in range(N):
        expect_rank_file(r.rank_profile(k), m, k, N, name)
    for path, calls in KEPT.items():
        check_eq(p.calls(path), N * calls, "%s: calls of %s (both ranks)" % (name, path))
    check_eq(r.rank_profile(0).calls(SEND), ROUNDS, "%s: rank 0: calls of %s" % (name, SEND))
    check_eq(r.rank_profile(1).calls(RECV), ROUNDS, "%s: rank 1: calls of %s" % (name, RECV))
    return r, p


NOTHING_LEFT_OUT = {"functions": 0, "names": [], "inlined": {"functions": 0, "sites": 0, "names": []}}


def names(p):
    return {f["name"] for f in p.doc["functions"]}


# 1. The default limit: the tiny functions are gone, and listed.
r, p = launch("tiny")
functions = names(p)
for name in TINY:
    check(name not in functions, "tiny: %s reached no hook (functions: %s)" % (name, sorted(functions)))
check(not any("operator[]" in f for f in functions),
      "tiny: no vector::operator[] in the profile: %s" % sorted(functions))
listed = p.doc.get("uninstrumented", {})
listed_names = listed.get("names", [])
check_eq(listed.get("functions"), len(listed_names), "tiny: uninstrumented.functions counts the names")
check_eq(listed_names, sorted(set(listed_names)), "tiny: uninstrumented names sorted, each once")
for name in TINY:
    check(name in listed_names, "tiny: %s listed as uninstrumented: %s" % (name, listed_names))
for name in ("main", "sum_grid(Grid&)", "polynomial(double, double)", "send_one(double, int)",
             "receive_one(int)"):
    check(name not in listed_names, "tiny: %s is not listed as uninstrumented" % name)
    check(name in functions, "tiny: %s is in the profile" % name)
check(any(n.startswith("std::vector<double, std::allocator<double> >::operator[]") for n in listed_names),
      "tiny: vector::operator[] listed as uninstrumented")
# Hook calls and the calls counted in inlined copies (the hand-over, which
# a build such as the sanitizer's -O1 gives some copies) make the stacks.
def recorded_calls(p):
    return p.doc["overhead"]["calls"] + p.doc["overhead"].get("inlined_calls", 0)


recorded = recorded_calls(p)
inlined_names = {f["name"] for f in listed["inlined"]["names"]}
kept_of_inlined = sum(s["calls"] for s in p.doc["stacks"] if s["function"] in inlined_names)
check_eq(recorded, sum(s["calls"] for s in p.doc["stacks"]), "tiny: calls recorded = calls of the stacks")
log = r.text(".log")
check("uninstrumented:  %d tiny functions left out at compile time by the GCC plugin" % len(listed_names)
      in log, "tiny: the logfile says how many functions were left out:\n" + log[:1500])

# 2. The control: every hook kept, every tiny call counted, nothing listed.
r, p = launch("tiny_all")
for path, calls in TINY_CALLS.items():
    check_eq(p.calls(path), N * calls, "tiny_all: calls of %s (both ranks)" % path)
check_eq(p.doc.get("uninstrumented"), NOTHING_LEFT_OUT, "tiny_all: nothing uninstrumented")
# What the control records beyond the default build is exactly the calls of
# the functions the default build listed as uninstrumented, and those of the
# inlined copies whose hooks it removed: the calls of the functions it
# names as inlined, less their out-of-line calls, which it kept (the two
# builds inline the same: the plugin's second rule runs after inlining).
left_out = sum(s["calls"] for s in p.doc["stacks"] if s["function"] in listed_names)
left_out += sum(s["calls"] for s in p.doc["stacks"] if s["function"] in inlined_names)
left_out -= kept_of_inlined
check_eq(recorded_calls(p) - recorded, left_out,
         "tiny_all: extra calls recorded = calls of the functions tiny left out")
check(left_out >= N * sum(TINY_CALLS.values()), "tiny_all: the left-out calls include the program's own")
check("uninstrumented:" not in r.text(".log"), "tiny_all: no uninstrumented line in the logfile")

# 2b. -O0: the plugin leaves every hook, like the control.
r, p = launch("tiny_O0")
for path, calls in TINY_CALLS.items():
    check_eq(p.calls(path), N * calls, "tiny_O0: calls of %s (both ranks)" % path)
check_eq(p.doc.get("uninstrumented"), NOTHING_LEFT_OUT, "tiny_O0: nothing uninstrumented")
check("uninstrumented:" not in r.text(".log"), "tiny_O0: no uninstrumented line in the logfile")
check(any("operator[]" in f for f in names(p)), "tiny_O0: vector::operator[] is in the profile")

# 3. Fortran: a module function and an external function left out, the
# subroutine with the loop kept.
fortran = PROGRAM("tiny_module")
if os.path.exists(fortran):
    r = htlib.run(fortran)
    check_eq(r.returncode, 0, "tiny_module: exit status")
    check_eq(r.stdout.strip(), "192.5", "tiny_module: output")
    p = r.profile()
    check_eq(p.calls("main;tiny_module;grid::sum_squares"), 4, "tiny_module: calls of grid::sum_squares")
    functions = names(p)
    listed_names = p.doc["uninstrumented"]["names"]
    for name in ("grid::square", "halve"):
        check(name not in functions, "tiny_module: %s reached no hook: %s" % (name, sorted(functions)))
        check(name in listed_names, "tiny_module: %s listed: %s" % (name, listed_names))
    # sum_squares(10, s): its loop of 10 trips, known once inlined, makes
    # it a leaf copy (unrolled), counted; out of line it records its calls.
    counted = 4 if p.stack("main;tiny_module;grid::sum_squares").get("inlined") else 0
    check_eq((p.doc["overhead"]["calls"], p.doc["overhead"]["inlined_calls"]), (6 - counted, counted),
             "tiny_module: hook calls recorded (main, the program, 4 sum_squares, unless counted), counted")

# 4. Bad arguments stop the compiler and say why.
plugin = os.path.join(BUILDDIR, "hooktrace_gcc.so")
source = os.path.join(tempfile.mkdtemp(prefix="hooktrace-plugin-"), "empty.c")
with open(source, "w") as f:
    f.write("int f(void) { return 1; }\n")
cxx = os.environ.get("HT_CXX", "g++").split()
for arg, message in (("max-statements=many", "max-statements takes a whole number from 0 to 100000, not 'many'"),
                     ("max-statements=-1", "max-statements takes a whole number from 0 to 100000, not '-1'"),
                     ("inlined-hooks=some", "inlined-hooks takes leaf, keep-loops, remove or keep, not 'some'"),
                     ("inlined-hooks", "inlined-hooks takes leaf, keep-loops, remove or keep, not ''"),
                     ("colour=blue", "unknown argument 'colour' (known: max-statements=N, "
                                     "inlined-hooks=leaf|keep-loops|remove|keep, exclude-file=PATH, verbose)")):
    proc = subprocess.run(cxx + ["-x", "c", "-finstrument-functions", "-fplugin=" + plugin,
                                 "-fplugin-arg-hooktrace_gcc-" + arg, "-c", source, "-o", os.devnull],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    check(proc.returncode != 0, "-fplugin-arg-hooktrace_gcc-%s: the compiler fails" % arg)
    check("hooktrace plugin: " + message in proc.stderr.replace("\u2018", "'").replace("\u2019", "'"),
          "-fplugin-arg-hooktrace_gcc-%s: the message names it: %r" % (arg, proc.stderr))
os.remove(source)
os.rmdir(os.path.dirname(source))

finish()
