"""Exact call counts per path, times against an outside clock, and the three
output files of one run."""
import os
import time
from htlib import *

start = time.monotonic()
r = run(program("basic"))
elapsed = time.monotonic() - start
check_eq(r.returncode, 0, "exit status")
check("basic: sink=" in r.stdout, "the program's own output is there")
p = r.profile()

expect_calls(p, {
    "main": 1,
    "main;work": 3,
    "main;work;compute": 3,
    "main;work;compute;leaf": 300,
    "main;work;leaf": 3,
    "main;compute": 1,
    "main;compute;leaf": 1000,
    "main;nap": 1,
})
check_eq(len(p.paths()), 8, "number of stacks")
# A serial run names its functions itself: main, work, compute, leaf, nap.
check_eq(p.doc["symbols"], {"named_here": 5, "named_by_rank_0": 0}, "functions named here")
check_eq(p.doc["threads"], 1, "threads")
check_eq(p.doc["overhead"]["calls"], 1 + 3 + 3 + 300 + 3 + 1 + 1000 + 1, "instrumented calls")

nap = p.stack("main;nap")
main = p.stack("main")
check(nap["time_incl_s"] >= 0.050, "nap sleeps 50 ms: inclusive %.6f s >= 0.050" % nap["time_incl_s"])
check(nap["time_incl_s"] < main["time_incl_s"], "nap is shorter than main")
check(main["time_incl_s"] <= elapsed, "main (%.6f s) within the run as timed from outside (%.6f s)"
      % (main["time_incl_s"], elapsed))
check(main["time_incl_s"] <= p.doc["wall_time_s"], "main within the profiled wall time")
check_close(nap["time_excl_s"], nap["time_incl_s"], "a leaf's exclusive time is its inclusive time")
# Exclusive times add up to main's inclusive time (one thread, one root).
total_excl = sum(s["time_excl_s"] for s in p.doc["stacks"])
check_close(total_excl, main["time_incl_s"], "exclusive times sum to the root's inclusive time")
leaf = p.stack("main;compute;leaf")
check("threads" not in leaf, "one thread index: the stack's figures are thread 0's, no \"threads\"")
check_eq(p.thread_calls("main;compute;leaf"), {0: 1000}, "thread 0's leaf calls")
check_eq(leaf["function"], "leaf", "function name")
check(leaf["file"] is not None and leaf["file"].endswith("basic.c"), "file of leaf: %r" % leaf["file"])
check_eq(leaf["line"], 8, "line of leaf's definition")

# Stack IDs: depth first, callees in name order.
ids = {";".join(s["path"]): s["id"] for s in p.doc["stacks"]}
check_eq(ids["main"], 0, "main is stack 0")
check_eq(ids["main;compute"], 1, "main;compute is stack 1")
check_eq(ids["main;compute;leaf"], 2, "main;compute;leaf is stack 2")
check_eq(p.stack("main;compute;leaf")["parent"], 1, "parent of main;compute;leaf")

# The folded file: one line per stack with at least 1 us exclusive time,
# frames separated by ';', value in microseconds.
folded = dict(line.rsplit(" ", 1) for line in r.text(".folded").splitlines())
check("main;nap" in folded, "folded stack main;nap")
check(int(folded.get("main;nap", 0)) >= 50000, "main;nap >= 50000 us in the folded file")
check(all(v.isdigit() for v in folded.values()), "folded values are integers")

# The logfile: header, the table row for main;compute;leaf, the stack list.
log = r.text(".log")
check("command:" in log and "wall time:" in log and "overhead:" in log, "logfile header")
rows = [l.split() for l in log.splitlines() if l.strip().endswith(" %d" % ids["main;compute;leaf"])]
check(any(row[0] == "1000" and row[4] == "leaf" and row[5] == "compute" for row in rows),
      "logfile row: 1000 calls of leaf called by compute, stack %d" % ids["main;compute;leaf"])
check("main (" in log and "basic.c:" in log, "stack list shows file:line")
check(" > compute (" in log, "stack list shows paths root first")
finish()
