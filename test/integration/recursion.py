"""Each recursion level is its own stack; a depth limit folds deeper calls
into the limit node without losing them."""
import re

from htlib import *

r = run(program("recursion"))
check_eq(r.returncode, 0, "exit status")
check("recursion: 22 5" in r.stdout, "the program computes the same")
p = r.profile()
path = "main"
for level in range(12):
    path += ";down"
    check_eq(p.calls(path), 2, "calls at recursion level %d" % (level + 1))
check(not p.has(path + ";down"), "no 13th level")
check_eq(p.calls("main;ping;pong;ping;pong;ping;pong"), 1, "mutual recursion, six levels")
check_eq(len(p.paths()), 1 + 12 + 6, "number of stacks")

# max_stack_depth 4: main + three levels of down; the other 9 levels of each
# of the two descents fold into the third level.
r = run(program("recursion"), config={"max_stack_depth": 4})
check_eq(r.returncode, 0, "exit status with a depth limit")
check("recursion: 22 5" in r.stdout, "the program computes the same with a depth limit")
p = r.profile()
limit = p.stack("main;down;down;down")
check_eq(limit["calls"], 2, "calls at the limit")
check_eq(limit.get("folded_calls"), 18, "calls folded into the limit node")
check(not p.has("main;down;down;down;down"), "nothing below the limit")
check_eq(p.calls("main;ping;pong;ping"), 1, "mutual recursion cut at the limit")
check_eq(p.stack("main;ping;pong;ping").get("folded_calls"), 3, "ping-pong folded calls")
check_eq(p.doc["folded_calls"], 21, "folded calls in total")
check_eq(p.doc["overhead"]["calls"], 1 + 24 + 6, "every call is still counted")
check("depth limit:" in r.text(".log"), "the logfile says the limit was reached")
# outputs.log_stacks: a logfile table shows the first N stacks in sort
# order, says how many it left out, and the stack list names only the
# stacks a table shows; the JSON keeps all 19.


def table_rows(log):
    """Stack IDs of the rows of the first runtime table, and what follows it."""
    lines = log.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("Runtime profile, all threads")) + 3
    rows = []
    for line in lines[start:]:
        if not line.strip() or line.startswith("..."):
            break
        rows.append(int(line.split()[-1]))
    after = lines[start + len(rows)]
    return rows, after


def listed_stacks(log):
    lines = log.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("Call stacks")) + 2
    ids = [int(l.split(":")[0]) for l in lines[start:] if l[:1] == " " and ":" in l]
    tail = [l for l in lines[start:] if l.startswith("...")]
    return ids, tail


for limit, shown in ((5, 5), (0, 19), (None, 19)):
    config = {"outputs": {"log_stacks": limit}} if limit is not None else {}
    what = "log_stacks %s" % limit
    r = run(program("recursion"), config=config)
    check_eq(r.returncode, 0, what + ": exit status")
    log = r.text(".log")
    rows, after = table_rows(log)
    check_eq(len(rows), shown, what + ": rows in the runtime table")
    check_eq(len(set(rows)), shown, what + ": each row a different stack")
    ids, tail = listed_stacks(log)
    check_eq(sorted(ids), sorted(rows), what + ": the stack list names the stacks shown")
    if shown < 19:
        check_eq(after, "... and 14 more stacks, left out (outputs.log_stacks is 5): the JSON "
                 "and folded files have every stack", what + ": the line under the table")
        check_eq(tail, ["... and 14 more stacks that no table above shows"],
                 what + ": the line under the stack list")
    else:
        check_eq(after, "", what + ": nothing left out")
        check_eq(tail, [], what + ": every stack listed")
    check_eq(len(r.profile().paths()), 19, what + ": the JSON has every stack")
# outputs.progress_after_ms: once shut-down has taken that long, each of its
# steps says so on stderr; 0 shows every step, a long threshold none.
r = run(program("recursion"), config={"outputs": {"progress_after_ms": 0}})
check_eq(r.returncode, 0, "progress: exit status")
steps = [re.sub(r"^hooktrace: \d+\.\d s: ", "hooktrace: <t> s: ", line)
         for line in r.stderr.splitlines() if line.startswith("hooktrace: ")]
check_eq(steps, ["hooktrace: <t> s: named the functions",
                 "hooktrace: <t> s: merged 1 thread into 19 stacks",
                 "hooktrace: <t> s: wrote recursion.*",
                 "hooktrace: <t> s: done"], "progress: every step of shut-down, in order")
r = run(program("recursion"), config={"outputs": {"progress_after_ms": 3600000}})
check_eq([l for l in r.stderr.splitlines() if l.startswith("hooktrace:")], [],
         "progress: nothing before the threshold")
finish()
