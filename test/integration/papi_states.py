"""Every state of PAPI that hooktrace handles (docs/counters.md, "What PAPI
finds"), on any machine: test/papi_stub's stand-in for libpapi takes the
real one's place (htlib.papi_stub) and HT_PAPI_STUB chooses what it finds.
PAPI that cannot start (its initialisation or its threads' fails, another
version's library); the perf_event component active, disabled with a
reason, disabled without one, or turned off by HOOKTRACE_PAPI_DISABLE;
presets a machine without a PMU cannot count, or can; unknown names, names
given twice; an event the kernel's permissions refuse; one the events
before it leave no room for; event sets PAPI cannot create; the sde:::
events' set that cannot start; a thread whose set cannot start; reads
that fail, always or now and then.  In each: exactly what hooktrace writes
(stderr, the JSON's "counters", the log's header) and every stack's
counts, which the stand-in makes exact (each read adds an event's step:
a call's inclusive count is the step times the reads from its entry to
its exit, hooktrace's own, one at each recorded entry and exit), with the
program's output and exit status unchanged.

test/integration/counters.py runs the real PAPI, as the machine has it."""
import os
from htlib import *

if os.environ.get("HT_PAPI") != "yes":
    print("SKIP: built without PAPI (counters.py checks what that says)")
    finish()

CLOCK, FAULTS, SWITCHES = "perf::TASK-CLOCK", "perf::PAGE-FAULTS", "perf::CONTEXT-SWITCHES"
KERNEL_SWITCHES = SWITCHES + ":u=1:k=1"
INS, A, B, NOPE = "PAPI_TOT_INS", "sde:::STUB::a", "sde:::STUB::b", "NOPE_EVENT"
STEP = {CLOCK: 1000, FAULTS: 3, SWITCHES: 1, KERNEL_SWITCHES: 1, INS: 100, A: 1, B: 7}
NO_THROTTLE = {"enabled": False}  # every call recorded, every read made

# test/programs/basic's calls, in order: (function, calls inside)
LEAF = ("leaf", [])
WORK = ("work", [("compute", [LEAF] * 100), LEAF])
BASIC = ("main", [WORK] * 3 + [("compute", [LEAF] * 1000), ("nap", [])])


def reads(tree, fails_every=0):
    """{path: (calls, reads)}: the reads each stack's calls span, summed,
    those whose entry or exit read failed (every fails_every-th of the
    set, counting from 1) left out, as hooktrace leaves them out."""
    spans, count = {}, [0]

    def call(node, prefix):
        name, inside = node
        path = prefix + [name]
        key = ";".join(path)
        count[0] += 1
        entry, entry_ok = count[0], not fails_every or count[0] % fails_every
        for c in inside:
            call(c, path)
        count[0] += 1
        exit_ok = not fails_every or count[0] % fails_every
        calls, n = spans.get(key, (0, 0))
        spans[key] = (calls + 1, n + (count[0] - entry if entry_ok and exit_ok else 0))

    call(tree, [])
    return spans


def expected_counters(spans, events):
    """{path: {event: {"incl", "excl"}}}: the stand-in's exact counts, the
    exclusive ones the inclusive minus the callees', or 0 where the
    callees have more (calls left out of a caller's count: hooktrace's
    rule, as for times)."""
    out = {}
    for path, (_, n) in spans.items():
        below = sum(m for p, (_, m) in spans.items()
                    if p.startswith(path + ";") and p.count(";") == path.count(";") + 1)
        out[path] = {e: {"incl": n * STEP[e], "excl": max(n - below, 0) * STEP[e]}
                     for e in events}
    return out


plain = run(program("basic"))
check_eq(plain.returncode, 0, "basic without counters: exit status")


