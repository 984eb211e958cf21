"""Regions from Fortran (test/fortran/regions.F90, docs/regions.md) on 2
ranks: `use hooktrace` and a call without the module (mpif.h-era code)
both make region nodes, named without Fortran's trailing blanks, under the
procedure that opened them, with exact calls, and the ring MPI_Sendrecv
inside "exchange" has its exact messages and bytes there; the phase "wrap
up" (hooktrace_phase) is a root node with legacy() below it."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flib import *  # noqa: E402,F403

require_launcher()
# The shut-down's progress lines, which a slow run (a loaded machine, the
# sanitizers) prints after a second, are not what stderr is checked for.
QUIET = {"outputs": {"progress_after_ms": 3600000}}
N, STEPS = 2, 20
PROGRAM = "main;fregions"
WRAP = "phase:wrap up"

r = mpirun(fortran_program("fregions"), N, config=QUIET)
check_status(r, 0, "fregions")
check_eq(r.stderr, "", "fregions: nothing on stderr")
check(r.stdout.startswith("fregions: "), "fregions: its output (%r)" % r.stdout)
p = r.summary()
expect_total_calls(p, {
    PROGRAM + ";exchange": STEPS * N,
    PROGRAM + ";exchange;MPI_Sendrecv": STEPS * N,
    PROGRAM + ";compute": STEPS * N,
    WRAP: N, WRAP + ";" + PROGRAM: 0,
    WRAP + ";" + PROGRAM + ";legacy": N,
    WRAP + ";" + PROGRAM + ";legacy;old style": N,
    WRAP + ";" + PROGRAM + ";legacy;old style;work": N,
}, "fregions")
if p is not None:
    check_eq(p.traffic(PROGRAM + ";exchange;MPI_Sendrecv"),
             (STEPS * N, STEPS * N * 16, STEPS * N, STEPS * N * 16),
             "fregions: the ring's messages and bytes under exchange")
    check_eq([path for path in p.paths() if path.endswith("compute   ") or "up  " in path], [],
             "fregions: no name with trailing blanks")
    check_eq([path for path in p.paths() if "legacy" in path and not path.startswith(WRAP)], [],
             "fregions: legacy() only in its phase")
finish()
