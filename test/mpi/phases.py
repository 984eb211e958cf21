"""Phases (test/mpi/regions.c, docs/regions.md "Phases") on 2 ranks:

- "warmup": MPI_Pcontrol(0) stops all recording: the 5 warm-up steps
  (their functions, regions, MPI calls and messages) and the nap while
  paused are nowhere in the profile, which has exactly the 20 steps after
  MPI_Pcontrol(1); pause_here(), entered before the pause and returning
  during it, is one call; the JSON and the log say how long recording was
  paused (at least the 300 ms nap), and main's time leaves it out; the
  same in trace mode (no event of the warm-up);
- "write": MPI_Pcontrol(3) after 5 steps writes each rank's files of those
  5 (partial, "MPI_Pcontrol(3)"; <name>_<rank>.pcontrol-1.*) and the run
  goes on: the summary has all 25;
- "phases": hooktrace_phase("setup") and ("solve") from run_phases():
  each phase a root node with its calls below it, main and run_phases
  (open at each switch) copied below each with no call, the ring's
  messages in "solve";
- "reset": MPI_Pcontrol(2) after 3 steps forgets them, and MPI_Init
  (0 calls): 20 steps, 20 ring messages from each rank, and the calls
  still open (main) counted once;
- stdout and the exit status are the plain program's."""
import json
import os
import shutil
import sys

from mpilib import *

sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "trace"))
from otf2lib import Trace  # noqa: E402

require_launcher()
# The shut-down's progress lines, which a slow run (a loaded machine, the
# sanitizers) prints after a second, are not what stderr is checked for.
QUIET = {"outputs": {"progress_after_ms": 3600000}}
N, STEPS = 2, 20
INT, DOUBLE = 4, 8
NAP_S = 0.3


def at(*names):
    return ";".join(("main",) + names)


def step_calls(steps, ranks=N):
    return {at("step"): steps * ranks, at("step", "assemble"): steps * ranks,
            at("step", "assemble", "local_work"): steps * ranks,
            at("step", "iterate"): steps * ranks,
            at("step", "iterate", "MPI_Allreduce"): steps * ranks,
            at("step", "iterate", "MPI_Sendrecv"): steps * ranks,
            at("MPI_Init"): ranks}


def model(steps=STEPS):
    m = Messages()
    ring = at("step", "iterate", "MPI_Sendrecv")
    for r in range(N):
        m.p2p(r, (r + 1) % N, 4 * INT, ring, ring, times=steps)
        for _ in range(steps):
            for x in range(N):
                m.coll(r, x, DOUBLE, at("step", "iterate", "MPI_Allreduce"))
    return m


def expect_only_steps(p, extra, what, steps=STEPS):
    expected = dict(step_calls(steps), **{at("MPI_Finalize"): N})
    expected.update(extra)
    expect_total_calls(p, expected, what)
    expect_messages(p, model(steps), N, what)
    if p is not None:
        check_eq(sorted(path for path in p.paths() if path not in expected),
                 [], what + ": no other stack (" + ", ".join(sorted(p.paths())) + ")")