def state(what, stub, events, kept, dropped, tree=BASIC, exe="basic", fails_every=0, env=None,
          stderr=None):
    """One run in a stub state: kept, the events counted (exact counts);
    dropped, {event: reason}, each said on stderr once (stderr: any other
    lines hooktrace writes, exactly).  Returns the profile."""
    env = dict(papi_stub(stub), **(env or {}))
    r = run(program(exe), config={"counters": events, "throttle": NO_THROTTLE}, env=env)
    check_eq(r.returncode, 0, what + ": exit status unchanged")
    if exe == "basic":
        check_eq(r.stdout, plain.stdout, what + ": output unchanged")
    lines = ["hooktrace: counter %s: %s; not counted" % (e, why) for e, why in dropped.items()]
    check_eq(sorted(r.stderr.splitlines()), sorted(lines + (stderr or [])),
             what + ": what hooktrace says on stderr")
    p = r.profile()
    c = p.doc["counters"]
    check_eq(c["events"], kept, what + ": the events kept, in the config's order")
    check_eq(c["papi_version"], PAPI_VERSION, what + ": papi_version (hooktrace's build's)")
    check_eq([(u["event"], u["reason"]) for u in c["unavailable"]], list(dropped.items()),
             what + ": the events dropped, with their reasons")
    log = r.text(".log")
    header = ["counters:        %s (PAPI %s)" % (", ".join(kept) or "none readable", PAPI_VERSION)]
    header += ["                 unavailable: %s: %s" % u for u in dropped.items()]
    check("\n".join(header) + "\n" in log, what + ": the log's header says\n" + "\n".join(header))
    if not kept:
        check_eq([s["path"] for s in p.doc["stacks"] if "counters" in s], [],
                 what + ": no stack has counters")
        return p
    spans = reads(tree, fails_every)
    check_eq({path: p.calls(path) for path in spans}, {path: n for path, (n, _) in spans.items()},
             what + ": every call recorded")
    want = expected_counters(spans, kept)
    check_eq({path: p.stack(path).get("counters") for path in spans}, want,
             what + ": every stack's counts, exact")
    return p


# What hooktrace was built with (the stand-in does not change it).
PAPI_VERSION = run(program("basic"), config={"counters": [A]},
                   env=papi_stub("")).profile().doc["counters"]["papi_version"]
check(PAPI_VERSION.count(".") == 3, "papi_version: %r" % PAPI_VERSION)

# perf events that work (a machine whose perf_event component is active and
# has no PMU: the presets exist, cannot be counted); an unknown name; a
# name given twice.
state("perf events work", "", [CLOCK, FAULTS, A, NOPE, INS, CLOCK, B],
      [CLOCK, FAULTS, A, B],
      {NOPE: "unknown event (PAPI: Not supported by component)",
       INS: "exists but is not available on this machine (see papi_avail)",
       CLOCK: "named twice"})
# A PMU: the presets counted too.
state("a PMU", "pmu", [INS, CLOCK], [INS, CLOCK], {})
# The perf_event component disabled (perf_event_paranoid, a container, no
# PMU at all): its reason, for its events and for the presets.
DISABLED = "the perf_event component is disabled: "
state("perf_event disabled", "perf_disabled", [CLOCK, A, INS, KERNEL_SWITCHES, NOPE], [A],
      {CLOCK: DISABLED + "stub: perf_event_paranoid is 4",
       INS: DISABLED + "stub: perf_event_paranoid is 4",
       KERNEL_SWITCHES: DISABLED + "stub: perf_event_paranoid is 4",
       NOPE: "unknown event (PAPI: Not supported by component)"})
state("perf_event disabled, no reason given", "perf_disabled_quiet", [A, FAULTS], [A],
      {FAULTS: DISABLED + "Component containing event is disabled"})
state("HOOKTRACE_PAPI_DISABLE=perf_event", "", [FAULTS, B], [B],
      {FAULTS: DISABLED + "Disabled by PAPI_disable_component()"},
      env={"HOOKTRACE_PAPI_DISABLE": "perf_event"})
state("HOOKTRACE_PAPI_DISABLE=perf_event,nope", "", [FAULTS, B], [B],
      {FAULTS: DISABLED + "Disabled by PAPI_disable_component()"},
      env={"HOOKTRACE_PAPI_DISABLE": "perf_event,nope"},
      stderr=["hooktrace: HOOKTRACE_PAPI_DISABLE: PAPI has no component named nope"])
# The kernel's domain refused (perf_event_paranoid 2 and not root); the
# user's domain kept.
state("the kernel's domain refused", "paranoid", [KERNEL_SWITCHES, SWITCHES], [SWITCHES],
      {KERNEL_SWITCHES: "PAPI cannot read it: Permission level does not permit operation"})
# Two counters: the third event finds no room on the set the others hold.
state("two counters", "counters=2", [CLOCK, A, FAULTS, SWITCHES], [CLOCK, A, FAULTS],
      {SWITCHES: "cannot be counted together with the events before it (PAPI: Event exists,"
                 " but cannot be counted due to hardware resource limits)"})

