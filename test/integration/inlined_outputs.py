"""Counted inlined copies in every output (docs/reading.md, "Concepts"):
test/programs/inlined_counts.cpp, built with the GCC plugin's default,
inlines the straight-line helper stress into the OpenMP loop of forces and
into the serial loop of check_forces, where the plugin counts its calls.
On 1 and 2 OpenMP threads, every output shows stress under each function
it was inlined into, with its exact calls (elements x steps, split between
the threads by the static schedule), no time, marked inlined:

- JSON: "inlined": true on those stacks and on no other, times 0 on every
  thread, no callees; uninstrumented.inlined names stress with its 2 sites;
- logfile: the header's inlined line says counted; their rows have '^'
  after the calls and times 0, each table with them ends with the '^'
  line; the stack list ends their paths with "[inlined]", no other;
- folded stacks: no line for them, every other stack as usual;
- speedscope: a sample of weight 0 per thread that counted, its last frame
  "stress(int, double) [inlined]";
- Hatchet: their nodes with their calls and times 0, the "inlined" column
  true on them and false on every other row;
- HTML report: the embedded profile keeps "inlined"; the function table
  marks stress inlined with its calls; and, on a copy of the profile with
  a time on every other stack (so that no frame depends on the machine's
  speed), each caller's hover text in the flame graph gives its counted
  calls, and a function with some counted calls is marked partly inlined.

Skipped (77) without the GCC plugin; the page's part without chromium."""
import json
import os
import re
import shutil
import subprocess
import sys

from htlib import *
from formats_lib import *

EXE = program("inlined_counts")
if not os.path.exists(EXE):
    print("SKIP: %s was not built (hooktrace's GCC plugin was not)" % EXE)
    sys.exit(77)
HAVE_CHROMIUM = any(shutil.which(n) for n in ("chromium", "chromium-browser"))
if HAVE_CHROMIUM:
    import browser
TOOL = os.path.join(BUILDDIR, "hooktrace-report")

ELEMENTS, STEPS = 300, 5
STRESS = "stress(int, double)"
REGION = "forces(double) [clone ._omp_fn.0]"
FORCES = "main;forces(double)"
CHECK = "main;check_forces(double)"
CONFIG = {"outputs": {"speedscope": True, "hatchet": True}}


ROW = re.compile(r"^ *(\d+[*^]?) +([\d.]+) +[\d.]+ +([\d.]+)  (.+?) {2,}(.+?) {2,}(\d+)$")


def log_rows(log):
    """The profile tables' rows: [(table title, calls as printed, t_excl,
    t_incl, function, caller, stack ID)]."""
    rows, title = [], None
    for line in log.split("\nCall stacks", 1)[0].splitlines():
        if line.startswith("Runtime profile"):
            title = line
        m = ROW.match(line) if title else None
        if m:
            rows.append((title,) + m.groups()[:5] + (int(m.group(6)),))
    return rows


