"""Hooks the inliner does not see (src/plugin/after_inlining.cc,
docs/plugin.md): test/plugin/medium.cpp's static helper medium() (16
statements, no loop, not declared inline, called once, in update()'s
element loop) is inlined at -O2 by a build without hooks, and must be by the
default plugin build too: counted, not timed (an "inlined" stack with its
320 calls and no time, no hook call), listed as inlined at its 1 site.
Before the hooks were hidden from the inliner, GCC left it out of line
(the hooks made it too big, and &medium in them made it address-taken, so
GCC's rule for functions called once did not apply): 320 calls recorded.
Exact counts of everything else; the same output as the plain build."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from htlib import BUILDDIR, check_eq, finish, run  # noqa: E402

ELEMENTS, STEPS = 64, 5
PROGRAM = lambda name: os.path.join(BUILDDIR, "test", "plugin", name)  # noqa: E731

plain = subprocess.run([PROGRAM("medium_plain")], stdout=subprocess.PIPE, text=True)
check_eq(plain.returncode, 0, "medium_plain: exit status")

r = run(PROGRAM("medium_plugin"))
check_eq(r.returncode, 0, "medium_plugin: exit status")
check_eq(r.stdout, plain.stdout, "medium_plugin: the plain build's output")
p = r.profile()
MEDIUM = "main;update(Element*, int, double);medium(Element const&, double)"
expected = {"main": 1, "main;update(Element*, int, double)": STEPS, MEDIUM: STEPS * ELEMENTS}
check_eq({path: p.calls(path) for path in p.paths()}, expected, "medium_plugin: every stack, exact calls")
medium = p.stack(MEDIUM)
check_eq((medium.get("inlined"), medium["time_incl_s"], medium["time_excl_s"]), (True, 0, 0),
         "medium_plugin: medium() counted, inlined, no time of its own")
check_eq(p.doc["overhead"]["calls"], 1 + STEPS, "medium_plugin: hook calls recorded")
check_eq(p.doc["overhead"]["inlined_calls"], STEPS * ELEMENTS, "medium_plugin: calls counted")
check_eq(p.doc["uninstrumented"]["inlined"],
         {"functions": 1, "sites": 1, "names": [{"name": "medium(Element const&, double)", "sites": 1}]},
         "medium_plugin: medium() listed as inlined, with its site")
finish()
