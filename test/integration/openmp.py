"""OpenMP constructs as nodes (src/hooks/openmp.c, openmp_tasks.c): a
parallel region is a node under the function that contains its pragma on
the thread that met it, and the root of every other thread of the team;
tasks are nodes under their region on whichever thread ran them.  GCC does
not instrument the outlined functions itself, so without the wrappers a
worker's roots are whatever the region's body calls, and no region or task
has a node.  Scenarios of test/programs/openmp_regions.c, with fixed thread
counts (OMP_DYNAMIC=false) so that the figures per thread are exact."""
import os
import re
import subprocess
import sys

from htlib import *
import omplib
from omplib import calls_by_thread, per_thread, pragma_lines, roots

SOURCE = os.path.join(SRCDIR, "test", "programs", "openmp_regions.c")
EXE = program("openmp_regions")
# A build of the tests by clang (CI's clang stage) runs them under libomp,
# whose regions test/integration/clang_openmp.py covers.
if "[libomp" in subprocess.run(["readelf", "-d", EXE], stdout=subprocess.PIPE,
                               universal_newlines=True).stdout:
    print("SKIP: %s runs under libomp, not libgomp (built by clang)" % EXE)
    sys.exit(77)

# Line of each construct's pragma, marked "construct:NAME" in the source.
LINES = pragma_lines(SOURCE)


def omp_run(scenario, threads, **env):
    environment = {"OMP_NUM_THREADS": str(threads), "OMP_DYNAMIC": "false",
                   "OMP_WAIT_POLICY": "passive"}
    environment.update(env)
    r = run(EXE, [scenario], env=environment)
    check_eq(r.returncode, 0, "%s: exit status (stderr: %s)" % (scenario, r.stderr))
    return r


def construct(p, name):
    return omplib.construct(p, SOURCE, LINES, name, lambda f: "._omp_fn." in f)


def check_team(p, scenario, region, caller_path, threads):
    """The region node: once per region on every thread, under the caller
    on thread 0, the only root of every other thread."""
    workers = set(range(1, threads))
    check_eq(p.doc["threads"], threads, "%s: threads recorded" % scenario)
    check_eq(per_thread(p, caller_path + ";" + region), {0: 1}, "%s: %s under %s on thread 0" % (scenario, region, caller_path))
    check_eq(per_thread(p, region), {w: 1 for w in workers}, "%s: %s the root of every worker" % (scenario, region))
    check_eq(roots(p), {0: {"main"}, **{w: {region} for w in workers}},
             "%s: roots per thread (no unrelated roots)" % scenario)
    check_eq(p.doc["mismatched_exits"], 0, "%s: no exit out of step" % scenario)


# 1. A parallel region, three times: work(10) once per thread per region.
for T in (2, 4):
    r = omp_run("parallel", T)
    check_eq(r.stdout, "parallel: sink %d\n" % (3 * T * 45), "parallel/%d: output" % T)
    p = r.profile()
    R = construct(p, "parallel")
    check_eq(R, "run_parallel._omp_fn.0", "parallel: the region's name")
    workers = range(1, T)
    check_eq(per_thread(p, "main;run_parallel;" + R), {0: 3}, "parallel/%d: region under its caller on thread 0" % T)
    check_eq(per_thread(p, "main;run_parallel;%s;work;leaf" % R), {0: 30}, "parallel/%d: thread 0's calls in the region" % T)
    check_eq(per_thread(p, R), {w: 3 for w in workers}, "parallel/%d: the region is each worker's root, 3 calls" % T)
    check_eq(per_thread(p, R + ";work"), {w: 3 for w in workers}, "parallel/%d: work under it on each worker" % T)
    check_eq(per_thread(p, R + ";work;leaf"), {w: 30 for w in workers}, "parallel/%d: leaf on each worker" % T)
    check_eq(roots(p), {0: {"main"}, **{w: {R} for w in workers}}, "parallel/%d: roots per thread" % T)
    check_eq(p.doc["threads"], T, "parallel/%d: threads" % T)
    check_eq(p.doc["mismatched_exits"], 0, "parallel/%d: no exit out of step" % T)
    times = {t["thread"]: t["time_incl_s"] for t in p.stack(R)["threads"]} if p.has(R) else {}
    check(all(times.get(w, 0) > 0 for w in workers), "parallel/%d: the workers' time in the region: %r" % (T, times))
    check(re.search(r"\n *\d+: main \([^)]*\) > run_parallel \([^)]*\) > %s \((?:[^)]*/)?openmp_regions\.c:%d\)\n"
                    % (re.escape(R), LINES["parallel"]), r.text(".log")),
          "parallel/%d: the logfile names the region with its pragma's file:line" % T)

