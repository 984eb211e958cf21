"""Regions from C++ (test/programs/regions_cxx.cpp, docs/regions.md): the
scope guard ends its region on every way out of the scope (its end, a
return, an exception), so each region has exactly its calls and the
functions inside it are below it; threads have their own regions; a region
entered 200,000 times around a few-ns function is never throttled (the
function inside it may be, by throttling's defaults); nothing on stderr."""
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
finish()
