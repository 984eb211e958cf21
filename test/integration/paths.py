"""Source paths as written on the compiler's command line ("../../src/x.c",
"./../../src/solver/../solver/solve.c", from a build directory two levels
down) are shown normalised: in the JSON as full paths (joined with the
compile directory, "..", "." and "//" resolved) with the directory they
share as "source_root"; in the logfile relative to that root, printed once
in the header (docs/symbols.md "File and line", docs/output.md)."""
import os
import shutil
import subprocess
import tempfile

from htlib import *

MAIN = """\
int solve(int n);

int main(void)
{
    int s = 0;
    for (int i = 0; i < 3; i++)
        s += solve(i);
    return s == 3 ? 0 : 1;
}
"""
SOLVE = """\
int solve(int n);

__attribute__((noinline)) int solve(int n)
{
    return n;
}
"""

project = os.path.realpath(tempfile.mkdtemp(prefix="hooktrace-paths-"))
os.makedirs(os.path.join(project, "src", "solver"))
obj = os.path.join(project, "build", "obj")
os.makedirs(obj)
with open(os.path.join(project, "src", "main.c"), "w") as f:
    f.write(MAIN)
with open(os.path.join(project, "src", "solver", "solve.c"), "w") as f:
    f.write(SOLVE)

cc = os.environ.get("HT_CC", "cc").split()
cflags = os.environ.get("HT_CC_CFLAGS", "").split()
ldflags = os.environ.get("HT_CC_LDFLAGS", "").split()
libdir = os.path.join(BUILDDIR, ".libs")
steps = [
    cc + cflags + ["-g", "-O0", "-finstrument-functions", "-c", "../../src/main.c", "-o", "main.o"],
    cc + cflags + ["-g", "-O0", "-finstrument-functions", "-c",
                   "./../../src/solver/../solver//solve.c", "-o", "solve.o"],
    cc + cflags + ldflags + ["main.o", "solve.o", "-L" + libdir, "-lhooktrace",
                             "-Wl,-rpath," + libdir, "-o", "../heat_paths"],
]
for cmd in steps:
    proc = subprocess.run(cmd, cwd=obj, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    check(proc.returncode == 0, "%s: %s" % (" ".join(cmd), proc.stdout))

r = run(os.path.join(project, "build", "heat_paths"))
check_eq(r.returncode, 0, "exit status")
p = r.profile()
expect_calls(p, {"main": 1, "main;solve": 3})
root = os.path.join(project, "src")
check_eq(p.doc.get("source_root"), root, "JSON source_root")
check_eq((p.stack("main")["file"], p.stack("main")["line"]), (os.path.join(root, "main.c"), 3),
         "JSON: main's full normalised path and line")
check_eq((p.stack("main;solve")["file"], p.stack("main;solve")["line"]),
         (os.path.join(root, "solver", "solve.c"), 3), "JSON: solve's full normalised path and line")

log = r.text(".log").splitlines()
check_eq([l for l in log if l.startswith("source root:")], ["source root:     " + root],
         "the log names the root once, in the header")
check_eq([l.split(": ", 1)[1] for l in log if l.startswith("       1: ")],
         ["main (main.c:3) > solve (solver/solve.c:3)"], "the log's stack list, relative to the root")
check(not any("/../" in l or "/./" in l for l in log), "no .. or . left in the log")
shutil.rmtree(project)
finish()