# 2. A parallel for with a static schedule: 1000 / T iterations per thread.
for T in (2, 4):
    r = omp_run("for", T)
    check_eq(r.stdout, "for: sink 499500\n", "for/%d: output" % T)
    p = r.profile()
    R = construct(p, "for")
    check_team(p, "for/%d" % T, R, "main;run_for", T)
    check_eq(per_thread(p, "main;run_for;%s;leaf" % R), {0: 1000 // T}, "for/%d: thread 0's iterations" % T)
    check_eq(per_thread(p, R + ";leaf"), {w: 1000 // T for w in range(1, T)}, "for/%d: each worker's iterations" % T)

# 3. The combined GOMP_parallel_loop_* entry points (dynamic, guided,
# runtime): every thread enters each region once, the 1000 iterations of
# each all sit under its node.
T = 4
r = omp_run("loops", T)
check_eq(r.stdout, "loops: sink 1498500\n", "loops: output")
p = r.profile()
regions = [construct(p, name) for name in ("dynamic", "guided", "runtime")]
check_eq(p.doc["threads"], T, "loops: threads")
check_eq(roots(p), {0: {"main"}, **{w: set(regions) for w in range(1, T)}}, "loops: roots per thread")
for R in regions:
    check_eq(per_thread(p, "main;run_loops;" + R), {0: 1}, "loops: %s under run_loops on thread 0" % R)
    check_eq(per_thread(p, R), {w: 1 for w in range(1, T)}, "loops: %s on each worker" % R)
    check_eq(sum(calls_by_thread(p, "leaf", R).values()), 1000, "loops: %s's iterations under it" % R)
check_eq(sum(calls_by_thread(p, "leaf").values()), 3000, "loops: no iteration elsewhere")

# 4. Parallel sections: three sections over the team.
r = omp_run("sections", T)
check_eq(r.stdout, "sections: sink 6\n", "sections: output")
p = r.profile()
R = construct(p, "sections")
check_team(p, "sections", R, "main;run_sections", T)
check_eq(sum(calls_by_thread(p, "leaf", R).values()), 3, "sections: the sections' calls under the region")

# 5. Nested regions, 2 x 2 threads: the inner region's node is under the
# outer one's on both threads of the outer team, and the root of the two
# threads the inner teams added.
r = omp_run("nested", 4, OMP_MAX_ACTIVE_LEVELS="2")
check_eq(r.stdout, "nested: sink 24\n", "nested: output")
p = r.profile()
O, I = construct(p, "outer"), construct(p, "inner")
check_eq(p.doc["threads"], 4, "nested: threads (2 in the outer team, one more per inner team)")
check_eq(per_thread(p, "main;run_nested;" + O), {0: 1}, "nested: outer region on thread 0")
check_eq(per_thread(p, "main;run_nested;%s;work;leaf" % O), {0: 5}, "nested: outer body on thread 0")
check_eq(per_thread(p, "main;run_nested;%s;%s;inner_work" % (O, I)), {0: 1}, "nested: inner under outer on thread 0")
outer_worker = per_thread(p, O)
check_eq(list(outer_worker.values()), [1], "nested: outer region the root of one more thread")
check_eq(per_thread(p, "%s;%s;inner_work" % (O, I)), outer_worker, "nested: inner under outer on that thread")
check_eq(per_thread(p, "%s;work;leaf" % O), {w: 5 for w in outer_worker}, "nested: outer body there")
inner_workers = per_thread(p, I)
check_eq(sorted(inner_workers.values()), [1, 1], "nested: inner region the root of two threads")
check_eq(per_thread(p, I + ";inner_work;leaf"), inner_workers, "nested: inner body on those")
check_eq(set(outer_worker) | set(inner_workers), {1, 2, 3}, "nested: every other thread accounted for")
check_eq(roots(p), {0: {"main"}, **{w: {O} for w in outer_worker}, **{w: {I} for w in inner_workers}},
         "nested: roots per thread")

# 6. Tasks made in a single construct, run by any thread inside the region.
for T in (2, 4):
    r = omp_run("tasks", T)
    # 40 tasks (0..39), the VLA (0..15), the large array (0 + 4095), the
    # aligned struct (10 + 30), the detached task (5), GOMP_task called
    # directly (100 + 200, 1000 + 2000 + 7), one undeferred task per thread.
    check_eq(r.stdout, "tasks: misaligned 0\ntasks: sink %d\n" % (780 + 120 + 4095 + 40 + 5 + 300 + 3007 + T),
             "tasks/%d: output (the tasks' data arrived intact and aligned)" % T)
    p = r.profile()
    R = construct(p, "tasks")
    check_team(p, "tasks/%d" % T, R, "main;run_tasks", T)
    for name, callee, calls in (("task", "task_work", 40), ("cpyfn", "sum_ints", 1), ("big", "big_work", 1),
                                ("aligned", "aligned_work", 1), ("detach", "detached_work", 1)):
        K = construct(p, name)
        where = [s["path"][:-1] for s in p.doc["stacks"] if s["function"] == K]
        check(where and all(w in (["main", "run_tasks", R], [R]) for w in where),
              "tasks/%d: %s only directly under the region: %r" % (T, name, where))
        check_eq(sum(calls_by_thread(p, K).values()), calls, "tasks/%d: %s executions over all threads" % (T, name))
        check_eq(calls_by_thread(p, callee, K), calls_by_thread(p, K), "tasks/%d: %s's calls under its node" % (T, name))
    # GOMP_task called directly: the small block is wrapped, the one over
    # 16 KiB runs unwrapped (its body is not instrumented: no node).
    check_eq(sum(calls_by_thread(p, "raw_small_task", R).values()), 1, "tasks/%d: small raw task under the region" % T)
    check_eq(sum(calls_by_thread(p, "leaf", "raw_small_task").values()), 1, "tasks/%d: its call" % T)
    check_eq(sum(calls_by_thread(p, "raw_big_task").values()), 0, "tasks/%d: the large raw task is not a node" % T)
    check_eq(sum(calls_by_thread(p, "leaf", R).values()), 1, "tasks/%d: its call under the region" % T)
    U = construct(p, "undeferred")
    check_eq(per_thread(p, "main;run_tasks;%s;spawn_undeferred;%s;task_work" % (R, U)), {0: 1},
             "tasks/%d: an undeferred task under its creator on thread 0" % T)
    check_eq(per_thread(p, "%s;spawn_undeferred;%s;task_work" % (R, U)), {w: 1 for w in range(1, T)},
             "tasks/%d: and on each worker" % T)

# 7. Tasks the master makes while the others wait at the region's end:
# they run after the region's body returned, and are still under the
# region's node, whose calls stay one per thread.
T = 4
r = omp_run("late_tasks", T)
check_eq(r.stdout, "late_tasks: sink 780\n", "late_tasks: output")
p = r.profile()
R, K = construct(p, "late"), construct(p, "late_task")
check_team(p, "late_tasks", R, "main;run_late_tasks", T)
check_eq(sum(calls_by_thread(p, K).values()), 40, "late_tasks: task executions over all threads")
check_eq(calls_by_thread(p, K, R), calls_by_thread(p, K), "late_tasks: every task under the region's node")
check_eq(sum(calls_by_thread(p, "task_work", K).values()), 40, "late_tasks: their calls")

# 8. Taskloops: each task's iterations (its bounds, which libgomp writes
# into the task's data) under the taskloop's node, on whichever thread.
r = omp_run("taskloop", T)
check_eq(r.stdout, "taskloop reduction: 4950\ntaskloop: sink 404350\n", "taskloop: output")
p = r.profile()
R = construct(p, "taskloop_region")
check_team(p, "taskloop", R, "main;run_taskloop", T)
for name, tasks, per_task, callee in (("taskloop", 8, 100, "leaf"), ("taskloop_ull", 4, 100, "leaf"),
                                      ("taskloop_reduction", 5, 20, "value")):
    K = construct(p, name)
    ran = calls_by_thread(p, K, R)
    check_eq(sum(ran.values()), tasks, "%s: tasks over all threads, under the region" % name)
    check_eq(calls_by_thread(p, K), ran, "%s: nowhere else" % name)
    check_eq(calls_by_thread(p, callee, K), {t: per_task * n for t, n in ran.items()},
             "%s: %d iterations per task on each thread" % (name, per_task))

# 9. Host teams: libgomp runs the teams' function once per team.
r = omp_run("teams", T)
check_eq(r.stdout, "teams: sink 3\n", "teams: output")
p = r.profile()
R = construct(p, "teams")
check_eq(per_thread(p, "main;run_teams;" + R), {0: 3}, "teams: one call per team under the caller")
check_eq(per_thread(p, "main;run_teams;%s;leaf" % R), {0: 3}, "teams: their calls")

# 10. parallel reduction(task, ...): GOMP_parallel_reductions reads the
# program's data, which the wrapper must hand on.
r = omp_run("reductions", T)
check_eq(r.stdout, "parallel reduction: 28\nreductions: sink 28\n", "reductions: output")
p = r.profile()
R = construct(p, "reductions")
check_team(p, "reductions", R, "main;run_reductions", T)
tasks = [f for f in {s["function"] for s in p.doc["stacks"]} if f.startswith("run_reductions._omp_fn.") and f != R]
check_eq(len(tasks), 1, "reductions: one task function")
check_eq(sum(calls_by_thread(p, tasks[0], R).values()) if tasks else 0, 8, "reductions: 8 tasks under the region")

# 11. Nothing recorded: every construct runs untouched.
for scenario in ("tasks", "taskloop", "reductions", "nested"):
    r = omp_run(scenario, T, HOOKTRACE_OFF="1", OMP_MAX_ACTIVE_LEVELS="2")
    check(r.stdout.startswith({"tasks": "tasks: misaligned 0\n", "taskloop": "taskloop reduction: 4950\n",
                               "reductions": "parallel reduction: 28\n", "nested": "nested: sink 24"}[scenario]),
          "%s with HOOKTRACE_OFF: output %r" % (scenario, r.stdout))
    check(not r.exists(".json"), "%s with HOOKTRACE_OFF: no profile" % scenario)

# 12. Fortran (built where configure found gfortran): a module procedure's
# region is named after it, m::run._omp_fn.0, like its other functions.
if os.path.exists(program("openmp_fortran")):
    r = run(program("openmp_fortran"), env={"OMP_NUM_THREADS": "2", "OMP_DYNAMIC": "false"})
    check_eq((r.returncode, r.stdout), (0, "openmp_fortran: 5050\n"), "fortran: exit status and output")
    p = r.profile()
    R = "omp_names::run._omp_fn.0"
    check_eq(per_thread(p, "main;omp_fortran;omp_names::run;%s;omp_names::work" % R), {0: 50},
             "fortran: the master's half under the region, under run")
    check_eq(per_thread(p, R + ";omp_names::work"), {1: 50}, "fortran: the worker's half under its root region")
    check_eq(roots(p), {0: {"main"}, 1: {R}}, "fortran: roots per thread")

# 13. Trace mode: the region and task nodes are Enter/Leave events that
# nest on every thread.  In "parallel" every Enter is a call; in
# "late_tasks" a task run after its region's body returned enters the
# region again (an event, not a call).
if HAVE_OTF2:
    sys.path.insert(0, os.path.join(SRCDIR, "test", "trace"))
    from otf2lib import Trace, profile_calls_by_name  # noqa: E402

    for scenario in ("parallel", "late_tasks"):
        r = run(EXE, [scenario], config={"trace": {"enabled": True}},
                env={"OMP_NUM_THREADS": "4", "OMP_DYNAMIC": "false", "OMP_WAIT_POLICY": "passive"})
        check_eq(r.returncode, 0, "%s traced: exit status" % scenario)
        t = Trace(os.path.join(r.directory, "openmp_regions_trace", "traces.otf2"))
        check_eq(t.print_status, 0, "%s traced: otf2-print (stderr: %s)" % (scenario, t.print_stderr[-300:]))
        check_eq(len(t.locations()), 4, "%s traced: one location per thread" % scenario)
        t.check_nesting()
        p = r.profile()
        calls, enters = profile_calls_by_name(p), t.enters()
        if scenario == "parallel":
            check_eq(dict(enters), {k: v for k, v in calls.items() if v}, "parallel traced: Enter events = calls")
        else:
            R, K = construct(p, "late"), construct(p, "late_task")
            check_eq(enters[K], 40, "late_tasks traced: an Enter per task")
            check(calls[R] == 4 and 4 <= enters[R] <= 4 + 40,
                  "late_tasks traced: the region entered once per thread, and again per late task (%d calls, %d Enters)"
                  % (calls[R], enters[R]))
else:
    print("configure --without-otf2: the trace's checks skipped", file=sys.stderr)

finish()
