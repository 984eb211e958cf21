"""The HTML report of a 4-rank run (docs/report.md), loaded
in headless chromium: test/mpi/report_mpi.c's halo exchange gives a
communication matrix whose every cell differs; the page's matrix cells
equal the JSON's comm_matrix and coll_matrix exactly, its function table
has one row per function with the JSON's call counts (and sorts by the
column the URL names), the time-per-rank bars carry the JSON's figures,
the flame graph and its search work, and the page reports no error.
hooktrace-report on the same JSON writes the same page.

The lean page (issue 27): it is at most 200 KB and embeds exactly the
members of the profile it shows (MPI_T's control variables, per-thread and
per-rank message figures left out); its menu links exactly the sections
shown; the flame graph's frames are drawn at the load event already; and
the rank selector (#rank=2, #rank=slowest) shows a rank's flame graph and
function table, whose figures equal that rank's own profile JSON
(mpi.rank_files "all") exactly.  Skipped (77) without chromium."""
import json
import os
import subprocess

from mpilib import *
import browser

require_launcher()
browser.chromium()  # skip before running anything if it is absent
N = 4
ITERATIONS = 3
REPORT_TOOL = os.path.join(BUILDDIR, "hooktrace-report")

r = mpirun(mpi_program("report_mpi"), N, config={"mpi": {"rank_files": "all"}})
check_status(r, 0, "report_mpi")
check_eq(r.stdout, "report_mpi: residual %d\n"
         % sum(sum((i * (it + 1)) % 7 for i in range(1000 * (rank + 1)))
               for it in range(ITERATIONS) for rank in range(N)), "the program's output")
p = r.summary()
check(r.exists(".html"), "report_mpi.html written beside report_mpi.json (files: %s)" % r.files())
if p is None or not r.exists(".html"):
    finish()
with open(r.path(".json")) as f:
    doc = json.load(f)  # as written: Profile() adds fields of its own

# The pattern: r sends 16 (r + 1) ints to r + 1 and 8 (r + 1) ints to r - 1,
# ITERATIONS times.
expected = {}
for rank in range(N):
    expected[(rank, (rank + 1) % N)] = (ITERATIONS, ITERATIONS * 16 * (rank + 1) * INT)
    expected[(rank, (rank - 1) % N)] = (ITERATIONS, ITERATIONS * 8 * (rank + 1) * INT)
check_eq(p.matrix("comm_matrix"), expected, "comm_matrix of the JSON")


def dom_matrix(page, ident):
    table = page.by_id(ident)
    if not check(table is not None, "the page has #%s" % ident):
        return {}
    cells = {}
    for td in table.find_all("td", data_sender=None):
        key = (int(td.get("data-sender")), int(td.get("data-receiver")))
        check(key not in cells, "#%s: cell %r once" % (ident, key))
        cells[key] = (int(td.get("data-messages")), int(td.get("data-bytes")))
        check_eq(td.text, "{:,}".format(cells[key][0]), "#%s %r: the cell shows its messages" % (ident, key))
        check_eq(td.get("title"), "rank %d to rank %d: %s messages, %s bytes"
                 % (key[0], key[1], "{:,}".format(cells[key][0]), "{:,}".format(cells[key][1])),
                 "#%s %r: hover text" % (ident, key))
    return cells


def json_matrix(name):
    return {(c["sender"], c["receiver"]): (c["messages"], c["bytes"]) for c in doc[name]}


def function_calls():
    calls = {}
    for s in doc["stacks"]:
        name = doc["functions"][s["function_index"]]["name"]
        calls[name] = calls.get(name, 0) + s["calls"]
    return calls


