"""The HTML report of a 4-rank run (docs/output.md, "HTML report"), loaded
in headless chromium: test/mpi/report_mpi.c's halo exchange gives a
communication matrix whose every cell differs; the page's matrix cells
equal the JSON's comm_matrix and coll_matrix exactly, its function table
has one row per function with the JSON's call counts (and sorts by the
column the URL names), the time-per-rank bars carry the JSON's figures,
the flame graph and its search work, and the page reports no error.
hooktrace-report on the same JSON writes the same page.  Skipped (77)
without chromium."""
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

r = mpirun(mpi_program("report_mpi"), N)
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