# PAPI cannot start: every event dropped with the reason, nothing counted.
for what, stub, why in (("PAPI_library_init fails", "init_fails",
                         "A System/C library call failed"),
                        ("another version's library", "other_version",
                         "its library is version 6.0, hooktrace was built with "
                         + ".".join(PAPI_VERSION.split(".")[:2])),
                        ("PAPI_thread_init fails", "thread_init_fails", "Not supported")):
    state(what, stub, [CLOCK, A], [],
          {CLOCK: "PAPI could not start: " + why, A: "PAPI could not start: " + why})
NO_SET = "PAPI cannot read it: Insufficient memory"
state("no event set", "create_fails", [CLOCK, A, INS, NOPE], [],
      {CLOCK: NO_SET, A: NO_SET, INS: NO_SET,
       NOPE: "unknown event (PAPI: Not supported by component)"})
# The sde::: events' set cannot start: those are dropped, the others kept.
SDE_START = "PAPI could not start the sde::: events (PAPI: A System/C library call failed)"
state("the sde::: events cannot start", "sde_start_fails", [A, CLOCK, B], [CLOCK],
      {A: SDE_START, B: SDE_START})

# Reads that fail: said once; a call whose entry or exit read failed is
# left out of the counts (every read failing: no count at all).
READ_FAILED = ("hooktrace: counters: a read of the events failed: the calls it was for are"
               " left out of the counts (PAPI: A System/C library call failed)")
p = state("every read fails", "read_fails=1", [CLOCK, A], [CLOCK, A], {}, fails_every=1,
          stderr=[READ_FAILED])
check_eq(p.stack("main")["counters"][CLOCK], {"incl": 0, "excl": 0}, "every read fails: 0")
for n in (2, 3, 7):
    state("one read in %d fails" % n, "read_fails=%d" % n, [FAULTS], [FAULTS], {},
          fails_every=n, stderr=[READ_FAILED])

# Threads (test/programs/threads: 4 workers of 100 to 400 ticks, then main
# calls worker for 10).  Each thread reads its own set: every stack's
# counts are exact.  A thread whose set cannot start (PAPI_start or
# PAPI_register_thread fails on it): said once, its counts stay 0, the
# main thread's exact.
TICK = ("tick", [])


def thread_counts(p, what, events, workers_zero):
    main = reads(("main", [("worker", [TICK] * 10)]))
    want = expected_counters(main, events)
    # each worker: one call, entry to exit 1 + 2 * ticks reads, its ticks 1 each
    ticks = [100, 200, 300, 400]
    n = 0 if workers_zero else sum(1 + 2 * t for t in ticks)
    want["worker"] = {e: {"incl": n * STEP[e], "excl": (0 if workers_zero else 4 + 1000) * STEP[e]}
                      for e in events}
    want["worker;tick"] = {e: {"incl": (0 if workers_zero else 1000) * STEP[e]} for e in events}
    for e in events:
        want["worker;tick"][e]["excl"] = want["worker;tick"][e]["incl"]
    check_eq({path: p.stack(path).get("counters") for path in want}, want,
             what + ": every stack's counts, exact")
    check_eq({path: p.calls(path) for path in want},
             {"main": 1, "main;worker": 1, "main;worker;tick": 10, "worker": 4, "worker;tick": 1000},
             what + ": the calls")
    workers = p.stack("worker")["threads"]
    check_eq(len(workers), 4, what + ": worker ran on 4 threads")
    check_eq(sorted(t["counters"][events[0]]["incl"] for t in workers),
             [0] * 4 if workers_zero else [(1 + 2 * t) * STEP[events[0]] for t in ticks],
             what + ": each worker thread's own count")


THREAD_START = ("hooktrace: counters: PAPI could not start the events of a thread: that thread's"
                " counts of all but the sde::: events stay 0 (PAPI: A System/C library call"
                " failed)")
for what, stub, zero in (("threads, perf events work", "", False),
                         ("a thread's set cannot start", "thread_start_fails", True),
                         ("a thread cannot register", "register_fails", True)):
    r = run(program("threads"), config={"counters": [CLOCK, FAULTS], "throttle": NO_THROTTLE},
            env=papi_stub(stub))
    check_eq(r.returncode, 0, what + ": exit status unchanged")
    check_eq(r.stdout, "threads: done\n", what + ": output unchanged")
    check_eq(r.stderr, THREAD_START + "\n" if zero else "", what + ": stderr")
    p = r.profile()
    check_eq(p.doc["counters"]["events"], [CLOCK, FAULTS], what + ": the events kept")
    thread_counts(p, what, [CLOCK, FAULTS], zero)

finish()
