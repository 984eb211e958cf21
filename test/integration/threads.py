"""Threads: per-thread figures and totals, pthreads and OpenMP."""
import subprocess

from htlib import *

r = run(program("threads"))
check_eq(r.returncode, 0, "exit status")
p = r.profile()
check_eq(p.doc["threads"], 5, "threads recorded")
# Worker threads start in worker(): it is a root there.
check_eq(p.calls("worker"), 4, "worker as thread root, 4 threads")
check_eq(p.calls("worker;tick"), 100 + 200 + 300 + 400, "ticks summed over the worker threads")
per_thread = p.thread_calls("worker;tick")
check_eq(sorted(per_thread.values()), [100, 200, 300, 400], "ticks per thread")
check(0 not in per_thread, "the main thread has no root worker")
check_eq(len(p.stack("worker")["threads"]), 4, "four threads ran worker as root")
check_eq(p.calls("main;worker;tick"), 10, "main thread's own ticks")
check_eq(p.thread_calls("main;worker;tick"), {0: 10}, "main;worker;tick on thread 0 only")
for s in p.doc["stacks"]:
    check_eq(sum(t["calls"] for t in s["threads"]), s["calls"],
             "per-thread calls add up for " + ";".join(s["path"]))
    check_close(sum(t["time_incl_s"] for t in s["threads"]), s["time_incl_s"],
                "per-thread times add up for " + ";".join(s["path"]))
log = r.text(".log")
check("Runtime profile, thread 4" in log, "a table per thread in the logfile")

r = run(program("openmp"), env={"OMP_NUM_THREADS": "2", "OMP_WAIT_POLICY": "passive"})
check_eq(r.returncode, 0, "openmp exit status")
check("openmp: 499500" in r.stdout, "openmp computes the same")
p = r.profile()
kernel_calls = sum(s["calls"] for s in p.doc["stacks"] if s["path"][-1] == "kernel")
check_eq(kernel_calls, 1000, "kernel calls over both OpenMP threads")
threads_with_kernel = set()
for s in p.doc["stacks"]:
    if s["path"][-1] == "kernel":
        threads_with_kernel |= {t["thread"] for t in s["threads"]}
check_eq(len(threads_with_kernel), 2, "kernel ran on two threads")
# The loop's outlined function (GCC leaves it uninstrumented) is a node
# through libhooktrace's GOMP_parallel: under main on the master, the root
# of the worker (test/integration/openmp.py has the rest).  Built by clang
# (under libomp), clang's own .omp_outlined. is that node, and under plain
# -finstrument-functions (hooks placed before inlining) so is the body it
# outlines from it with -g, .omp_outlined._debug__ (docs/compile.md).
needed = subprocess.run(["readelf", "-d", program("openmp")], stdout=subprocess.PIPE,
                        universal_newlines=True).stdout
region = ".omp_outlined.;.omp_outlined._debug__" if "[libomp" in needed else "main._omp_fn.0"
check_eq(p.thread_calls("main;%s;kernel" % region), {0: 500}, "the master's half under main's region")
check_eq(p.thread_calls("%s;kernel" % region), {1: 500}, "the worker's half under its root region")
# A thread still running when the process exits.
for attempt in range(3):
    r = run(program("late_thread"))
    check_eq(r.returncode, 0, "late_thread exit status (run %d)" % attempt)
    check("late_thread: returning" in r.stdout, "late_thread output")
    p = r.profile()
    check(p.calls("spinner") == 1, "the running thread's root is recorded")
    # main returns once spin ran 100,000 times; throttling stops counting
    # the tiny spin at its 1,001st call (min_calls 1,000, the default).
    check_eq(p.calls("spinner;spin"), 1001, "its calls up to its throttling are counted")
    check(p.calls("spinner;spin") == p.stack("spinner;spin")["threads"][0]["calls"],
          "totals equal the one thread's figures")
finish()