outputs = set()
for threads in (1, 2):
    what = "%d thread%s" % (threads, "s" if threads > 1 else "")
    r = run(EXE, [str(STEPS)], config=CONFIG,
            env={"OMP_NUM_THREADS": str(threads), "OMP_DYNAMIC": "false",
                 "OMP_WAIT_POLICY": "passive"})
    check_eq(r.returncode, 0, "%s: exit status (stderr: %s)" % (what, r.stderr))
    outputs.add(r.stdout)
    raw = json.loads(r.text(".json"))
    p = r.profile()

    # --- JSON -----------------------------------------------------------------
    per_thread = ELEMENTS * STEPS // threads
    expected = {FORCES + ";" + REGION + ";" + STRESS: {0: per_thread},
                CHECK + ";" + STRESS: {0: ELEMENTS * STEPS}}
    if threads == 2:  # the other thread's root is the region (openmp.py)
        expected[REGION + ";" + STRESS] = {1: per_thread}
    inlined = {path: s for path, s in p.by_path.items() if "inlined" in s}
    check_eq({path: p.thread_calls(path) for path in inlined}, expected,
             what + ": the inlined stacks, their calls per thread")
    check_eq(sorted(path for path in p.by_path if path.endswith(";" + STRESS)), sorted(expected),
             what + ": every stack of stress is one of counted copies")
    for path, s in inlined.items():
        check(s["inlined"] is True, what + ": %s: \"inlined\": true" % path)
        check_eq((s["calls"], s["time_incl_s"], s["time_excl_s"]),
                 (sum(expected[path].values()), 0, 0), what + ": %s: calls, no time" % path)
        figures = p.threads_of(s)
        check_eq([(t["time_incl_s"], t["time_excl_s"]) for t in figures],
                 [(0, 0)] * len(figures), what + ": %s: no time on any thread" % path)
    ids = {s["id"] for s in inlined.values()}
    check_eq([s["id"] for s in p.doc["stacks"] if s["parent"] in ids], [],
             what + ": counted copies have no callees")
    check_eq(raw["uninstrumented"]["inlined"],
             {"functions": 1, "sites": 2, "names": [{"name": STRESS, "sites": 2}]},
             what + ": uninstrumented.inlined names stress at its 2 sites")

    # --- logfile --------------------------------------------------------------
    log = r.text(".log")
    check("\ninlined:         1 function counted (calls, not timed) at 2 inlined call sites by the"
          " GCC plugin, marked ^ (named in the JSON; docs/plugin.md)\n" in log,
          what + ": the header's inlined line says counted")
    rows = log_rows(log)
    marked = sorted((row[0].split(" (")[0], row[1], row[2], row[3], row[4], row[6])
                    for row in rows if row[1].endswith("^"))
    want = []
    for path, by_thread in expected.items():
        sid = p.by_path[path]["id"]
        want.append(("Runtime profile, all threads", "%d^" % sum(by_thread.values()),
                     "0.000000", "0.000000", STRESS, sid))
        for t, calls in by_thread.items():
            if threads > 1:
                want.append(("Runtime profile, thread %d" % t, "%d^" % calls,
                             "0.000000", "0.000000", STRESS, sid))
    check_eq(marked, sorted(want), what + ": the rows marked ^ are the counted copies'")
    check(all(not row[1].endswith(("^", "*")) for row in rows if row[4] != STRESS),
          what + ": no other row is marked")
    legend = "^ inlined: calls of inlined copies, counted, not timed: their time is the caller's" \
             " exclusive time"
    check_eq(log.count("\n" + legend + "\n"), len({row[0] for row in want}),
             what + ": the legend under each table with counted copies")
    stack_list = log.split("\nCall stacks", 1)[-1].splitlines()
    check_eq(sorted(int(line.split(":")[0]) for line in stack_list if line.endswith(" [inlined]")),
             sorted(ids), what + ": the stack list marks exactly them [inlined]")

    # --- folded ---------------------------------------------------------------
    folded = r.text(".folded")
    check_folded(folded, p.doc, what + " folded")
    check_eq([line for line in folded.splitlines() if STRESS in line], [],
             what + ": no folded line for the counted copies (no time)")

    # --- speedscope -----------------------------------------------------------
    scope = json.loads(r.text(".speedscope.json"))
    samples = speedscope_samples(scope, what + " speedscope: ")
    names = thread_names(p)
    check_eq(list(samples), names, what + ": a speedscope profile per thread")
    want_samples = expected_samples(p)
    for t, name in enumerate(names):
        check_eq(samples.get(name), want_samples[t], what + ": thread %d's samples" % t)
    zero = {t: {path + " [inlined]": 0 for path, by_thread in expected.items() if t in by_thread}
            for t in range(threads)}
    check_eq({t: {k: v for k, v in samples.get(n, {}).items() if v == 0} for t, n in enumerate(names)},
             zero, what + ": the counted copies' samples, weight 0, last frame [inlined]")
    frames = [f["name"] for f in scope["shared"]["frames"]]
    check_eq(frames.count(STRESS + " [inlined]"), 1, what + ": one [inlined] frame for stress")
    check_eq(frames[-1], "[...]", what + ": [...] still the last frame")

    # --- Hatchet --------------------------------------------------------------
    hatchet = json.loads(r.text(".hatchet.json"))
    nodes, _ = hatchet_nodes(hatchet, what + " hatchet: ")
    check_eq(nodes, expected_nodes(p), what + ": Hatchet nodes are the JSON's stacks")
    check_eq({row["node"]: row.get("inlined") for row in hatchet["dataframe"]},
             {s["id"]: s["id"] in ids for s in p.doc["stacks"]},
             what + ": Hatchet's inlined column, true on the counted copies only")

    # --- HTML report ----------------------------------------------------------
    if HAVE_CHROMIUM:
        embedded = browser.embedded(r.path(".html"))
        check(embedded != "" and json.loads(embedded) == browser.lean(raw),
              what + ": the page embeds the profile, \"inlined\" kept")
        page, errors, page_errors = browser.load(r.path(".html"))
        if page is not None:
            browser.expect_no_errors(errors, page_errors, what + " page")
            trs = {tr.get("data-function"): tr
                   for tr in page.by_id("ht-functions").find_all("tr", data_function=None)}
            stress = trs.get(STRESS)
            check_eq((stress.get("class"), stress.get("data-calls"), stress.get("data-inlined-calls"))
                     if stress else None, ("inlined", str(2 * ELEMENTS * STEPS), str(2 * ELEMENTS * STEPS)),
                     what + ": the function table marks stress inlined, with its calls")
            check_eq([n for n, tr in trs.items() if n != STRESS and
                      (tr.get("data-inlined-calls") or "inlined" in (tr.get("class") or ""))], [],
                     what + ": no other row marked")
            check(page.by_id("ht-functions-inlined").get("hidden") is None,
                  what + ": the line saying what (inlined) means is shown")
            note = page.by_id("ht-flame-note")
            check_eq(sum(int(note.get(k)) for k in ("data-shown", "data-left-out", "data-inlined")),
                     len(p.doc["stacks"]), what + ": stacks drawn, left out and inlined add up")
    else:
        print("note: chromium is not installed: the page's checks are skipped")
