"""exit() deep in the stack and longjmp: exit status unchanged, profile
complete and consistent."""
from htlib import *

r = run(program("exit_deep"))
check_eq(r.returncode, 3, "exit status passes through")
check("exit_deep: exiting with 3" in r.stdout, "program output flushed")
p = r.profile()
expect_calls(p, {"main": 1, "main;first": 1, "main;first;second": 1, "main;first;second;third": 1})
third = p.stack("main;first;second;third")
main = p.stack("main")
check(third["time_incl_s"] > 0 and third["time_incl_s"] <= main["time_incl_s"],
      "calls in progress at exit count up to the end")
check(p.has("main;first;second;third;at_exit_handler") or p.has("at_exit_handler"),
      "the atexit handler ran before the profile was written and was recorded")

r = run(program("longjmp"))
check_eq(r.returncode, 0, "longjmp exit status")
check_eq(r.stdout.count("longjmp: after a"), 5, "longjmp program output")
p = r.profile()
expect_calls(p, {
    "main": 1,
    "main;outer": 4,
    "main;outer;middle": 4,
    "main;outer;middle;thrower": 4,
    "main;after": 5,
    "main;raiser": 1,
    "main;raiser;on_signal": 1,
})
check_eq(len(p.paths()), 7, "no call attributed to an abandoned frame: %s" % sorted(p.paths()))
check_eq(p.doc["mismatched_exits"], 0, "no exit went unmatched")
finish()
