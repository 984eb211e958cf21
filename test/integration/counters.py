"""Counters (docs/counters.md): PAPI events per call stack.

test/programs/counters defines two software-defined events of its own,
sde:::CTEST::units and sde:::CTEST::bytes, and adds known amounts in known
functions (leaf +3/+1, middle +5 and two leaves, recurse +2/+10 three deep,
a second thread running middle 4 times, then 20 short threads calling leaf
once each, merged into a thread group), so every stack's inclusive and
exclusive counts are exact.  An unknown event is dropped with a message
naming PAPI's reason.

Both branches of perf events run wherever the machine allows: as the
machine has them (perf::TASK-CLOCK counted next to the SDE events, which
keep their exact counts; or dropped with the perf_event component's
reason), and forced off with HOOKTRACE_PAPI_DISABLE=perf_event
(docs/counters.md), which gives what a machine without them gives.  With
"perf" the program touches 16384 fresh pages in main and 16384 in a thread
of its own and sleeps 5 times: where perf events are read, page faults and
context switches have those least counts, each thread's own (a thread's
set counts it alone: main's count leaves the other thread's pages out),
and every event keeps 0 <= excl <= incl, excl = incl - the callees' incl.
Without PAPI the config gets one message.

What the machine has decides which branch runs, never whether the test
passes: .ci/run runs it again with PAPI's perf_event component forced
active (LIBPFM_FORCE_PMU) on machines where it is disabled, and
test/integration/papi_states.py checks every state exactly, through a
stand-in for libpapi."""
import os
import re
from htlib import *

UNITS, BYTES = "sde:::CTEST::units", "sde:::CTEST::bytes"
PAPI = os.environ.get("HT_PAPI") == "yes"
SDE = PAPI and os.environ.get("HT_PAPI_SDE") == "yes"


def no_counters_anywhere(p, what):
    check("counters" not in p.doc, what + ": no top-level counters")
    check(all("counters" not in s for s in p.doc["stacks"]), what + ": no stack has counters")
    check(all("counters" not in t for s in p.doc["stacks"] for t in p.threads_of(s)),
          what + ": no thread has counters")


# A config without counters: nothing changes (and PAPI never starts).
r = run(program("basic"))
check_eq(r.returncode, 0, "basic without counters: exit status")
no_counters_anywhere(r.profile(), "basic without counters")
check("counters" not in r.stderr, "no counter message without counters")

if not PAPI:
    r = run(program("basic"), config={"counters": ["PAPI_TOT_INS", "perf::TASK-CLOCK"]})
    check_eq(r.returncode, 0, "built without PAPI: exit status unchanged")
    check_eq(r.stderr.count("hooktrace: counters: hooktrace was built without PAPI"), 1,
             "built without PAPI: one message")
    p = r.profile()
    check_eq(p.doc["counters"]["events"], [], "built without PAPI: no event kept")
    check_eq([u["event"] for u in p.doc["counters"]["unavailable"]],
             ["PAPI_TOT_INS", "perf::TASK-CLOCK"], "built without PAPI: both listed unavailable")
    check(all(u["reason"] == "hooktrace was built without PAPI"
              for u in p.doc["counters"]["unavailable"]), "built without PAPI: the reason")
    check(all("counters" not in s for s in p.doc["stacks"]), "built without PAPI: no stack counters")
    finish()

if not SDE:
    print("SKIP: PAPI without its SDE library: the exact counts need sde_lib.h")
    finish()

PERF, FAULTS = "perf::TASK-CLOCK", "perf::PAGE-FAULTS"
# A thread is switched out in the kernel: PAPI's default domain (user)
# counts no context switch at all; with the kernel's (root, or
# perf_event_paranoid <= 1), each sleep is one.
SWITCHES = "perf::CONTEXT-SWITCHES:u=1:k=1"
NO_PERF = {"HOOKTRACE_PAPI_DISABLE": "perf_event"}
DISABLED = "the perf_event component is disabled: "
PAGES = 16384

plain = run(program("counters"))
check_eq(plain.returncode, 3, "counters without counters: the program's exit status")
check_eq(plain.stdout, "counters: units 220 bytes 78\n", "counters without counters: output")


def check_sums(p, events, what):
    """What holds for any counter: non-negative, exclusive <= inclusive, a
    caller's inclusive count at least its callees' and its exclusive count
    the difference, the threads' counts adding up to the stack's."""
    for s in p.doc["stacks"]:
        name = what + ": " + ";".join(s["path"])
        children = [k for k in p.doc["stacks"] if k["parent"] == s["id"]]
        for e in events:
            v = s["counters"][e]
            below = sum(k["counters"][e]["incl"] for k in children)
            check(0 <= v["excl"] <= v["incl"], "%s %s: 0 <= excl <= incl: %r" % (name, e, v))
            check(v["incl"] >= below, "%s %s: incl %d >= the callees' incl %d"
                  % (name, e, v["incl"], below))
            check_eq(v["excl"], v["incl"] - below, "%s %s: excl = incl - callees' incl" % (name, e))
            for part in ("incl", "excl"):
                check_eq(sum(t["counters"][e][part] for t in p.threads_of(s)), v[part],
                         "%s %s: the threads' %s counts add up" % (name, e, part))


