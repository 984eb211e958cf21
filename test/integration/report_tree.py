#!/usr/bin/env python3
"""The HTML report's call tree (docs/report.md, "Call tree"; issue 38),
loaded in headless chromium: it is the first section after the summary; a
row per call stack drawn, with the JSON's exact calls, inclusive and
exclusive time, share of the total, messages and bytes; the roots'
callees shown at first; #tree=, #tsort=, #torder=, #find= and #node= in
the address open it at a chosen view; clicks expand and collapse one
node or all, sort, search and zoom the flame graph, and write the view
into the address; a profile of 100,000 stacks draws only the rows
expanded.  Skipped (77) without chromium."""
import json
import os

import browser
from htlib import BUILDDIR, check, check_eq, finish, program, run

browser.chromium()
TOOL = os.path.join(BUILDDIR, "hooktrace-report")


def page_of(doc, directory, name):
    path = os.path.join(directory, name + ".json")
    with open(path, "w") as f:
        json.dump(doc, f)
    check_eq(run_tool(path), 0, "hooktrace-report %s.json" % name)
    return os.path.join(directory, name + ".html")


def run_tool(path):
    import subprocess
    return subprocess.run([TOOL, path]).returncode


def rows_of(page):
    return page.by_id("ht-tree").find_all("tr", data_stack=None)


def expected_rows(doc, expanded, key="incl", order="descending", shown=None):
    """The stack IDs of the rows, in order: depth first, each node's
    children sorted by key (ties by ID), those of an expanded node only."""
    names = [doc["functions"][s["function_index"]]["name"] for s in doc["stacks"]]
    kids = {}
    for s in doc["stacks"]:
        kids.setdefault(s["parent"], []).append(s["id"])
    get = {"incl": lambda i: doc["stacks"][i]["time_incl_s"],
           "calls": lambda i: doc["stacks"][i]["calls"], "name": lambda i: names[i]}[key]
    out = []

    def walk(ids):
        ids = sorted(ids, key=lambda i: i)
        ids.sort(key=get, reverse=order == "descending")
        for i in ids:
            if shown is not None and i not in shown:
                continue
            out.append(i)
            if i in expanded:
                walk(kids.get(i, []))
    walk(kids.get(-1, []))
    return out


# --- a real run: the first section, the JSON's figures ---------------------
r = run(program("basic"))
doc = json.loads(r.text(".json"))
page, errors, page_errors = browser.load(r.path(".html"))
if page is not None:
    browser.expect_no_errors(errors, page_errors, "basic.html")
    check_eq(browser.shown_sections(page)[0], "ht-tree-section", "the call tree is the first section")
    check_eq(browser.menu(page)[0], "ht-tree-section", "the menu's first entry is the call tree")
    roots = [s["id"] for s in doc["stacks"] if s["parent"] < 0]
    check_eq([int(tr.get("data-stack")) for tr in rows_of(page)], expected_rows(doc, set(roots)),
             "basic.html: the roots and their callees, by inclusive time")
    for tr in rows_of(page):
        s = doc["stacks"][int(tr.get("data-stack"))]
        check_eq((int(tr.get("data-calls")), float(tr.get("data-incl")), float(tr.get("data-excl")),
                  int(tr.get("data-parent"))),
                 (s["calls"], s["time_incl_s"], s["time_excl_s"], s["parent"]),
                 "basic.html: stack %d's calls, times and parent" % s["id"])

# --- made-up times and messages: every view of the address -----------------
made = dict(doc)
incl = {0: 1.0, 1: 0.25, 2: 0.1, 3: 0.4, 4: 0.35, 5: 0.2, 6: 0.15, 7: 0.05}
check_eq([(s["id"], s["parent"]) for s in doc["stacks"]],
         [(0, -1), (1, 0), (2, 1), (3, 0), (4, 0), (5, 4), (6, 5), (7, 4)], "basic's stacks")
made["stacks"] = []
for s in doc["stacks"]:
    t = dict(s, time_incl_s=incl[s["id"]])
    t["time_excl_s"] = incl[s["id"]] - sum(incl[c["id"]] for c in doc["stacks"] if c["parent"] == s["id"])
    if s["id"] in (2, 6):
        t.update(messages_sent=10 * s["id"], messages_received=s["id"], bytes_sent=1000 * s["id"],
                 bytes_received=4096 * s["id"])
    made["stacks"].append(t)
