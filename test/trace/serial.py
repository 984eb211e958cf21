"""Trace mode without MPI: a program with two threads, recursion and a
longjmp.  otf2-print reads the archive; Enter events per region equal the
profile's calls; events nest per location; a small buffer spills to disk
without losing anything; the trace filters drop regions; a folder that
cannot be made leaves the profile and the exit status alone."""
import os
import sys

sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "integration"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from htlib import check, check_eq, finish, program, run  # noqa: E402
from otf2lib import Trace, profile_calls_by_name  # noqa: E402

EXE = program("trace_calls")
N = 1000


def anchor(r, name="trace_calls_trace"):
    return os.path.join(r.directory, name, "traces.otf2")


def expected_enters(n):
    return {"main": 1, "leaf": n + 3 + n // 2, "nested": 3, "jumper": 3, "depth": 11,
            "worker": 1}


# 1. Default budget: everything in memory.
r = run(EXE, [str(N)], config={"trace": {"enabled": True}})
check_eq(r.returncode, 0, "exit status with tracing")
check("trace_calls: %d" % N in r.stdout, "program output unchanged: %r" % r.stdout)
check("traces.otf2" in r.stderr, "stderr names the archive: %r" % r.stderr)
t = Trace(anchor(r))
check_eq(t.print_status, 0, "otf2-print exit status (stderr: %s)" % t.print_stderr[-500:])
check_eq(t.defs_status, 0, "otf2-print -G exit status")
enters = t.enters()
for name, calls in expected_enters(N).items():
    check_eq(enters[name], calls, "Enter events of %s" % name)
profile_calls = profile_calls_by_name(r.profile())
check_eq(dict(enters), {k: v for k, v in profile_calls.items() if v}, "Enter events = profile calls")
check_eq(t.count("ENTER"), t.count("LEAVE"), "as many Leave as Enter events")
check_eq(t.locations(), [0 << 32, 1 << 32], "one location per thread")
t.check_nesting()
check("LOCATION" in t.definitions and "CLOCK_PROPERTIES" in t.definitions,
      "definitions have locations and clock properties")
check('Name: "leaf"' in t.definitions and "trace_calls.c" in t.definitions,
      "regions carry name and source file")
log = r.text(".log")
check("events lost:    0" in log, "logfile says no event was lost")

# 2. A 1 MiB budget per thread: 200000 calls spill several times, nothing lost.
# (Throttling, which would stop the calls of leaf after 100000, is off.)
big = 200000
r = run(EXE, [str(big)], config={"trace": {"enabled": True, "buffer_mib": 1, "name": "spill"},
                                 "throttle": {"enabled": False}})
check_eq(r.returncode, 0, "exit status with a small buffer")
t = Trace(anchor(r, "spill"))
check_eq(t.print_status, 0, "otf2-print of the spilled trace")
enters = t.enters()
for name, calls in expected_enters(big).items():
    check_eq(enters[name], calls, "Enter events of %s after spilling" % name)
flushes = t.count("BUFFER_FLUSH")
check(flushes >= 5, "the 1 MiB buffer was flushed (%d BufferFlush events)" % flushes)
log = r.text(".log")
check("events lost:    0" in log, "logfile: no event lost after spilling:\n" + log[-400:])
t.check_nesting()
check(not [f for f in os.listdir(r.directory) if f.startswith(".hooktrace-spill")],
      "no spill file left behind")

# 3. Trace filters: leaf and jumper out of the trace, still in the profile.
r = run(EXE, [str(N)], config={"trace": {"enabled": True, "exclude_functions": ["^leaf$", "jump"]}})
t = Trace(anchor(r))
enters = t.enters()
check_eq(enters.get("leaf", 0), 0, "excluded leaf has no Enter events")
check_eq(enters.get("jumper", 0), 0, "excluded jumper has no Enter events")
check_eq(enters["nested"], 3, "nested still traced")
check_eq(profile_calls_by_name(r.profile())["leaf"], N + 3 + N // 2, "profile keeps leaf")
t.check_nesting()

# 4. A trace folder that cannot be created: a message, the profile, status 0.
r = run(EXE, ["10"], config={"trace": {"enabled": True, "folder": "/proc/no/such"}})
check_eq(r.returncode, 0, "exit status when the trace folder cannot be made")
check('trace folder "/proc/no/such"' in r.stderr, "message names the folder: %r" % r.stderr)
check(r.exists(".json"), "profile still written")

finish()