def check_perf_dropped(r, c, events, what, forced):
    """events were dropped for a reason named on stderr: forced off, the
    component's reason; else that or PAPI's."""
    unavailable = {u["event"]: u["reason"] for u in c["unavailable"]}
    for e in events:
        reason = unavailable.get(e, "")
        if forced:
            check(reason.startswith(DISABLED) and len(reason) > len(DISABLED),
                  "%s: %s dropped, the component's reason follows: %r" % (what, e, reason))
        else:
            check(reason.startswith(DISABLED) or reason.startswith("PAPI cannot read it: "),
                  "%s: %s dropped for a reason: %r" % (what, e, reason))
        check("hooktrace: counter %s: %s; not counted\n" % (e, reason) in r.stderr,
              "%s: %s's message on stderr" % (what, e))


# Exact counts: {path: (calls, units incl, units excl, bytes incl, bytes excl)}.
# SDE events are process-wide: main, open while the worker threads run,
# includes their units and bytes (44 + 60 and 8 + 20) as its exclusive share.
expected = {
    "main": (1, 220, 104, 78, 28),
    "main;middle": (10, 110, 50, 20, 0),
    "main;middle;leaf": (20, 60, 60, 20, 20),
    "main;recurse": (1, 6, 2, 30, 10),
    "main;recurse;recurse": (1, 4, 2, 20, 10),
    "main;recurse;recurse;recurse": (1, 2, 2, 10, 10),
    "worker": (1, 44, 0, 8, 0),
    "worker;middle": (4, 44, 20, 8, 0),
    "worker;middle;leaf": (8, 24, 24, 8, 8),
    "short_worker": (20, 60, 0, 20, 0),
    "short_worker;leaf": (20, 60, 60, 20, 20),
}
SHORT = ("short_worker", "short_worker;leaf")


def sde_run(env, forced):
    """The SDE events' exact counts next to an unknown event and
    perf::TASK-CLOCK: counted too where the machine reads perf events and
    they are not forced off, else dropped."""
    what = "perf events off" if forced else "perf events as the machine has them"
    config = {"counters": [UNITS, BYTES, "NOPE_EVENT", PERF]}
    r = run(program("counters"), config=config, env=env)
    check_eq(r.returncode, 3, what + ": exit status unchanged with counters")
    check_eq(r.stdout, plain.stdout, what + ": output unchanged with counters")
    p = r.profile()
    c = p.doc["counters"]
    perf = PERF in c["events"]
    check(not (forced and perf), what + ": %s not counted when forced off" % PERF)
    events = [UNITS, BYTES] + ([PERF] if perf else [])
    check_eq(c["events"], events, what + ": the events kept, in the config's order")
    check(re.fullmatch(r"\d+\.\d+\.\d+\.\d+", c["papi_version"]) is not None, what + ": papi_version")
    unavailable = {u["event"]: u["reason"] for u in c["unavailable"]}
    check_eq(sorted(unavailable), ["NOPE_EVENT"] + ([] if perf else [PERF]),
             what + ": the events dropped")
    check_eq(unavailable.get("NOPE_EVENT"), "unknown event (PAPI: Not supported by component)",
             what + ": NOPE_EVENT's reason")
    check("hooktrace: counter NOPE_EVENT: unknown event (PAPI: Not supported by component); not counted\n"
          in r.stderr, what + ": NOPE_EVENT's message on stderr")
    if not perf:
        check_perf_dropped(r, c, [PERF], what, forced)
    check_eq(r.stderr.count("hooktrace: counter "), 1 if perf else 2,
             what + ": one message per event dropped")
    check_eq(sorted(p.paths()), sorted(expected), what + ": the stacks")
    for path, (calls, ui, ue, bi, be) in expected.items():
        s = p.stack(path)
        check_eq(s["calls"], calls, what + ": calls of " + path)
        sde = {e: v for e, v in s.get("counters", {}).items() if e != PERF}
        check_eq(sde, {UNITS: {"incl": ui, "excl": ue}, BYTES: {"incl": bi, "excl": be}},
                 what + ": counters of " + path)
        check_eq(sorted(s["counters"]), sorted(events), what + ": every event on " + path)
        if path in SHORT:  # over the short threads: per thread index, summed
            check_eq(sum(t["counters"][UNITS]["incl"] for t in s["threads"]), ui,
                     what + ": the short threads' units add up for " + path)
            continue
        thread = 1 if path.startswith("worker") else 0
        check_eq([(t["thread"], t.get("counters")) for t in s["threads"]],
                 [(thread, s.get("counters"))], what + ": the one thread's counters of " + path)
    groups = p.doc["thread_groups"]
    check_eq([(g["thread"], g["start_routine"], g["threads"], g["running"]) for g in groups],
             [(2, "short_worker", 20, 0)], what + ": the 20 short threads form thread group 2")
    check_eq(p.doc["threads"], 3, what + ": thread indices: main, worker, the group")
    check_sums(p, events, what)
    if perf:
        # CPU time of the thread, in ns: main ran, and more than its callees
        check(p.stack("main")["counters"][PERF]["incl"] > 0, what + ": main's task clock > 0")

    # The logfile: the events in the header, a counters table with the
    # profile table's rows (stack IDs in its order) and the same figures.
    log = r.text(".log")
    check("counters:        %s (PAPI %s)\n" % (", ".join(events), c["papi_version"]) in log,
          what + ": the events in the log header")
    check("                 unavailable: NOPE_EVENT: unknown event (PAPI: Not supported by component)\n" in log,
          what + ": the unavailable events in the log header")
    table = log.split("Counters, all threads", 1)[1].split("\n\n", 3)[2] \
        if "Counters, all threads" in log else ""
    E = len(events)
    rows = [line.split() for line in table.splitlines()[1:]]
    rows = [row for row in rows if len(row) == 2 * E + 2]
    by_id = {int(row[-1]): [int(x) for x in row[:2 * E]] + [row[2 * E]] for row in rows}
    check_eq(len(by_id), len(expected), what + ": a counters row per stack")
    for path in expected:
        s = p.stack(path)
        want = [s["counters"][e][k] for e in events for k in ("incl", "excl")]
        check_eq(by_id.get(s["id"]), want + [s["function"]], what + ": log row of " + path)
    profile_rows = log.split("Runtime profile, all threads", 1)[1].split("\n\n")[1].splitlines()[1:]
    profile_ids = [int(line.split()[-1]) for line in profile_rows if line.strip()]
    check_eq([int(row[-1]) for row in rows], profile_ids,
             what + ": the counters table lists the stacks in the profile table's order")
    return perf


