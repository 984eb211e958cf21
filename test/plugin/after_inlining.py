"""The GCC plugin's second rule (src/plugin/after_inlining.cc,
src/plugin/leaf_copies.cc, docs/plugin.md): after inlining, an inlined copy
keeps its hooks unless it is straight-line leaf code, whose calls are
counted instead; every function that stays out of line keeps its own.

test/plugin/inlined.cpp (2 ranks) has element loops whose bodies call
medium helpers that are always inlined (stress, advance, and corner_sum,
whose loop has 4 trips known at compile time: a helper, not a kernel), a
kernel with a loop inlined into its driver (energy_kernel), a helper that
throws through its inlined copy (checked_index), and out-of-line functions
that call MPI.
It is built at -O1, -O2 and -O3, with -flto (the plugin given at the link
too, as the hooktrace driver does) and with -fopenmp, all with the default
inlined-hooks=leaf; at -O2 with inlined-hooks=keep-loops (the default
before: copies of functions without a loop of their own or an MPI call
lose their hooks, uncounted), remove and keep (every hook kept); and
without hooktrace, for the reference output.

Every build: exit status and stdout as the plain build's, every message
exact, every function with its exact call count on its stack and nothing
else in the profile.  Under leaf every inlined function is there: the leaf
copies (stress, advance, corner_sum) as "inlined" stacks, counted, without
time, the others (checked_index, which throws: calls stay; energy_kernel,
a loop) timed through their hooks; the counted ones are named with their
sites in "uninstrumented"."inlined" and in the logfile, and their calls are
"overhead"."inlined_calls", not hook calls.  The keep build records through
hooks exactly the counted copies' calls on top of the default build."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mpi"))
from mpilib import *  # noqa: E402,F401

require_launcher()
N = 2
ELEMENTS, STEPS = 64, 5
THREADS = 2
PROGRAM = lambda name: os.path.join(BUILDDIR, "test", "plugin", name)  # noqa: E731

UPDATE = "main;update_elements(Element*, int, double)"
ENERGY = "main;total_energy(Element const*, int)"
EXCHANGE = "main;exchange(Element*, int, int, int)"
LOOKUP = "main;lookup(int, int)"
KERNEL = ENERGY + ";energy_kernel(Element const*, int)"
STRESS = UPDATE + ";stress(Element const&, double)"
ADVANCE = UPDATE + ";advance(Element&, double, double)"
CHECKED = LOOKUP + ";checked_index(int, int)"
CORNER = UPDATE + ";corner_sum(Element const&)"

OUT_OF_LINE = {"main": 1, UPDATE: STEPS, ENERGY: STEPS, EXCHANGE: STEPS, LOOKUP: STEPS}
# What each mode leaves out, with its sites (every helper is inlined once),
# and the calls those copies make when their hooks are kept.
INLINED = {"stress(Element const&, double)": (STRESS, STEPS * ELEMENTS),
           "advance(Element&, double, double)": (ADVANCE, STEPS * ELEMENTS),
           "checked_index(int, int)": (CHECKED, STEPS),
           "corner_sum(Element const&)": (CORNER, STEPS * ELEMENTS),
           "energy_kernel(Element const*, int)": (KERNEL, STEPS)}
LOOP_KERNELS = {"energy_kernel(Element const*, int)"}
if CHECKED_LOOPS:  # corner_sum's 4 trips count as a kernel's loop
    LOOP_KERNELS.add("corner_sum(Element const&)")

m = Messages()
for s in range(N):
    m.p2p(s, (s + 1) % N, DOUBLE, EXCHANGE + ";MPI_Sendrecv", EXCHANGE + ";MPI_Sendrecv", times=STEPS)
    for _ in range(STEPS):
        m.coll(s, (s + 1) % N, DOUBLE, ENERGY + ";MPI_Allreduce")

reference = mpirun(PROGRAM("inlined_plain"), N)
check_status(reference, 0, "inlined_plain")


def run(name, left_out, counted=frozenset(), openmp=False):
    """left_out: the functions whose inlined copies lose their hooks;
    counted: of those, the ones counted (leaf copies)."""
    env = {"OMP_NUM_THREADS": str(THREADS)} if openmp else None
    r = mpirun(PROGRAM(name), N, env=env)
    check_status(r, 0, name)
    expect_same_stdout(r, reference, name)
    p = r.summary()
    expect_messages(p, m, N, name)
    expected = dict(OUT_OF_LINE)
    for function, (path, calls) in INLINED.items():
        if function not in left_out or function in counted:
            expected[path] = calls
    # OpenMP: the region's outlined body, entered by every thread of the
    # team; on thread 0 under its caller, on the others as a root.
    regions = [s for s in p.doc["stacks"] if "_omp_fn" in s["function"]]
    if openmp:
        check_eq(sum(s["calls"] for s in regions), N * STEPS * THREADS, name + ": calls of the OpenMP region")
    else:
        check_eq(regions, [], name + ": no OpenMP region")
    for path, calls in expected.items():
        function = path.split(";")[-1]
        if openmp and path.startswith(UPDATE + ";"):
            # Called in the region: on every thread of the team.
            got = sum(s["calls"] for s in p.doc["stacks"] if s["function"] == function)
            check_eq(got, N * calls, "%s: calls of %s (both ranks, every thread)" % (name, function))
        else:
            check_eq(p.calls(path), N * calls, "%s: calls of %s (both ranks)" % (name, path))
    program = [s for s in p.doc["stacks"]
               if not s["function"].startswith("MPI_") and "_omp_fn" not in s["function"]]
    check_eq(sorted({s["function"] for s in program}), sorted({path.split(";")[-1] for path in expected}),
             name + ": the functions in the profile")
    counted_names = {INLINED[f][0].split(";")[-1] for f in counted}
    check_eq(sorted({s["function"] for s in program if s.get("inlined")}), sorted(counted_names),
             name + ": the stacks marked inlined are the counted copies'")
    check_eq([s["function"] for s in program if s.get("inlined") and (s["time_incl_s"] or s["time_excl_s"])], [],
             name + ": a counted copy has no time of its own")
    hooked = sum(s["calls"] for s in program if not s.get("inlined"))
    inlined_calls = sum(s["calls"] for s in program if s.get("inlined"))
    recorded = p.doc["overhead"]["calls"]
    check_eq(recorded, sum(s["calls"] for s in p.doc["stacks"] if not s.get("inlined")),
             name + ": hook calls recorded = calls of the stacks not counted")
    check_eq(p.doc["overhead"]["inlined_calls"], inlined_calls, name + ": inlined calls = calls of the counted stacks")
    check_eq(inlined_calls, N * sum(calls for f, (_, calls) in INLINED.items() if f in counted),
             name + ": the counted calls, exactly")
    check_eq(hooked + inlined_calls, N * sum(expected.values()),
             name + ": the program's calls recorded, exactly the expected ones")
    listed = p.doc["uninstrumented"]
    check_eq(listed["functions"], 0, name + ": no tiny function (every helper is over the limit)")
    sites = [{"name": f, "sites": 1} for f in sorted(left_out)]
    check_eq(listed["inlined"], {"functions": len(sites), "sites": len(sites), "names": sites},
             name + ": the inlined functions named, with their sites")
    log = r.text(".log")
    # Counted copies (inlined-hooks=leaf) make stacks marked inlined, and the
    # line says so (docs/output.md, the logfile's header).
    if any(s.get("inlined") for s in p.doc["stacks"]):
        line = ("inlined:         %d function%s counted (calls, not timed) at %d inlined call sites"
                " by the GCC plugin, marked ^" % (len(sites), "" if len(sites) == 1 else "s", len(sites)))
    else:
        line = ("inlined:         %d functions not recorded at %d inlined call sites, their hooks removed"
                " after inlining by the GCC plugin" % (len(sites), len(sites)))
    if sites:
        check(line in log, name + ": the logfile counts them:\n" + log[:1500])
    else:
        check("inlined:" not in log, name + ": no inlined line in the logfile")
    return recorded, inlined_calls


# Leaf copies: no loop, no call left (checked_index keeps the calls that
# build and throw its exception).
LEAF = {"stress(Element const&, double)", "advance(Element&, double, double)",
        "corner_sum(Element const&)"} - LOOP_KERNELS
default = run("inlined_O2", LEAF, LEAF)
for name in ("inlined_O1", "inlined_O3", "inlined_lto"):
    run(name, LEAF, LEAF)
# Built with OpenMP when configure found it (OPENMP_CFLAGS).
with open(PROGRAM("inlined_omp"), "rb") as f:
    run("inlined_omp", LEAF, LEAF, openmp=b"_omp_fn" in f.read())
# The default before: copies of functions without a loop (and not calling
# MPI) lose their hooks, uncounted; remove: all of them.
run("inlined_keeploops", set(INLINED) - LOOP_KERNELS)
run("inlined_remove", set(INLINED))
# Every inlined copy recorded through its hooks: the counted calls, exactly,
# become hook calls.
kept = run("inlined_keep", set())
check_eq(kept[0] - default[0], default[1],
         "inlined_keep: records through hooks exactly the calls the default counts")

finish()