every = {0, 1, 4, 5}
path = page_of(made, r.directory, "made")
page, errors, page_errors = browser.load(path, "tree=all")
if page is not None:
    browser.expect_no_errors(errors, page_errors, "made.html#tree=all")
    rows = rows_of(page)
    check_eq([int(tr.get("data-stack")) for tr in rows], [0, 3, 4, 5, 6, 7, 1, 2],
             "#tree=all: every stack, children by inclusive time")
    check_eq([int(tr.get("data-depth")) for tr in rows], [0, 1, 1, 2, 3, 2, 1, 2], "#tree=all: depths")
    check_eq([float(tr.get("data-share")) for tr in rows], [incl[int(tr.get("data-stack"))] for tr in rows],
             "#tree=all: each stack's share of the total (1 s)")
    six = [tr for tr in rows if tr.get("data-stack") == "6"][0]
    check_eq([six.get(k) for k in ("data-messages-sent", "data-messages-received", "data-bytes-sent",
                                   "data-bytes-received")], ["60", "6", "6000", "24576"],
             "stack 6's messages and bytes")
    check_eq([td.text for td in six.find_all("td")][4:],
             ["15.0%", "60 / 6", "5.86 KiB / 24.00 KiB"], "stack 6's share, messages and bytes as text")
    check_eq(float(page.by_id("ht-tree").find_all("tr", data_stack="4")[0].get("data-excl")),
             made["stacks"][4]["time_excl_s"],
             "stack 4's exclusive time")
    check_eq([th.get("data-sort") for th in page.by_id("ht-tree").find_all("th")],
             ["name", "calls", "incl", "excl", "share", "messages", "bytes"], "the tree's columns")
    check_eq([tr.get("aria-expanded") for tr in rows],
             ["true", None, "true", "true", None, None, "true", None], "#tree=all: every caller expanded")

page, errors, page_errors = browser.load(path, "tree=0,4&tsort=calls&torder=ascending")
if page is not None:
    browser.expect_no_errors(errors, page_errors, "made.html#tree=0,4&tsort=calls")
    check_eq([int(tr.get("data-stack")) for tr in rows_of(page)],
             expected_rows(made, {0, 4}, "calls", "ascending"), "#tree=0,4&tsort=calls&torder=ascending")
    check_eq((page.by_id("ht-tree").get("data-sorted"), page.by_id("ht-tree").get("data-order")),
             ("calls", "ascending"), "the tree's sort")

page, errors, page_errors = browser.load(path, "tree=none&find=leaf")
if page is not None:
    browser.expect_no_errors(errors, page_errors, "made.html#find=leaf")
    check_eq([int(tr.get("data-stack")) for tr in rows_of(page)], [0, 4, 5, 6, 7, 1, 2],
             "#find=leaf: the leaves and the stacks on the way to them, expanded")
    check_eq([int(tr.get("data-stack")) for tr in rows_of(page) if "match" in (tr.get("class") or "")],
             [6, 7, 2], "#find=leaf: the matches marked")
    result = page.by_id("ht-tree-result")
    check_eq((result.get("data-matches"), round(float(result.get("data-share")), 12), result.text),
             ("3", 0.3, "3 stacks match, 30.0% of the time"), "#find=leaf: matches and share")

page, errors, page_errors = browser.load(path, "node=5")
if page is not None:
    browser.expect_no_errors(errors, page_errors, "made.html#node=5")
    check_eq(page.by_id("ht-flame").get("data-zoom"), "5", "#node=5: the flame graph zoomed to stack 5")