def check_rank_bars(page, doc):
    """Time per rank: the contract's rank_time_incl_s when the summary has
    it, else the imbalance of the 16 slowest stacks."""
    box = page.by_id("ht-rank-times")
    groups = box.find_all("div", data_stack=None)
    if "rank_time_stacks" in doc:
        check_eq(box.get("data-kind"), "rank_time_incl_s", "rank bars from rank_time_incl_s")
        check_eq([int(g.get("data-stack")) for g in groups], doc["rank_time_stacks"],
                 "one group of bars per rank_time_stacks entry, in order")
        for g in groups:
            s = doc["stacks"][int(g.get("data-stack"))]
            check_eq([float(b.get("data-seconds")) for b in g.find_all("div", data_rank=None)],
                     s["rank_time_incl_s"], "stack %s: a bar per rank" % g.get("data-stack"))
    else:
        check_eq(box.get("data-kind"), "imbalance", "rank bars from imbalance")
        top = sorted(range(len(doc["stacks"])),
                     key=lambda i: (-doc["stacks"][i]["imbalance"]["max_s"], i))[:16]
        check_eq([int(g.get("data-stack")) for g in groups], top,
                 "the 16 stacks of largest max_s, in order")
        for g in groups:
            im = doc["stacks"][int(g.get("data-stack"))]["imbalance"]
            check_eq([float(b.get("data-seconds")) for b in g.find_all("div", data_stat=None)],
                     [im["min_s"], im["avg_s"], im["max_s"]], "stack %s: min, avg, max bars"
                     % g.get("data-stack"))



page, errors, page_errors = browser.load(r.path(".html"))
if page is not None:
    browser.expect_no_errors(errors, page_errors, "report_mpi.html")
    summary = {dd.get("data-key"): dd.text for dd in page.by_id("ht-summary").find_all("dd")}
    check_eq(summary.get("ranks"), "4", "summary: ranks")
    check_eq(summary.get("stacks"), str(len(doc["stacks"])), "summary: stacks")

    # the matrices: exactly the JSON's cells, which are the pattern's
    check_eq(dom_matrix(page, "ht-comm-matrix"), expected, "the page's comm_matrix")
    check_eq(dom_matrix(page, "ht-comm-matrix"), json_matrix("comm_matrix"),
             "the page's comm_matrix is the JSON's")
    check(len(doc["coll_matrix"]) > 0, "the Allreduce gives coll_matrix cells")
    check_eq(dom_matrix(page, "ht-coll-matrix"), json_matrix("coll_matrix"),
             "the page's coll_matrix is the JSON's")

    # the function table: one row per function, the JSON's calls
    rows = page.by_id("ht-functions").find_all("tr", data_function=None)
    table_calls = {tr.get("data-function"): int(tr.get("data-calls")) for tr in rows}
    check_eq(len(rows), len(table_calls), "one row per function")
    check_eq(table_calls, function_calls(), "function table: the JSON's calls per function")
    for name, calls in {"main": N, "halo_exchange": N * ITERATIONS,
                        "MPI_Sendrecv": 2 * N * ITERATIONS, "compute_step": N * ITERATIONS,
                        "residual": N * ITERATIONS, "MPI_Allreduce": N * ITERATIONS,
                        "MPI_Init": N, "MPI_Finalize": N}.items():
        check_eq(table_calls.get(name), calls, "function table: calls of %s" % name)
    check_eq(page.by_id("ht-functions").get("data-sorted"), "incl", "sorted by inclusive time")
    incl = [float(tr.get("data-incl")) for tr in rows]
    check_eq(incl, sorted(incl, reverse=True), "rows by decreasing inclusive time")

    check("rank_time_stacks" in doc, "the summary has rank_time_stacks (mpi.rank_times_top is 16 by default)")
    check_rank_bars(page, doc)

    # the flame graph: a frame per shown stack, plus the root
    frames = page.by_id("ht-flame").find_all("g", name=None)
    names = [g.get("name") for g in frames]
    note = page.by_id("ht-flame-note")
    check_eq(len(frames), int(note.get("data-shown")) + 1, "a frame per shown stack, and the root")
    check_eq(int(note.get("data-shown")) + int(note.get("data-left-out")), len(doc["stacks"]),
             "shown and left-out stacks add up")
    check_eq(names.count("main"), 1, "the flame graph has main")
    check_eq(names.count("MPI_Init"), 1, "the flame graph has MPI_Init")
    check(doc["throttle"]["functions"] == 0 and page.by_id("ht-throttled-section").get("hidden")
          is not None, "no throttled section without throttled functions")
    check(page.by_id("ht-counters-section").get("hidden") is not None,
          "no counters section without counters")