perf_here = sde_run(None, False)
sde_run(NO_PERF, True)
print("note: perf events %s here" % ("counted" if perf_here else "not readable"))

# Fresh pages, sleeps and a second thread (the program's "perf"): where
# PAPI reads perf events, least counts each thread's own.
for env, forced in ((None, False), (NO_PERF, True)):
    what = "perf run, " + ("perf events off" if forced else "perf events as the machine has them")
    events = [FAULTS, SWITCHES, PERF]
    r = run(program("counters"), args=["perf"], config={"counters": events}, env=env)
    check_eq(r.returncode, 3, what + ": exit status")
    check_eq(r.stdout, plain.stdout, what + ": output")
    p = r.profile()
    c = p.doc["counters"]
    check_eq(p.calls("main;touch_fresh_pages"), 1, what + ": main;touch_fresh_pages: 1 call")
    check_eq(p.calls("main;nap"), 5, what + ": main;nap: 5 calls")
    check_eq(p.calls("toucher;touch_fresh_pages"), 1, what + ": toucher;touch_fresh_pages: 1 call")
    kept = c["events"]
    check_perf_dropped(r, c, [e for e in events if e not in kept], what, forced)
    check_eq(len(c["unavailable"]) + len(kept), len(events), what + ": each event kept or listed")
    if kept == []:
        check(not (perf_here and not forced), what + ": perf events counted a run before")
        check(all("counters" not in s for s in p.doc["stacks"]), what + ": no stack counters")
        continue
    check(not forced, what + ": no event kept when forced off")
    # the kernel's context switches may be refused (permissions), not the others
    check_eq([e for e in kept if e != SWITCHES], [FAULTS, PERF], what + ": the events kept")
    check_sums(p, kept, what)
    for path in ("main;touch_fresh_pages", "toucher;touch_fresh_pages"):
        v = p.stack(path)["counters"][FAULTS]
        check(v["incl"] >= PAGES, what + ": page faults of %s: %d >= %d pages touched"
              % (path, v["incl"], PAGES))
        check_eq(v["excl"], v["incl"], what + ": %s calls nothing recorded" % path)
    main = p.stack("main")["counters"]
    # A process-wide count would hold the other thread's 16384 faults too.
    check(PAGES <= main[FAULTS]["incl"] < 2 * PAGES,
          what + ": main's page faults %d: its own pages, not toucher's" % main[FAULTS]["incl"])
    toucher = p.stack("toucher")
    check_eq([t["thread"] for t in toucher["threads"]],
             [t["thread"] for t in p.stack("toucher;touch_fresh_pages")["threads"]],
             what + ": toucher's pages on toucher's thread")
    check(0 not in [t["thread"] for t in toucher["threads"]], what + ": toucher is not thread 0")
    if SWITCHES in kept:
        check(p.stack("main;nap")["counters"][SWITCHES]["incl"] >= 5,
              what + ": 5 sleeps, at least 5 context switches: %r"
              % p.stack("main;nap")["counters"][SWITCHES])
    for path in ("main", "toucher", "main;touch_fresh_pages"):
        check(p.stack(path)["counters"][PERF]["incl"] > 0, what + ": task clock of %s > 0" % path)

finish()