# --- clicks: they change the view and write it into the address -------------
CLICKS = r"""
window.addEventListener("load", function () {
  var out = {};
  function rows() {
    return Array.prototype.map.call(document.querySelectorAll("#ht-tree tbody tr"),
                                    function (tr) { return Number(tr.getAttribute("data-stack")); });
  }
  function step(name, action) {
    action();
    out[name] = {rows: rows(), hash: location.hash};
  }
  step("collapse 0", function () { document.querySelector('#ht-tree button[data-toggle="0"]').click(); });
  step("expand 0", function () { document.querySelector('#ht-tree button[data-toggle="0"]').click(); });
  step("expand 4", function () { document.querySelector('#ht-tree button[data-toggle="4"]').click(); });
  step("expand all", function () { document.getElementById("ht-tree-expand").click(); });
  step("sort by calls", function () { document.querySelector('#ht-tree th[data-sort="calls"]').click(); });
  step("collapse all", function () { document.getElementById("ht-tree-collapse").click(); });
  step("search", function () {
    var s = document.getElementById("ht-tree-search");
    s.value = "comp";
    s.dispatchEvent(new Event("input"));
  });
  step("click work", function () { document.querySelector('#ht-tree span[data-node="4"]').click(); });
  var fs = document.getElementById("ht-search"), fr = document.getElementById("ht-search-result");
  fs.value = "leaf";
  fs.dispatchEvent(new Event("input"));
  out.flameSearch = [fr.getAttribute("data-matches"), fr.getAttribute("data-share"), fr.textContent];
  var box = document.getElementById("ht-flame"), widest = 0;
  box.querySelectorAll("svg g").forEach(function (g) {
    if (g.getAttribute("name") === "work")
      widest = Math.max(widest, parseFloat(g.querySelector("rect").getAttribute("width")));
  });
  out.zoom = box.getAttribute("data-zoom");
  out.workWidth = widest;
  out.svgWidth = parseFloat(box.querySelector("svg").getAttribute("width"));
  document.body.setAttribute("data-probe-tree", JSON.stringify(out));
});
"""
page, errors, page_errors = browser.load(path, script=CLICKS)
if page is not None:
    browser.expect_no_errors(errors, page_errors, "made.html, clicked")
    got = json.loads(page.find_all("body")[0].get("data-probe-tree") or "{}")
    want = {"collapse 0": ([0], "#tree=none"),
            "expand 0": ([0, 3, 4, 1], "#tree=0"),
            "expand 4": ([0, 3, 4, 5, 7, 1], "#tree=0,4"),
            "expand all": ([0, 3, 4, 5, 6, 7, 1, 2], "#tree=all"),
            "sort by calls": (expected_rows(made, every, "calls"), "#tree=all&tsort=calls"),
            "collapse all": ([0], "#tree=none&tsort=calls"),
            "search": ([0, 4, 5, 1], "#tree=0,4&tsort=calls&find=comp"),
            "click work": ([0, 4, 5, 1], "#tree=0,4&tsort=calls&find=comp&node=4")}
    for name in ("collapse 0", "expand 0", "expand 4", "expand all", "sort by calls", "collapse all",
                 "search", "click work"):
        step = got.get(name, {})
        check_eq((step.get("rows"), step.get("hash")), want[name], "clicked: %s" % name)
    check_eq(got.get("zoom"), "4", "a click on a node zooms the flame graph to its stack")
    fsearch = got.get("flameSearch") or [None, "0", None]
    check_eq((fsearch[0], round(float(fsearch[1]), 12), fsearch[2]), ("3", 0.3, "3 frames match, 30.0% of the time"),
             "the flame graph's search after a zoom: the share of the whole run")
    check(got.get("svgWidth", 0) > 0 and got.get("workWidth") == got.get("svgWidth"),
          "zoomed to work: its frame is the graph's width (%r of %r)"
          % (got.get("workWidth"), got.get("svgWidth")))

# --- C++ names: shortened as the log does, distinct ones kept distinct -----
LAYOUT = "ns::Grid<double, 3, ns::Layout<ns::RowMajor, ns::Padding<64> > >"
SOLVE = "ns::TypeTraits<double>::Scalar ns::solve<%s, ns::Policy<%%d> >(%s&)" % (LAYOUT, LAYOUT)
APPLY = "void ns::apply<%s, ns::Policy<1> >(%%s)" % LAYOUT
FILL = ("std::vector<double, std::allocator<double> >::_M_fill_initialize(unsigned long, "
        "double const&)")