# sorting, chosen by the URL: by calls (largest first), by name (A to Z)
page, errors, page_errors = browser.load(r.path(".html"), "sort=calls&search=MPI_Init")
if page is not None:
    browser.expect_no_errors(errors, page_errors, "report_mpi.html#sort=calls")
    table = page.by_id("ht-functions")
    check_eq((table.get("data-sorted"), table.get("data-order")), ("calls", "descending"),
             "#sort=calls sorts by calls")
    got = [(tr.get("data-function"), int(tr.get("data-calls")))
           for tr in table.find_all("tr", data_function=None)]
    check_eq(got, sorted(function_calls().items(), key=lambda kv: (-kv[1], kv[0])),
             "rows by decreasing calls, then by name")
    check_eq(page.by_id("ht-search-result").get("data-matches"), "1",
             "#search=MPI_Init highlights its one frame")
page, errors, page_errors = browser.load(r.path(".html"), "sort=name&order=ascending")
if page is not None:
    browser.expect_no_errors(errors, page_errors, "report_mpi.html#sort=name")
    got = [tr.get("data-function") for tr in page.by_id("ht-functions").find_all("tr", data_function=None)]
    check_eq(got, sorted(function_calls()), "#sort=name: rows by name")

# --- the lean page -----------------------------------------------------------
PAGE_LIMIT = 200 * 1024
size = os.path.getsize(r.path(".html"))
check(size <= PAGE_LIMIT, "report_mpi.html is %d bytes, at most %d" % (size, PAGE_LIMIT))
page_text = open(r.path(".html"), encoding="utf-8").read()
start = page_text.find('<script type="application/json" id="ht-profile">')
embedded = json.loads(page_text[start:].split(">", 1)[1].split("</script>", 1)[0])
LEFT_OUT_TOP = {"mpi_t", "thread_tids", "thread_groups", "uninstrumented"}
check("mpi_t" in doc and doc["mpi_t"].get("cvars_read", 0) > 0 and r.exists(".mpit.json"),
      "the JSON counts MPI_T's control variables, which are in report_mpi.mpit.json")
check_eq(list(embedded), [k for k in doc if k not in LEFT_OUT_TOP],
         "the page embeds the JSON's members but %s, in order" % sorted(LEFT_OUT_TOP))
for k in embedded:
    if k not in ("functions", "stacks", "throttle"):
        check_eq(embedded[k], doc[k], "the page's %s is the JSON's" % k)
check_eq(embedded["throttle"], {k: v for k, v in doc["throttle"].items()
                                if k not in ("exclude_symbols", "exclude_function_list")},
         "the page's throttle: the JSON's but the symbol lists")
check_eq(embedded["functions"], [{"name": f["name"]} for f in doc["functions"]],
         "the page's functions: their names")
check_eq(embedded["stacks"], [{k: v for k, v in st.items() if k not in ("threads", "ranks", "pvars")}
                              for st in doc["stacks"]],
         "the page's stacks: the JSON's but threads, ranks and pvars")

# the per-rank profiles of the summary: each rank's stacks, equal to its own file
by_rank = {rp["rank"]: rp for rp in doc.get("rank_profiles", [])}
check_eq(sorted(by_rank), list(range(N)), "rank_profiles: every rank of 4 (mpi.rank_profiles_all: 4)")
check_eq([rp["why"] for rp in doc.get("rank_profiles", [])], ["every rank"] * N, "rank_profiles: why")
check("rank_profiles" in embedded, "the page embeds rank_profiles")
summary_paths = {}
snames = [doc["functions"][st["function_index"]]["name"] for st in doc["stacks"]]
for st in doc["stacks"]:
    summary_paths[st["id"]] = (summary_paths[st["parent"]] if st["parent"] >= 0 else ()) + (snames[st["id"]],)
own_docs = {}
for rank in range(N):
    own_path = r.path("_%d.json" % rank)
    if not check(os.path.exists(own_path), "rank %d wrote its own JSON" % rank):
        continue
    with open(own_path) as f:
        own_docs[rank] = json.load(f)
    own = own_docs[rank]
    onames = [own["functions"][st["function_index"]]["name"] for st in own["stacks"]]
    opaths = {}
    for st in own["stacks"]:
        opaths[st["id"]] = (opaths[st["parent"]] if st["parent"] >= 0 else ()) + (onames[st["id"]],)
    rp = by_rank.get(rank, {"stacks": [], "time_incl_s": None})
    check_eq([(summary_paths[row[0]], row[1], row[2], row[3]) for row in rp["stacks"]],
             [(opaths[st["id"]], st["calls"], st["time_incl_s"], st["time_excl_s"])
              for st in own["stacks"]],
             "rank_profiles of rank %d: its own file's stacks, figures and order" % rank)