for mode in ("warmup", "reset"):
    reference = mpirun(mpi_program("regions_plain"), N, args=[mode])
    check_status(reference, 0, "regions_plain " + mode)
    r = mpirun(mpi_program("regions"), N, args=[mode], config=QUIET)
    check_status(r, 0, mode)
    expect_same_stdout(r, reference, mode)
    check_eq(r.stderr, "", mode + ": nothing on stderr")
    p = r.summary()
    if mode == "warmup":
        expect_only_steps(p, {"main": N, at("pause_here"): N}, mode)
    else:
        # MPI_Init came before the reset: its stack stays, with 0 calls.
        expect_only_steps(p, {"main": N, at("MPI_Init"): 0}, mode)
    if p is None:
        continue
    paused = p.doc.get("paused")
    log = r.text(".log") if r.exists(".log") else ""
    if mode == "warmup":
        check(paused is not None and paused["pauses"] == 1 and paused["resets"] == 0,
              "warmup: the JSON's paused object (%s)" % paused)
        check(paused is not None and paused["time_s"] >= NAP_S,
              "warmup: at least the nap was paused (%s)" % paused)
        # main's time, summed over the ranks, leaves the pause out: each
        # rank's is under its wall time less the nap.
        check(p.stack("main")["time_incl_s"] <= N * (p.doc["wall_time_s"] - NAP_S + 0.1),
              "warmup: main's time (%s s over %d ranks) leaves out the pause (wall %s s)"
              % (p.stack("main")["time_incl_s"], N, p.doc["wall_time_s"]))
        check("paused:          " in log and "in 1 pause (MPI_Pcontrol(0))" in log,
              "warmup: the log says how long recording was paused")
    else:
        check(paused is not None and paused["pauses"] == 0 and paused["resets"] == 1,
              "reset: the JSON's paused object (%s)" % paused)
        check("reset:           1 time (MPI_Pcontrol(2))" in log, "reset: the log says so")

# --- MPI_Pcontrol(3): each rank's profile so far, and the run goes on -----------
WRITTEN = 5
reference = mpirun(mpi_program("regions_plain"), N, args=["write"])
r = mpirun(mpi_program("regions"), N, args=["write"], config=QUIET)
check_status(r, 0, "write")
expect_same_stdout(r, reference, "write")
check_eq(r.stderr, "", "write: nothing on stderr")
expect_only_steps(r.summary(), {"main": N}, "write: the summary", steps=WRITTEN + STEPS)
check_eq(sorted(f for f in r.files() if f.startswith("regions_")),
         sorted("regions_%d.pcontrol-1%s" % (rank, e) for rank in range(N)
                for e in (".folded", ".json", ".log")),
         "write: each rank's files of MPI_Pcontrol(3), no HTML page, nothing else")
for rank in range(N):
    q = r._load("_%d.pcontrol-1.json" % rank)
    what = "write: rank %d's MPI_Pcontrol(3) file" % rank
    if q is None:
        continue
    check_eq(q.doc.get("partial"), {"reason": "MPI_Pcontrol(3)"}, what + ": partial, and why")
    expected = dict(step_calls(WRITTEN, 1), main=1)
    expect_total_calls(q, expected, what)
    check_eq(sorted(path for path in q.paths() if path not in expected), [],
             what + ": nothing after it")
    expect_rank_file(q, model(WRITTEN), rank, N, what)
    log = r.text("_%d.pcontrol-1.log" % rank)
    check("partial:         MPI_Pcontrol(3)" in log, what + ": the log says why it is partial")

# --- named phases: a subtree per phase, the calls open at a switch copied -----
reference = mpirun(mpi_program("regions_plain"), N, args=["phases"])
r = mpirun(mpi_program("regions"), N, args=["phases"], config=QUIET)
check_status(r, 0, "phases")
expect_same_stdout(r, reference, "phases")
check_eq(r.stderr, "", "phases: nothing on stderr")
p = r.summary()
SETUP, SOLVE = "phase:setup", "phase:solve"
expected = {"main": N, at("MPI_Init"): N, at("run_phases"): N,
            # main and run_phases were open at each switch: copied, no call
            SETUP: N, SETUP + ";main": 0, SETUP + ";main;run_phases": 0,
            SETUP + ";main;run_phases;setup": N,
            SETUP + ";main;run_phases;setup;assemble": N,
            SETUP + ";main;run_phases;setup;assemble;local_work": N,
            SOLVE: N, SOLVE + ";main": 0, SOLVE + ";main;run_phases": 0,
            SOLVE + ";main;MPI_Finalize": N}
for path, calls in step_calls(STEPS).items():
    if ";step" in path:
        expected[SOLVE + ";main;run_phases;" + path[len("main;"):]] = calls
