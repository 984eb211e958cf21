"""OpenMP under LLVM's runtime, libomp: test/programs/clang_openmp.c built
with `hooktrace clang -fopenmp` (docs/compile.md).  Clang instruments the
functions it outlines for a construct (.omp_outlined., .omp_outlined..N),
so, as with libgomp (test/integration/openmp.py), a parallel region is a
node under the function with its pragma on the thread that met it and the
root of every other thread of its team, once per region per thread, with
exact per-thread counts under it; a task's callees sit under the region
on whichever thread ran it; an inlined helper has no node.  At -O0 clang
adds one more level, .omp_outlined._debug__, the region's body.  Skipped
where there is no clang or no libomp (libomp-14-dev)."""
import os
import re
import shutil
import subprocess
import tempfile

from htlib import *
import omplib
from omplib import calls_by_thread, per_thread, pragma_lines, roots
from prefixlib import Prefix, sanitized, skip

if not shutil.which("clang"):
    skip("no clang on the PATH (Debian: apt-get install clang)")
if sanitized():
    skip("the library is built with sanitizers, whose GCC runtime a program clang builds without them cannot load")
work = tempfile.mkdtemp(prefix="hooktrace-clang-omp-")
probe = os.path.join(work, "probe.c")
with open(probe, "w") as f:
    f.write("#include <omp.h>\nint main(void) { return omp_get_max_threads() > 0 ? 0 : 1; }\n")
proc = subprocess.run(["clang", "-fopenmp", probe, "-o", probe + ".exe"], stdout=subprocess.PIPE,
                      stderr=subprocess.STDOUT, universal_newlines=True)
if proc.returncode != 0:
    shutil.rmtree(work, ignore_errors=True)
    skip("clang -fopenmp does not build a program: no libomp (Debian: apt-get install libomp-14-dev): "
         + proc.stdout.strip().splitlines()[-1])

prefix = Prefix()
SOURCE = os.path.join(SRCDIR, "test", "programs", "clang_openmp.c")
# Line of each construct's pragma, marked "construct:NAME" in the source.
LINES = pragma_lines(SOURCE)


def build(argv, exe, what):
    proc = prefix.compile(argv + ["-o", os.path.join(work, exe)])
    check_eq((proc.returncode, proc.stderr), (0, ""), "%s: builds" % what)
    return os.path.join(work, exe)


EXE = build(["hooktrace", "clang", "-O2", "-fopenmp", SOURCE], "omp_O2", "hooktrace clang -O2 -fopenmp")
PLAIN = build(["clang", "-O2", "-fopenmp", SOURCE], "omp_plain", "clang -O2 -fopenmp")
needed = subprocess.run(["readelf", "-d", EXE], stdout=subprocess.PIPE, universal_newlines=True).stdout
needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^]]+)\]", needed)
check(any(n.startswith("libomp") for n in needed) and not any(n.startswith("libgomp") for n in needed),
      "the program runs under libomp, not libgomp: %r" % needed)

ENV = {"OMP_DYNAMIC": "false", "OMP_WAIT_POLICY": "passive"}


def omp_run(exe, scenario, threads, **env):
    environment = dict(ENV, OMP_NUM_THREADS=str(threads), **env)
    r = run(exe, [scenario], env=environment)
    check_eq(r.returncode, 0, "%s: exit status (stderr: %s)" % (scenario, r.stderr))
    plain = subprocess.run([PLAIN, scenario], env=dict(os.environ, **environment), stdout=subprocess.PIPE,
                           universal_newlines=True)
    check_eq(r.stdout, plain.stdout, "%s/%d: output as without hooktrace" % (scenario, threads))
    return r


def construct(p, name):
    return omplib.construct(p, SOURCE, LINES, name, lambda f: f.startswith(".omp_outlined."))


def no_helper(p, what):
    check("bump" not in {s["function"] for s in p.doc["stacks"]}, "%s: the inlined helper has no node" % what)


# 1. Three parallel regions: the region once per region per thread, under
# run_parallel on thread 0, the only root of each worker.
for T in (2, 4):
    r = omp_run(EXE, "parallel", T)
    p = r.profile()
    R = construct(p, "parallel")
    workers = range(1, T)
    check_eq(p.doc["threads"], T, "parallel/%d: threads" % T)
    check_eq(per_thread(p, "main;run_parallel;" + R), {0: 3}, "parallel/%d: region under its caller on thread 0" % T)
    check_eq(per_thread(p, "main;run_parallel;%s;work;leaf" % R), {0: 30}, "parallel/%d: thread 0's calls in it" % T)
    check_eq(per_thread(p, R), {w: 3 for w in workers}, "parallel/%d: the region each worker's root, 3 calls" % T)
    check_eq(per_thread(p, R + ";work"), {w: 3 for w in workers}, "parallel/%d: work under it on each worker" % T)
    check_eq(per_thread(p, R + ";work;leaf"), {w: 30 for w in workers}, "parallel/%d: leaf on each worker" % T)
    check_eq(roots(p), {0: {"main"}, **{w: {R} for w in workers}}, "parallel/%d: roots per thread" % T)
    check_eq(p.doc["mismatched_exits"], 0, "parallel/%d: no exit out of step" % T)
    no_helper(p, "parallel/%d" % T)
    check(re.search(r"\n *\d+: main \([^)]*\) > run_parallel \([^)]*\) > %s \((?:[^)]*/)?clang_openmp\.c:%d\)\n"
                    % (re.escape(R), LINES["parallel"]), r.text(".log")),
          "parallel/%d: the logfile names the region with its pragma's file:line" % T)