def own_function_rows(own):
    """The function table of one rank's own JSON, as the page computes it:
    calls, stacks and exclusive time summed over the function's stacks,
    inclusive time over its outermost stacks only, in ID order."""
    names = [own["functions"][st["function_index"]]["name"] for st in own["stacks"]]
    paths, rows = {}, {}
    for st in own["stacks"]:
        path = (paths[st["parent"]] if st["parent"] >= 0 else ()) + (names[st["id"]],)
        paths[st["id"]] = path
        row = rows.setdefault(path[-1], [0, 0, 0.0, 0.0])
        row[0] += 1
        row[1] += st["calls"]
        if path[-1] not in path[:-1]:
            row[2] += st["time_incl_s"]
        row[3] += st["time_excl_s"]
    return {name: tuple(v) for name, v in rows.items()}


def page_function_rows(page):
    return {tr.get("data-function"): (int(tr.get("data-stacks")), int(tr.get("data-calls")),
                                      float(tr.get("data-incl")), float(tr.get("data-excl")))
            for tr in page.by_id("ht-functions").find_all("tr", data_function=None)}


page, errors, page_errors = browser.load(r.path(".html"), probe=True)
if page is not None:
    browser.expect_no_errors(errors, page_errors, "report_mpi.html (probed)")
    browser.check_menu(page, ["ht-tree-section", "ht-flame-section", "ht-functions-section",
                              "ht-matrix-section", "ht-rank-section"], "report_mpi.html")
    body = page.find_all("body")[0]
    shown = int(page.by_id("ht-flame-note").get("data-shown"))
    check_eq((int(body.get("data-probe-rects")), int(body.get("data-probe-drawn"))),
             (shown + 1, shown + 1), "at the load event, every frame of the flame graph is drawn")
    check_eq(page.by_id("ht-functions").get("data-view"), "all", "the table shows all ranks first")
    options = [o.get("value") for o in page.by_id("ht-rank").find_all("option")]
    check_eq(options, ["all", "slowest", "0", "1", "2", "3"], "the rank selector's choices")

slowest = max(doc.get("rank_profiles", [{"rank": -1, "time_incl_s": 0}]),
              key=lambda rp: (rp["time_incl_s"], -rp["rank"]))["rank"]
for fragment, rank in (("rank=2", 2), ("rank=slowest", slowest)):
    page, errors, page_errors = browser.load(r.path(".html"), fragment)
    if page is None or rank not in own_docs:
        continue
    browser.expect_no_errors(errors, page_errors, "report_mpi.html#" + fragment)
    own = own_docs[rank]
    check_eq(page.by_id("ht-functions").get("data-view"), str(rank), "#%s: the table of rank %d"
             % (fragment, rank))
    check_eq(page_function_rows(page), own_function_rows(own),
             "#%s: the function table is rank %d's own JSON's, exactly" % (fragment, rank))
    check_eq(page_function_rows(page).get("halo_exchange", (0, 0))[1], ITERATIONS,
             "#%s: rank %d called halo_exchange %d times" % (fragment, rank, ITERATIONS))
    note = page.by_id("ht-flame-note")
    check_eq((note.get("data-view"), int(note.get("data-shown")) + int(note.get("data-left-out"))),
             (str(rank), len(own["stacks"])), "#%s: the flame graph has rank %d's stacks" % (fragment, rank))

# mpi.rank_profiles_all 3, below the 4 ranks: the slowest, the median and
# the fastest rank, each its own file's; 0: none, and no selector
r3 = mpirun(mpi_program("report_mpi"), N, config={"mpi": {"rank_files": "all", "rank_profiles_all": 3}})
check_status(r3, 0, "report_mpi, rank_profiles_all 3")
with open(r3.path(".json")) as f:
    doc3 = json.load(f)
few = doc3.get("rank_profiles", [])
check_eq([rp["why"] for rp in few], ["slowest", "median", "fastest"], "rank_profiles_all 3: why")
check_eq(len(set(rp["rank"] for rp in few)), 3, "rank_profiles_all 3: three ranks")
times = [rp["time_incl_s"] for rp in few]
check_eq(times, sorted(times, reverse=True), "rank_profiles_all 3: slowest, median, fastest by time")
paths3 = {}
names3 = [doc3["functions"][st["function_index"]]["name"] for st in doc3["stacks"]]
for st in doc3["stacks"]:
    paths3[st["id"]] = (paths3[st["parent"]] if st["parent"] >= 0 else ()) + (names3[st["id"]],)
