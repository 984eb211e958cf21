"""Regions from C++ (test/programs/regions_cxx.cpp, docs/regions.md): the
scope guard ends its region on every way out of the scope (its end, a
return, an exception), so each region has exactly its calls and the
functions inside it are below it; threads have their own regions; a region
entered 200,000 times around a few-ns function is never throttled (the
function inside it may be, by throttling's defaults); nothing on stderr.
With named phases (hooktrace_phase from C++): threads started in a phase
record below it, and each phase has exactly its calls."""
from htlib import *

r = run(program("regions_cxx"), [])
check_eq(r.returncode, 0, "regions_cxx: exit status (stderr: %s)" % r.stderr)
check_eq(r.stdout, "regions_cxx: returned 3 thrown 3\n", "regions_cxx: its output")
check_eq(r.stderr, "", "regions_cxx: nothing on stderr")
p = r.profile()
if p is not None:
    check_eq(p.calls("main;guarded;guarded"), 9, "calls of the guarded region")
    check_eq(p.calls("main;guarded;guarded;work"), 9 + 3, "work inside the guarded region")
    check("main;guarded;work" not in p.by_path, "no work outside the region")
    check_eq(p.calls("worker;worker_region"), 15, "worker_region over both threads")
    check_eq(p.calls("worker;worker_region;work"), 15, "work inside worker_region")
    check_eq(p.calls("main;often;tiny"), 200000, "tiny: every call counted, never throttled")
    check("main;often;work" not in p.by_path, "no work outside tiny")

r = run(program("regions_cxx"), ["phases"])
check_eq(r.returncode, 0, "regions_cxx phases: exit status (stderr: %s)" % r.stderr)
check_eq(r.stdout, "regions_cxx: returned 3 thrown 3\n", "regions_cxx phases: its output")
p = r.profile()
if p is not None:
    check_eq(p.calls("main;guarded;guarded"), 9, "phases: the guarded region before the phases")
    check_eq(p.calls("phase:threads"), 3, "phases: threads begun once per thread: main, 2 workers")
    check_eq(p.calls("phase:threads;worker;worker_region"), 15,
             "phases: the threads started in the phase record below it")
    check("worker;worker_region" not in p.by_path, "phases: no worker outside its phase")
    check_eq(p.calls("phase:tail;main;often;tiny"), 200000, "phases: tiny in the tail phase")
    check_eq(p.calls("phase:tail"), 1, "phases: tail begun on the main thread alone (the workers ended)")
    check_eq(p.calls("phase:tail;main"), 0, "phases: main, open at the switch, no call in tail")
    check_eq(p.calls("main"), 1, "phases: main counted once, before the phases")
finish()
