"""Counters (docs/config.md "counters"): PAPI events per call stack.

test/programs/counters defines two software-defined events of its own,
sde:::CTEST::units and sde:::CTEST::bytes, and adds known amounts in known
functions (leaf +3/+1, middle +5 and two leaves, recurse +2/+10 three deep,
a second thread running middle 4 times, then 20 short threads calling leaf
once each, merged into a thread group), so every stack's inclusive and
exclusive counts are exact.  An unknown event and perf::TASK-CLOCK are
dropped with a message naming PAPI's reason (on a machine whose PAPI reads
perf events, the page faults of a function touching fresh pages are
checked instead).  Without PAPI the config gets one message."""
import os
import re
from htlib import *

UNITS, BYTES = "sde:::CTEST::units", "sde:::CTEST::bytes"
PAPI = os.environ.get("HT_PAPI") == "yes"
SDE = PAPI and os.environ.get("HT_PAPI_SDE") == "yes"


def no_counters_anywhere(p, what):
    check("counters" not in p.doc, what + ": no top-level counters")
    check(all("counters" not in s for s in p.doc["stacks"]), what + ": no stack has counters")
    check(all("counters" not in t for s in p.doc["stacks"] for t in s["threads"]),
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

plain = run(program("counters"))
check_eq(plain.returncode, 3, "counters without counters: the program's exit status")
check_eq(plain.stdout, "counters: units 220 bytes 78\n", "counters without counters: output")

config = {"counters": [UNITS, BYTES, "NOPE_EVENT", "perf::TASK-CLOCK"]}
r = run(program("counters"), config=config)
check_eq(r.returncode, 3, "exit status unchanged with counters")
check_eq(r.stdout, plain.stdout, "output unchanged with counters")
p = r.profile()
c = p.doc["counters"]
check_eq(c["events"], [UNITS, BYTES], "the two SDE events kept, in the config's order")
check(re.fullmatch(r"\d+\.\d+\.\d+\.\d+", c["papi_version"]) is not None, "papi_version")
unavailable = {u["event"]: u["reason"] for u in c["unavailable"]}
check_eq(sorted(unavailable), ["NOPE_EVENT", "perf::TASK-CLOCK"], "the bad events listed")
check_eq(unavailable.get("NOPE_EVENT"), "no such event (PAPI: Not supported)", "NOPE_EVENT's reason")
check("hooktrace: counter NOPE_EVENT: no such event (PAPI: Not supported); not counted\n"
      in r.stderr, "NOPE_EVENT's message on stderr")
perf_reason = unavailable.get("perf::TASK-CLOCK", "")
if perf_reason.startswith("the perf_event component is disabled: "):
    # This VM: no PMU, so PAPI disables perf_event; its reason is given.
    check("hooktrace: counter perf::TASK-CLOCK: %s; not counted\n" % perf_reason in r.stderr,
          "perf::TASK-CLOCK's message on stderr")
    check(len(perf_reason) > len("the perf_event component is disabled: "),
          "the component's own reason follows")
else:
    check(False, "perf::TASK-CLOCK is readable here, yet dropped: %r" % perf_reason)
check_eq(r.stderr.count("hooktrace: counter "), 2, "one message per bad event")

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
check_eq(sorted(p.paths()), sorted(expected), "the stacks")
for path, (calls, ui, ue, bi, be) in expected.items():
    s = p.stack(path)
    check_eq(s["calls"], calls, "calls of " + path)
    check_eq(s.get("counters"), {UNITS: {"incl": ui, "excl": ue}, BYTES: {"incl": bi, "excl": be}},
             "counters of " + path)
    if path in SHORT:  # over the short threads: per thread index, summed
        check_eq(sum(t["counters"][UNITS]["incl"] for t in s["threads"]), ui,
                 "the short threads' units add up for " + path)
        continue
    thread = 1 if path.startswith("worker") else 0
    check_eq([(t["thread"], t.get("counters")) for t in s["threads"]],
             [(thread, s.get("counters"))], "the one thread's counters of " + path)
groups = p.doc["thread_groups"]
check_eq([(g["thread"], g["start_routine"], g["threads"], g["running"]) for g in groups],
         [(2, "short_worker", 20, 0)], "with counters, the 20 short threads form thread group 2")
check_eq(p.doc["threads"], 3, "thread indices: main, worker, the group")

# What holds for any counter: non-negative, exclusive <= inclusive, a
# caller's inclusive count at least its callees' (monotone along a path).
for s in p.doc["stacks"]:
    name = ";".join(s["path"])
    children = [k for k in p.doc["stacks"] if k["parent"] == s["id"]]
    for e in (UNITS, BYTES):
        v = s["counters"][e]
        check(0 <= v["excl"] <= v["incl"], "%s %s: 0 <= excl <= incl" % (name, e))
        check(v["incl"] >= sum(k["counters"][e]["incl"] for k in children),
              "%s %s: incl >= the callees' incl" % (name, e))
        check_eq(v["excl"], v["incl"] - sum(k["counters"][e]["incl"] for k in children),
                 "%s %s: excl = incl - callees' incl" % (name, e))

# The logfile: the events in the header, a counters table with the
# profile table's rows (stack IDs in its order) and the same figures.
log = r.text(".log")
check("counters:        %s, %s (PAPI %s)\n" % (UNITS, BYTES, c["papi_version"]) in log,
      "the events in the log header")
check("                 unavailable: NOPE_EVENT: no such event (PAPI: Not supported)\n" in log,
      "the unavailable events in the log header")
table = log.split("Counters, all threads", 1)[1].split("\n\n", 3)[2] if "Counters, all threads" in log else ""
rows = [line.split() for line in table.splitlines()[1:]]
by_id = {int(row[-1]): [int(x) for x in row[:4]] + [row[4]] for row in rows if len(row) == 6}
check_eq(len(by_id), len(expected), "a counters row per stack")
for path, (calls, ui, ue, bi, be) in expected.items():
    s = p.stack(path)
    check_eq(by_id.get(s["id"]), [ui, ue, bi, be, s["function"]], "log row of " + path)
profile_rows = log.split("Runtime profile, all threads", 1)[1].split("\n\n")[1].splitlines()[1:]
profile_ids = [int(line.split()[-1]) for line in profile_rows if line.strip()]
check_eq([int(row[-1]) for row in rows if len(row) == 6], profile_ids,
         "the counters table lists the stacks in the profile table's order")

# Fresh pages: where PAPI reads perf events (a machine with a PMU), page
# faults are counted in the function that touches 16384 fresh pages.
r = run(program("counters"), args=["fresh"], config={"counters": ["perf::PAGE-FAULTS"]})
check_eq(r.returncode, 3, "fresh: exit status")
p = r.profile()
if p.doc["counters"]["events"] == ["perf::PAGE-FAULTS"]:
    v = p.stack("main;touch_fresh_pages")["counters"]["perf::PAGE-FAULTS"]
    check(v["incl"] >= 16384, "page faults in touch_fresh_pages: %d" % v["incl"])
    check(v["incl"] >= v["excl"] >= 0, "page faults: incl >= excl >= 0")
    for s in p.doc["stacks"]:
        w = s["counters"]["perf::PAGE-FAULTS"]
        check(0 <= w["excl"] <= w["incl"], "page faults of %s: 0 <= excl <= incl" % s["path"])
else:
    check_eq([u["event"] for u in p.doc["counters"]["unavailable"]], ["perf::PAGE-FAULTS"],
             "fresh: perf::PAGE-FAULTS unavailable here")
    check_eq(p.calls("main;touch_fresh_pages"), 1, "fresh: the run goes on without counters")
    no_stack_counters = all("counters" not in s for s in p.doc["stacks"])
    check(no_stack_counters, "fresh: no event kept, no stack counters")

finish()