# 2. A static schedule: 1000 / T iterations per thread, under the region.
for T in (2, 4):
    r = omp_run(EXE, "for", T)
    p = r.profile()
    R = construct(p, "for")
    check_eq(p.doc["threads"], T, "for/%d: threads" % T)
    check_eq(per_thread(p, "main;run_for;" + R), {0: 1}, "for/%d: region under run_for on thread 0" % T)
    check_eq(per_thread(p, "main;run_for;%s;leaf" % R), {0: 1000 // T}, "for/%d: thread 0's iterations" % T)
    check_eq(per_thread(p, R), {w: 1 for w in range(1, T)}, "for/%d: the region on each worker" % T)
    check_eq(per_thread(p, R + ";leaf"), {w: 1000 // T for w in range(1, T)}, "for/%d: each worker's iterations" % T)
    check_eq(roots(p), {0: {"main"}, **{w: {R} for w in range(1, T)}}, "for/%d: roots per thread" % T)

# 3. Nested regions, 2 x 2 threads: the inner region under the outer one
# on both threads of the outer team, the root of the threads the inner
# teams added: two, or one that libomp's pool gave to both inner teams in
# turn (a thread freed by the first inner team serves the second).
r = omp_run(EXE, "nested", 4, OMP_MAX_ACTIVE_LEVELS="2")
p = r.profile()
O, I = construct(p, "outer"), construct(p, "inner")
check_eq(per_thread(p, "main;run_nested;" + O), {0: 1}, "nested: outer region on thread 0")
check_eq(per_thread(p, "main;run_nested;%s;work;leaf" % O), {0: 5}, "nested: outer body on thread 0")
check_eq(per_thread(p, "main;run_nested;%s;%s;inner_work" % (O, I)), {0: 1}, "nested: inner under outer on thread 0")
outer_worker = per_thread(p, O)
check_eq(list(outer_worker.values()), [1], "nested: outer region the root of one more thread")
check_eq(per_thread(p, "%s;%s;inner_work" % (O, I)), outer_worker, "nested: inner under outer on that thread")
check_eq(per_thread(p, "%s;work;leaf" % O), {w: 5 for w in outer_worker}, "nested: outer body there")
inner_workers = per_thread(p, I)
check_eq(sum(inner_workers.values()), 2, "nested: inner region a root twice, once per inner team")
check_eq(per_thread(p, I + ";inner_work;leaf"), inner_workers, "nested: inner body on those")
check_eq(set(inner_workers) & (set(outer_worker) | {0}), set(), "nested: not on the outer team's threads")
check_eq(p.doc["threads"], 2 + len(inner_workers), "nested: threads (2 in the outer team, the inner teams' own)")
check_eq(set(outer_worker) | set(inner_workers), set(range(1, p.doc["threads"])),
         "nested: every other thread accounted for")
check_eq(roots(p), {0: {"main"}, **{w: {O} for w in outer_worker}, **{w: {I} for w in inner_workers}},
         "nested: roots per thread")

# 4. Tasks made in a single construct: each runs inside the region's body
# (before the single's barrier) on some thread; clang does not instrument
# its task entry, so the task's callee sits directly under the region.
for T in (2, 4):
    r = omp_run(EXE, "tasks", T)
    p = r.profile()
    R = construct(p, "tasks")
    check_eq(p.doc["threads"], T, "tasks/%d: threads" % T)
    check_eq(per_thread(p, "main;run_tasks;" + R), {0: 1}, "tasks/%d: region under run_tasks on thread 0" % T)
    check_eq(per_thread(p, R), {w: 1 for w in range(1, T)}, "tasks/%d: the region on each worker" % T)
    ran = calls_by_thread(p, "task_work")
    check_eq(sum(ran.values()), 40, "tasks/%d: 40 task bodies over all threads" % T)
    check_eq(calls_by_thread(p, "task_work", R), ran, "tasks/%d: every one under the region" % T)
    check_eq(calls_by_thread(p, "leaf", "task_work"), ran, "tasks/%d: their calls" % T)
    check_eq(roots(p), {0: {"main"}, **{w: {R} for w in range(1, T)}}, "tasks/%d: roots per thread" % T)

# 5. Nothing recorded: the same output, no profile.
r = omp_run(EXE, "nested", 4, HOOKTRACE_OFF="1", OMP_MAX_ACTIVE_LEVELS="2")
check(not r.exists(".json"), "nested with HOOKTRACE_OFF: no profile")

# 6. -O0: clang's region function calls the body it outlined, named
# .omp_outlined._debug__ (at the line after the pragma): one node more.
EXE0 = build(["hooktrace", "clang", "-O0", "-fopenmp", SOURCE], "omp_O0", "hooktrace clang -O0 -fopenmp")
T = 2
r = omp_run(EXE0, "parallel", T)
p = r.profile()
R = construct(p, "parallel")
bodies = sorted({s["function"] for s in p.doc["stacks"] if len(s["path"]) >= 2 and s["path"][-2] == R})
check_eq(len(bodies) == 1 and bodies[0].startswith(".omp_outlined._debug__"), True,
         "-O0: one body under the region: %r" % bodies)
B = bodies[0] if bodies else "?"
check_eq(per_thread(p, "main;run_parallel;%s;%s;work;leaf" % (R, B)), {0: 30}, "-O0: thread 0's calls")
check_eq(per_thread(p, "%s;%s;work;leaf" % (R, B)), {1: 30}, "-O0: the worker's calls")
check_eq(roots(p), {0: {"main"}, 1: {R}}, "-O0: roots per thread")

shutil.rmtree(work, ignore_errors=True)
finish()