expect_total_calls(p, expected, "phases")
if p is not None:
    check_eq(sorted(path for path in p.paths() if path not in expected), [],
             "phases: no other stack")
    ring = SOLVE + ";main;run_phases;step;iterate;MPI_Sendrecv"
    check_eq(p.traffic(ring), (N * STEPS, N * STEPS * 4 * INT, N * STEPS, N * STEPS * 4 * INT),
             "phases: the ring's messages and bytes, sent and received, in solve")

# --- --compare of two phases of one run ---------------------------------------
if p is not None:
    sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "integration"))
    from comparelib import table, tool  # noqa: E402
    cj = os.path.join(r.directory, "phases.compare.json")
    code, out, err = tool("--compare", r.path(".json"), r.path(".json"), "--base-phase", "setup",
                          "--new-phase", "solve", "--json", cj, "-o",
                          os.path.join(r.directory, "c.html"))
    check_eq((code, err), (0, ""), "--compare of the phases setup and solve")
    with open(cj) as f:
        cmp = json.load(f)
    check_eq(out, table(cmp), "compare: the table on standard output")
    check_eq((cmp["base"]["phase"], cmp["new"]["phase"]), ("setup", "solve"), "compare: the phases")
    rows = {";".join(row["path"]): row["calls"] for row in cmp["stacks"]}
    check_eq(rows.get("main;run_phases;setup"), [N, None], "compare: setup only in the setup phase")
    check_eq(rows.get("main;run_phases;step;iterate;MPI_Sendrecv"), [None, STEPS * N],
             "compare: the ring only in the solve phase")
    check_eq(rows.get("main"), [0, 0], "compare: main, open at each switch, no call in either")
    check(not any(k.startswith("phase:") for k in rows), "compare: no phase node in the paths")
    check_eq(tool("--compare", r.path(".json"), r.path(".json"), "--base-phase", "nowhere")[0], 1,
             "compare: a phase the profile does not have is an error")

# --- the page's phase selector (headless chromium, where installed) ------------
if p is not None and (shutil.which("chromium") or shutil.which("chromium-browser")):
    import browser  # noqa: E402
    page, errors, page_errors = browser.load(r.path(".html"), "phase=solve")
    if page is not None:
        browser.expect_no_errors(errors, page_errors, "regions.html#phase=solve")
        check_eq([o.get("value") for o in page.by_id("ht-phase").find_all("option")],
                 ["", "setup", "solve"], "page: the phase selector's choices")
        table = page.by_id("ht-functions")
        check_eq(table.get("data-view"), "phase:solve", "page: #phase=solve shows the solve phase")
        rows = {tr.get("data-function"): int(tr.get("data-calls"))
                for tr in table.find_all("tr", data_function=None)}
        check_eq((rows.get("step"), rows.get("MPI_Sendrecv"), rows.get("setup"), rows.get("phase:solve")),
                 (STEPS * N, STEPS * N, None, None),
                 "page: the solve phase's functions, exactly, and nothing of setup")
        check_eq(page.by_id("ht-flame-note").get("data-view"), "phase:solve",
                 "page: the flame graph shows the solve phase")

# --- trace mode: no event of the warm-up ----------------------------------------
r = mpirun(mpi_program("regions"), N, args=["warmup"], config={"trace": {"enabled": True}})
check_status(r, 0, "warmup, trace mode")
p = r.summary()
expect_only_steps(p, {"main": N, at("pause_here"): N}, "warmup, trace mode")
if HAVE_OTF2:
    t = Trace(os.path.join(r.directory, "regions_trace", "traces.otf2"))
    check_eq(t.print_status, 0, "warmup: otf2-print (stderr: %s)" % t.print_stderr[-400:])
    enters = dict(t.enters())
    for name, calls in (("step", STEPS * N), ("assemble", STEPS * N), ("iterate", STEPS * N),
                        ("local_work", STEPS * N), ("MPI_Sendrecv", STEPS * N),
                        ("pause_here", N), ("nap", 0)):
        check_eq(enters.get(name, 0), calls, "warmup, trace mode: Enter events of " + name)
    t.check_nesting()
else:
    print("configure --without-otf2: the trace's checks skipped", file=sys.stderr)
finish()