names = ["main", SOLVE % 1, SOLVE % 2, "MPI_Allreduce", APPLY % "int", APPLY % "double", FILL]
shown = {"main": "main", "MPI_Allreduce": "MPI_Allreduce",
         SOLVE % 1: "ns::solve<%s, ns::Policy<1> >" % LAYOUT,  # both "ns::solve<...>": own names
         SOLVE % 2: "ns::solve<%s, ns::Policy<2> >" % LAYOUT,
         APPLY % "int": APPLY % "int", APPLY % "double": APPLY % "double",  # own names alike: whole
         FILL: "std::vector<double, std::allocator<double> >::_M_fill_initialize"}
tree = [(-1, "main"), (0, SOLVE % 1), (1, "MPI_Allreduce"), (0, SOLVE % 2), (3, "MPI_Allreduce"),
        (0, "MPI_Allreduce"), (0, APPLY % "int"), (0, APPLY % "double"), (0, FILL)]
cxx = {k: v for k, v in doc.items() if k != "stacks"}
cxx["functions"] = [{"name": n} for n in names]
cxx["stacks"] = [{"id": i, "parent": p, "function_index": names.index(n), "calls": 1,
                  "time_incl_s": 1.0 / (i + 1), "time_excl_s": 0.0,
                  "imbalance": {"min_s": 0.0, "min_rank": 1, "avg_s": 0.5 / (i + 1), "max_s": 1.0 / (i + 1),
                                "max_rank": 0}} for i, (p, n) in enumerate(tree)]
path = page_of(cxx, r.directory, "cxx")
page, errors, page_errors = browser.load(path, "tree=all")
if page is not None:
    browser.expect_no_errors(errors, page_errors, "cxx.html")
    got = {tr.get("data-function"): tr.find_all("span", data_node=None)[0].text for tr in rows_of(page)}
    check_eq(got, shown, "cxx.html: the tree's names, shortened, distinct names distinct")
    got = {tr.get("data-function"): tr.find_all("span")[0].text
           for tr in page.by_id("ht-functions").find_all("tr", data_function=None)}
    check_eq(got, shown, "cxx.html: the function table's names, the same")
    heads = {int(g.get("data-stack")): g.find_all("h4")[0].text
             for g in page.by_id("ht-rank-times").find_all("div", data_stack=None)}
    check_eq([heads.get(i) for i in (2, 4, 5)],
             ["MPI_Allreduce \u2190 " + shown[SOLVE % 1], "MPI_Allreduce \u2190 " + shown[SOLVE % 2],
              "MPI_Allreduce \u2190 main"], "cxx.html: same-named stacks shown with their caller")
    check_eq(heads.get(1), shown[SOLVE % 1], "cxx.html: a stack alone with its name: no caller")

# --- threads: the selector beside the rank selector ------------------------
# test/programs/threads.c: main and 4 pthreads call worker, which calls tick
# 10 (main), 100, 200, 300 and 400 times.
r = run(program("threads"))
doc = json.loads(r.text(".json"))
check_eq(doc["threads"], 5, "threads: 5 thread indices")
check_eq(json.loads(browser.embedded(r.path(".html"))), browser.lean(doc),
         "threads.html: the embedded profile keeps stacks[].threads")
names = [f["name"] for f in doc["functions"]]
ticks = {}
for s in doc["stacks"]:
    if names[s["function_index"]] == "tick":
        for t in s["threads"]:
            ticks[t["thread"]] = ticks.get(t["thread"], 0) + t["calls"]
check_eq(sorted(ticks.values()), [10, 100, 200, 300, 400], "threads: tick's calls per thread")
busiest = max(ticks, key=lambda t: ticks[t])


def own(s, thread):
    return [t for t in s.get("threads", []) if t["thread"] == thread]


