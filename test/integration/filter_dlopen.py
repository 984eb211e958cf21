#!/usr/bin/env python3
"""Excluded functions of a library loaded with dlopen after start-up cost
what a throttled function costs (docs/filter.md): the library is read for
them as its first function is about to be recorded, here inside dlopen
itself (its constructor calls the helper 1000 times), before the helper's
first call.  test/programs/filter_dlopen_main.c loads
libfilterdl.so, whose fd_sweep calls fd_helper N times and fd_kept 10
times, and closes it again, CYCLES times.  Excluded, fd_helper leaves no
stack, its hook calls reach hooktrace twice per load of the library (its
enter and exit call, rewritten into no-ops then: a library loaded again
after dlclose is new code, read and rewritten afresh), and every other
count is exact; with patch_code false every call of it is declined by
the check instead."""
import os

from htlib import BUILDDIR, check, check_eq, expect_calls, finish, program, run, run_directory

EXE = program("filter_dlopen_main")
LIBRARY = os.path.join(BUILDDIR, "test", "programs", ".libs", "libfilterdl.so")
N = 200000
INIT_CALLS = 1000
QUIET = {"progress_after_ms": 3600000}


def output(cycles):
    """The program's line: each cycle adds fd_sweep(N) and the
    constructor's sum, which grows by its own each load."""
    sweep = sum(3 * i + 1 for i in range(N)) + sum(i ^ 5 for i in range(10))
    init = sum(3 * i + 1 for i in range(INIT_CALLS))
    return "filter_dlopen_main: %d\n" % sum(sweep + init for _ in range(cycles))


def kept(cycles):
    return {"main": 1, "main;cycle": cycles, "main;cycle;fd_init": cycles,
            "main;cycle;fd_sweep": cycles, "main;cycle;fd_sweep;fd_kept": 10 * cycles}


def check_run(r, what, cycles, enabled, after_throttling, patched):
    check_eq((r.returncode, r.stdout), (0, output(cycles)), what + ": exit status, output")
    check_eq(r.stderr, "", what + ": nothing on stderr")
    p = r.profile()
    names = {f["name"] for f in p.doc["functions"]}
    check("fd_helper" not in names, what + ": fd_helper absent from the profile")
    check_eq(sorted(q for q in p.paths() if "fd_helper" in q), [], what + ": no stack of fd_helper")
    expect_calls(p, kept(cycles))
    th = p.doc["throttle"]
    check_eq(th["enabled"], enabled, what + ": throttling on or off")
    check_eq(th["functions"], 0, what + ": nothing throttled by the rule")
    check_eq(th["hook_calls_after_throttling"], after_throttling,
             what + ": hook calls of fd_helper that reached hooktrace")
    check_eq(th["sites_patched"], patched, what + ": hook calls rewritten")
    check_eq(p.doc["mismatched_exits"], 0, what + ": no exit out of step")
    return p


# 1. Nothing excluded, throttling off: the reference counts.
r = run(EXE, [LIBRARY, "1", str(N)], config={"throttle": {"enabled": False}, "outputs": QUIET})
check_eq((r.returncode, r.stdout), (0, output(1)), "nothing excluded: exit status, output")
p = r.profile()
expect_calls(p, dict(kept(1), **{"main;cycle;fd_init;fd_helper": INIT_CALLS,
                                 "main;cycle;fd_sweep;fd_helper": N}))
check_eq(p.doc["throttle"]["hook_calls_after_throttling"], 0, "nothing excluded: no hook declined")

# 2. exclude_functions, throttling off: fd_helper's two hook calls reach
# hooktrace once, inside dlopen, and its other 200,999 calls cost nothing.
for cycles in (1, 3):
    what = "exclude_functions, %d load(s)" % cycles
    r = run(EXE, [LIBRARY, str(cycles), str(N)],
            config={"exclude_functions": ["^fd_helper$"], "throttle": {"enabled": False},
                    "outputs": QUIET})
    p = check_run(r, what, cycles, False, 2 * cycles, 2 * cycles)
    check(p.stack("main;cycle;fd_sweep")["time_excl_s"] > 0,
          what + ": fd_sweep has its own time (fd_helper's)")

# 3. A Score-P filter file, throttling on (the default): the same.
d = run_directory("hooktrace-filter-")
with open(os.path.join(d, "f.filter"), "w") as f:
    f.write("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE fd_help*\nSCOREP_REGION_NAMES_END\n")
with open(os.path.join(d, "config.json"), "w") as f:
    f.write('{"filter_file": "f.filter", "outputs": {"progress_after_ms": 3600000}}')
r = run(EXE, [LIBRARY, "2", str(N)], env={"HOOKTRACE_CONFIG": os.path.join(d, "config.json")})
check_run(r, "filter file, throttling on", 2, True, 4, 4)

# 4. patch_code false: nothing rewritten, every call of fd_helper declined
# by the check (enter and exit), from the constructor and from fd_sweep.
r = run(EXE, [LIBRARY, "2", str(N)],
        config={"exclude_functions": ["^fd_helper$"],
                "throttle": {"enabled": False, "patch_code": False}, "outputs": QUIET})
check_run(r, "patch_code false", 2, False, 2 * 2 * (N + INIT_CALLS), 0)
finish()