check_eq(len(outputs), 1, "the program prints the same on 1 and 2 threads: %r" % outputs)

# --- the flame graph, on a copy with a time on every other stack ---------------
# r, raw and p are the 2-thread run's.  Each stack that is not a counted
# copy gets 1 s of exclusive time, so every one is drawn whatever the run's
# times were; check_forces's copy is made a timed stack of stress, so that
# stress is partly inlined.
if HAVE_CHROMIUM:
    doc = json.loads(r.text(".json"))
    partly = p.by_path[CHECK + ";" + STRESS]["id"]
    del doc["stacks"][partly]["inlined"]
    timed = [s for s in doc["stacks"] if not s.get("inlined")]
    for s in reversed(doc["stacks"]):
        s["time_excl_s"] = 1.0 if not s.get("inlined") else 0.0
        s["time_incl_s"] = s["time_excl_s"] + sum(c["time_incl_s"] for c in doc["stacks"]
                                                  if c["parent"] == s["id"])
    path = os.path.join(r.directory, "timed.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    proc = subprocess.run([TOOL, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    check_eq((proc.returncode, proc.stderr), (0, ""), "hooktrace-report timed.json")
    page, errors, page_errors = browser.load(os.path.join(r.directory, "timed.html"))
    if page is not None:
        browser.expect_no_errors(errors, page_errors, "timed.html")
        note = page.by_id("ht-flame-note")
        counted = [s for s in doc["stacks"] if s.get("inlined")]
        check_eq((note.get("data-shown"), note.get("data-left-out"), note.get("data-inlined")),
                 (str(len(timed)), "0", str(len(counted))),
                 "timed.html: every timed stack drawn, each counted copy in its caller's text")
        names = [doc["functions"][s["function_index"]]["name"] for s in doc["stacks"]]
        lines = {}
        for g in page.by_id("ht-flame").find_all("g", name=None):
            title = g.find_all("title")
            text = title[0].text if title else ""
            lines.setdefault(g.get("name"), []).extend(
                line for line in text.split("\n")[1:] if "inlined" in line)
        want = {}
        for s in counted:
            want.setdefault(names[s["parent"]], []).append(
                "%s inlined: %s calls, counted, not timed" % (STRESS, "{:,}".format(s["calls"])))
        check_eq({k: sorted(v) for k, v in lines.items() if v}, {k: sorted(v) for k, v in want.items()},
                 "timed.html: each caller's hover text gives its counted copies' calls")
        check_eq([g.get("name") for g in page.by_id("ht-flame").find_all("g", name=None)].count(STRESS),
                 1, "timed.html: a frame for the timed stack of stress only")
        tr = {t.get("data-function"): t for t in page.by_id("ht-functions").find_all(
            "tr", data_function=None)}.get(STRESS)
        check_eq((tr.get("class"), tr.get("data-calls"), tr.get("data-inlined-calls")) if tr else None,
                 ("partly-inlined", str(2 * ELEMENTS * STEPS), str(ELEMENTS * STEPS)),
                 "timed.html: stress is partly inlined, half its calls counted")
finish()