for rp in few:
    with open(r3.path("_%d.json" % rp["rank"])) as f:
        own = json.load(f)
    onames = [own["functions"][st["function_index"]]["name"] for st in own["stacks"]]
    opaths = {}
    for st in own["stacks"]:
        opaths[st["id"]] = (opaths[st["parent"]] if st["parent"] >= 0 else ()) + (onames[st["id"]],)
    check_eq([(paths3[row[0]], row[1], row[2], row[3]) for row in rp["stacks"]],
             [(opaths[st["id"]], st["calls"], st["time_incl_s"], st["time_excl_s"]) for st in own["stacks"]],
             "rank_profiles_all 3: the %s rank's stacks are its own file's" % rp["why"])
page, errors, page_errors = browser.load(r3.path(".html"), "rank=" + str(few[1]["rank"]) if few else "")
if page is not None and few:
    browser.expect_no_errors(errors, page_errors, "rank_profiles_all 3")
    check_eq([o.get("value") for o in page.by_id("ht-rank").find_all("option")],
             ["all", "slowest"] + [str(rp["rank"]) for rp in few], "rank_profiles_all 3: the choices")
    check_eq(page.by_id("ht-functions").get("data-view"), str(few[1]["rank"]),
             "rank_profiles_all 3: #rank= the median rank")
    with open(r3.path("_%d.json" % few[1]["rank"])) as f:
        check_eq(page_function_rows(page), own_function_rows(json.load(f)),
                 "rank_profiles_all 3: the median rank's table is its own JSON's")
r0 = mpirun(mpi_program("report_mpi"), N, config={"mpi": {"rank_profiles_all": 0}})
check_status(r0, 0, "report_mpi, rank_profiles_all 0")
with open(r0.path(".json")) as f:
    check("rank_profiles" not in json.load(f), "rank_profiles_all 0: no rank_profiles")
page, errors, page_errors = browser.load(r0.path(".html"))
if page is not None:
    browser.expect_no_errors(errors, page_errors, "rank_profiles_all 0")
    check(page.by_id("ht-view").get("hidden") is not None, "rank_profiles_all 0: no rank selector")
# By default beyond 4 ranks (mpi.rank_profiles_all 4): the slowest, the
# median and the fastest rank only
r5 = mpirun(mpi_program("report_mpi"), 5)
check_status(r5, 0, "report_mpi, 5 ranks")
if check(r5.exists(".json"), "report_mpi, 5 ranks: the summary"):
    with open(r5.path(".json")) as f:
        check_eq([rp["why"] for rp in json.load(f).get("rank_profiles", [])],
                 ["slowest", "median", "fastest"], "5 ranks, by default: three ranks' profiles")

# hooktrace-report on the same JSON: the same page
out = os.path.join(r.directory, "again.html")
proc = subprocess.run([REPORT_TOOL, r.path(".json"), "-o", out], stdout=subprocess.PIPE,
                      stderr=subprocess.PIPE, universal_newlines=True)
check_eq((proc.returncode, proc.stdout, proc.stderr), (0, "", ""), "hooktrace-report -o")
if os.path.exists(out):
    with open(out, "rb") as a, open(r.path(".html"), "rb") as b:
        check(a.read() == b.read(), "hooktrace-report writes the page the run wrote")
# a summary without the per-rank times (mpi.rank_times_top 0, or a profile
# from before they existed): the bars fall back to min, avg and max
old = dict(doc)
old.pop("rank_time_stacks")
old["stacks"] = [{k: v for k, v in s.items() if k != "rank_time_incl_s"} for s in doc["stacks"]]
old_json = os.path.join(r.directory, "no_rank_times.json")
with open(old_json, "w") as f:
    json.dump(old, f)
old_html = os.path.join(r.directory, "no_rank_times.html")
proc = subprocess.run([REPORT_TOOL, old_json, "-o", old_html], stdout=subprocess.PIPE,
                      stderr=subprocess.PIPE, universal_newlines=True)
check_eq((proc.returncode, proc.stderr), (0, ""), "hooktrace-report on the summary without rank times")
page, errors, page_errors = browser.load(old_html)
if page is not None:
    browser.expect_no_errors(errors, page_errors, "no_rank_times.html")
    check_rank_bars(page, old)
finish()
