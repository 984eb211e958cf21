#!/usr/bin/env python3
"""Counters do not change what throttling decides (docs/throttle.md,
docs/counters.md).  Through perf events a counter read is a system
call, about a microsecond, and a thread with counters reads them at every
recorded call's entry and exit, inside the calls' times: on
test/programs/counters_throttle.c, whose mid makes 200 calls to leaf (never
throttled), every call of mid held 402 reads, several hundred microseconds,
and mid was no longer throttled at max_ns_per_call 150 us.  Throttling now
takes the reads' time out of a call's time, so the same functions are
throttled at the same call, with the same counts everywhere, with
perf::TASK-CLOCK counted, with perf events forced off
(HOOKTRACE_PAPI_DISABLE=perf_event) and without counters.  Where the
machine has no perf events (or hooktrace no PAPI) the event is dropped and
the runs compare all the same."""
import os

from htlib import check, check_eq, finish, program, run

PAPI = os.environ.get("HT_PAPI") == "yes"
PERF = "perf::TASK-CLOCK"
MIN_CALLS, MIDS, LEAVES, TINIES, SLOWS = 200, 1000, 200, 1000, 20
THROTTLE = {"min_calls": MIN_CALLS, "max_ns_per_call": 150000, "never": ["^leaf$"]}
# With perf events each of mid's calls lasts hundreds of microseconds, most
# of it in the reads, which are taken out; what is left (the hooks' general
# path, some 20 us) can still take in the time the process waited for a
# core on a loaded machine, a few milliseconds now and then.  A run whose
# outcome differs is therefore made again, up to ATTEMPTS times: before the
# reads were taken out, every attempt differed (mid, 402 reads a call, was
# never throttled).
ATTEMPTS = 5
OUTPUTS = {"progress_after_ms": 3600000}
EXPECTED = {  # path: (calls, throttled)
    "main": (1, False),
    "main;run": (1, False),
    "main;run;mid": (MIN_CALLS + 1, True),
    "main;run;mid;leaf": ((MIN_CALLS + 1) * LEAVES, False),
    "main;run;leaf": ((MIDS - MIN_CALLS - 1) * LEAVES, False),  # mid's, after its throttling
    "main;run;tiny": (MIN_CALLS + 1, True),
    "main;run;slow": (SLOWS, False),
}
OUTPUT = "%d\n" % sum(i + k for i in range(MIDS) for k in range(LEAVES))


def outcome(p):
    return {path: (p.calls(path), bool(p.stack(path).get("throttled"))) for path in p.paths()}


def check_run(what, counters=None, env=None):
    config = {"throttle": THROTTLE, "outputs": OUTPUTS}
    if counters is not None:
        config["counters"] = counters
    for attempt in range(ATTEMPTS):
        r = run(program("counters_throttle"), config=config, env=env)
        if r.returncode != 0 or outcome(r.profile()) == EXPECTED:
            break
        print("%s: attempt %d: %s" % (what, attempt + 1, outcome(r.profile())))
    check_eq(r.returncode, 0, what + ": exit status")
    check_eq(r.stdout, OUTPUT, what + ": the program's output")
    p = r.profile()
    check_eq(outcome(p), EXPECTED, what + ": every stack's calls and whether it was throttled")
    check_eq(p.doc["throttle"]["functions"], 2, what + ": mid and tiny throttled")
    return p


check_run("without counters")
if not PAPI:
    check_run("built without PAPI, counters asked for", [PERF])
    finish()
p = check_run("with %s as the machine has it" % PERF, [PERF])
counted = PERF in p.doc["counters"]["events"]
print("%s %s" % (PERF, "counted" if counted else "dropped: %s" % p.doc["counters"]["unavailable"]))
if counted:
    mid = p.stack("main;run;mid")
    check(mid["counters"][PERF]["incl"] > 0, "the event was read around mid's calls")
p = check_run("perf events forced off", [PERF], env={"HOOKTRACE_PAPI_DISABLE": "perf_event"})
check_eq(p.doc["counters"]["events"], [], "forced off: the event dropped")
finish()
