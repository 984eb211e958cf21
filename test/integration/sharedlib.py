"""Functions in an instrumented shared library are named and counted."""
from htlib import *

r = run(program("sharedlib_main"))
check_eq(r.returncode, 0, "exit status")
p = r.profile()
expect_calls(p, {
    "main": 1,
    "main;shared_square": 7,
    "main;shared_sum_squares": 1,
    "main;shared_sum_squares;shared_square": 5,
})
sq = p.stack("main;shared_square")
check(sq["file"] is not None and sq["file"].endswith("sharedlib_lib.c"), "file in the library: %r" % sq["file"])
check_eq(sq["line"], 4, "line in the library")
finish()
