"""Each recursion level is its own stack; a depth limit folds deeper calls
into the limit node without losing them."""
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
finish()