page, errors, page_errors = browser.load(r.path(".html"), "tree=all&thread=%d" % busiest)
if page is not None:
    browser.expect_no_errors(errors, page_errors, "threads.html#thread=%d" % busiest)
    check(page.by_id("ht-thread-view").get("hidden") is None, "threads.html: the selector is shown")
    check_eq([o.get("value") for o in page.by_id("ht-thread").find_all("option")],
             ["all"] + [str(t) for t in sorted({t["thread"] for s in doc["stacks"] for t in s["threads"]})],
             "threads.html: an option per thread index, and all")
    rows = rows_of(page)
    want = {s["id"]: own(s, busiest)[0] for s in doc["stacks"] if own(s, busiest)}
    check_eq(sorted(int(tr.get("data-stack")) for tr in rows), sorted(want),
             "#thread=%d: the stacks that thread entered" % busiest)
    for tr in rows:
        t = want.get(int(tr.get("data-stack")), {})
        check_eq((int(tr.get("data-calls")), float(tr.get("data-incl")), float(tr.get("data-excl"))),
                 (t.get("calls"), t.get("time_incl_s"), t.get("time_excl_s")),
                 "#thread=%d: stack %s's own calls and times" % (busiest, tr.get("data-stack")))
    check_eq(sorted(int(tr.get("data-calls")) for tr in rows if tr.get("data-function") == "tick"),
             [400], "#thread=%d: tick's 400 calls" % busiest)

THREAD_CLICK = r"""
window.addEventListener("load", function () {
  var select = document.getElementById("ht-thread");
  select.value = "0";
  select.dispatchEvent(new Event("change"));
  var calls = Array.prototype.map.call(document.querySelectorAll('#ht-tree tbody tr[data-function="tick"]'),
                                       function (tr) { return Number(tr.getAttribute("data-calls")); });
  var first = {hash: location.hash, calls: calls};
  select.value = "all";
  select.dispatchEvent(new Event("change"));
  document.body.setAttribute("data-probe-thread", JSON.stringify({first: first, back: location.hash}));
});
"""
page, errors, page_errors = browser.load(r.path(".html"), "tree=all", script=THREAD_CLICK)
if page is not None:
    browser.expect_no_errors(errors, page_errors, "threads.html, thread chosen")
    got = json.loads(page.find_all("body")[0].get("data-probe-thread") or "{}")
    zero = sum(t["calls"] for s in doc["stacks"] if names[s["function_index"]] == "tick" for t in own(s, 0))
    check_eq(got.get("first"), {"hash": "#tree=all&thread=0", "calls": [zero] if zero else []},
             "a thread chosen: its figures, and #thread= in the address")
    check_eq(got.get("back"), "#tree=all", "all threads again: #thread= gone from the address")

# A one-thread profile: no selector, no per-thread copy in the page.
basic = run(program("basic"))
page, errors, page_errors = browser.load(basic.path(".html"))
if page is not None:
    check(page.by_id("ht-thread-view").get("hidden") is not None, "basic.html: no thread selector")
check('"threads":[' not in browser.embedded(basic.path(".html")), "basic.html: stacks[].threads left out")

# --- 100,000 stacks: only the rows expanded are drawn -----------------------
big = {k: v for k, v in doc.items() if k != "stacks"}
big["functions"] = [{"name": "main"}] + [{"name": "f%d" % i} for i in range(1000)] + [{"name": "leaf"}]
stacks = [{"id": 0, "parent": -1, "function_index": 0, "calls": 1, "time_incl_s": 1000.0,
           "time_excl_s": 0.0}]
for i in range(1000):
    parent = len(stacks)
    stacks.append({"id": parent, "parent": 0, "function_index": 1 + i, "calls": 1, "time_incl_s": 1.0,
                   "time_excl_s": 0.01})
    for j in range(99):
        stacks.append({"id": len(stacks), "parent": parent, "function_index": 1001, "calls": j + 1,
                       "time_incl_s": 0.01, "time_excl_s": 0.01})
big["stacks"] = stacks
check_eq(len(stacks), 99001 + 1000, "the big profile's stacks")
path = page_of(big, r.directory, "big")
page, errors, page_errors = browser.load(path)
if page is not None:
    browser.expect_no_errors(errors, page_errors, "big.html")
    check_eq((page.by_id("ht-tree").get("data-rows"), len(rows_of(page))), ("1001", 1001),
             "big.html: the root and its 1,000 callees drawn, not 100,001 rows")
page, errors, page_errors = browser.load(path, "tree=all")
if page is not None:
    browser.expect_no_errors(errors, page_errors, "big.html#tree=all")
    check_eq((len(rows_of(page)), page.by_id("ht-tree-note").get("data-left-out")), (3000, str(len(stacks) - 3000)),
             "big.html#tree=all: 3,000 rows drawn, the others counted")
finish()
