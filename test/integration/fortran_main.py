"""gfortran's main program (symbol MAIN__) is shown by its own name,
heat_demo, in the JSON, the folded stacks, the logfile and the trace's
region names, with exact counts; it is still never throttled (it is found
by its symbol at start-up, docs/throttle.md), and throttle.never matches
the names the profile shows: "clamp" for gfortran's clamp_.  `program
main`, which gfortran calls MAIN__ in DWARF as well, is shown as main (from
its program statement); a program without one stays MAIN__."""
import os
import shutil
import subprocess
import sys

from htlib import *

EXE = program("heat_demo")
ROOT = "main;heat_demo"
EXPECTED = {"main": 1, ROOT: 1, ROOT + ";heat_solver::step": 10, ROOT + ";clamp": 10,
            ROOT + ";heat_solver::energy": 1, ROOT + ";show_energy": 1}


def no_main__(r, what):
    for suffix in (".json", ".log", ".folded"):
        check("MAIN__" not in r.text(suffix), "%s: no MAIN__ in %s" % (what, suffix))


r = run(EXE)
check_eq((r.returncode, r.stdout), (0, "heat_demo:   0.111614\n"), "exit status and output")
p = r.profile()
expect_calls(p, EXPECTED)
check_eq(p.stack(ROOT)["line"], 36, "heat_demo's line: the program statement")
no_main__(r, "profile")
check(any(l.startswith(ROOT + " ") for l in r.text(".folded").splitlines()),
      "folded: a heat_demo stack")
check(any(" heat_demo " in l for l in r.text(".log").splitlines() if "show_energy" in l),
      "log: show_energy's caller is heat_demo")

# Throttling everything cheap after 2 calls: step is throttled; the main
# program, matched as MAIN__ at start-up, is not, nor clamp, named in
# "never" as the profile shows it.
r = run(EXE, config={"throttle": {"min_calls": 2, "max_ns_per_call": 1000000000,
                                  "never": ["^clamp$", "^heat_demo$"]}})
check_eq(r.returncode, 0, "throttled run: exit status")
p = r.profile()
check(p.stack(ROOT + ";heat_solver::step").get("throttled", False), "throttled run: step throttled")
check_eq(p.calls(ROOT + ";heat_solver::step"), 3, "throttled run: calls of step (until throttled)")
for path in (ROOT, ROOT + ";clamp"):
    check(not p.stack(path).get("throttled", False), "throttled run: %s never throttled" % path)
check_eq((p.calls(ROOT), p.calls(ROOT + ";clamp")), (1, 10), "throttled run: calls of heat_demo, clamp")
no_main__(r, "throttled run")

# The trace's regions (otf2-print, if OTF2 is there).
if HAVE_OTF2 and shutil.which("otf2-print"):
    r = run(EXE, config={"trace": {"enabled": True}})
    check_eq(r.returncode, 0, "traced run: exit status")
    defs = subprocess.run(["otf2-print", "-G", os.path.join(r.directory, "heat_demo_trace", "traces.otf2")],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True).stdout
    check('Name: "heat_demo"' in defs, "trace: a region named heat_demo")
    check("MAIN__" not in defs, "trace: no region named MAIN__")
else:
    print("no OTF2 (configure --without-otf2) or no otf2-print: the trace's region names not checked",
          file=sys.stderr)

# `program main`: under gfortran's C main, at the program statement's line.
r = run(program("program_main"))
check_eq((r.returncode, r.stdout), (0, "program_main: 20\n"), "program main: exit status and output")
p = r.profile()
expect_calls(p, {"main": 1, "main;main": 1, "main;main;twice": 4})
check_eq(p.stack("main;main")["line"], 5, "program main: the line of its program statement")
no_main__(r, "program main")
check(any(l.startswith("main;main ") for l in r.text(".folded").splitlines()),
      "program main: folded main;main")

# No program statement: nothing names the program, so gfortran's MAIN__ stays.
r = run(program("program_unnamed"))
check_eq((r.returncode, r.stdout), (0, "program_unnamed: 18\n"), "unnamed program: exit status and output")
expect_calls(r.profile(), {"main": 1, "main;MAIN__": 1, "main;MAIN__;thrice": 3})
finish()
