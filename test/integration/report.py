#!/usr/bin/env python3
"""The HTML report of serial runs (docs/report.md), loaded in
headless chromium: C++ names with '<' and a name holding "</script>" stay
text and leave the page whole; throttled functions are listed; the summary
notes a partial profile; outputs.html false writes none; and
hooktrace-report's errors (missing file, not JSON, not a hooktrace
profile, usage) give exact messages and exit statuses.

The lean page (issue 27): a serial run's page is at most 200 KB and embeds
exactly the members it shows; its menu links exactly the sections shown,
with and without throttled functions and counters; a 300-character C++
name is cut in its cell, whole in the cell's title, and the page has no
horizontal scrollbar in a 1280-pixel window; the flame graph is drawn at
the load event already.  Skipped (77) without chromium."""
import json
import os
import stat
import subprocess
import tempfile
import threading

import browser
from htlib import BUILDDIR, check, check_eq, finish, program, run, run_directory

browser.chromium()
TOOL = os.path.join(BUILDDIR, "hooktrace-report")


def tool(*args):
    proc = subprocess.run([TOOL] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    return proc.returncode, proc.stdout, proc.stderr


def names_of(doc):
    return [doc["functions"][s["function_index"]]["name"] for s in doc["stacks"]]


def table_calls(page):
    return {tr.get("data-function"): int(tr.get("data-calls"))
            for tr in page.by_id("ht-functions").find_all("tr", data_function=None)}


def json_calls(doc):
    calls = {}
    for s in doc["stacks"]:
        name = doc["functions"][s["function_index"]]["name"]
        calls[name] = calls.get(name, 0) + s["calls"]
    return calls


# --- C++ names: templates and std::vector's members hold '<' ---------------
r = run(program("cxx_names"))
check_eq(r.returncode, 0, "cxx_names exit status")
check(r.exists(".html"), "cxx_names.html written beside the JSON")
doc = json.loads(r.text(".json"))
check(any("<" in n for n in names_of(doc)), "cxx_names has names with '<'")
page_text = r.text(".html")
start = page_text.find('<script type="application/json" id="ht-profile">')
embedded = page_text[start:].split(">", 1)[1].split("</script>", 1)[0] if start >= 0 else ""
check("<" not in embedded, "cxx_names.html: every '<' of the embedded JSON escaped")
check(json.loads(embedded) == browser.lean(doc) if embedded else False,
      "cxx_names.html: the embedded JSON, up to its </script>, is the profile but the members"
      " the page does not show")
page, errors, page_errors = browser.load(r.path(".html"))
if page is not None:
    browser.expect_no_errors(errors, page_errors, "cxx_names.html")
    check_eq(table_calls(page), json_calls(doc), "cxx_names: a row per function, the JSON's calls")
    check_eq(table_calls(page).get("geometry::Grid::relax(int)"), 5, "calls of Grid::relax")
    check_eq(table_calls(page).get("double twice<double>(double)"), 1, "calls of twice<double>")
    cells = [td.text for td in page.by_id("ht-functions").find_all("td", **{"class": "name"})]
    check("double twice<double>(double)" in cells, "twice<double> shown as text: %r" % cells)

# --- recursion: a function's inclusive time counted once --------------------
r = run(program("recursion"))
doc = json.loads(r.text(".json"))
page, errors, page_errors = browser.load(r.path(".html"))
if page is not None:
    browser.expect_no_errors(errors, page_errors, "recursion.html")
    rows = {tr.get("data-function"): tr
            for tr in page.by_id("ht-functions").find_all("tr", data_function=None)}
    names = names_of(doc)
    paths = []
    for st in doc["stacks"]:
        paths.append((paths[st["parent"]] if st["parent"] >= 0 else []) + [names[st["id"]]])
    for name, stacks, calls in (("down", 12, 24), ("ping", 3, 3), ("pong", 3, 3)):
        outermost = [st["id"] for st in doc["stacks"]
                     if paths[st["id"]][-1] == name and name not in paths[st["id"]][:-1]]
        check_eq(len(outermost), 1, "%s: one outermost stack" % name)
        tr = rows.get(name)
        if not check(tr is not None, "a row for %s" % name):
            continue
        check_eq((int(tr.get("data-stacks")), int(tr.get("data-calls"))), (stacks, calls),
                 "%s: stacks and calls" % name)
        check_eq(float(tr.get("data-incl")), doc["stacks"][outermost[0]]["time_incl_s"],
                 "%s: inclusive time of its outermost stack only, not of its recursion" % name)

# --- a name holding </script>: the page stays whole ------------------------
hostile = "evil</script><script>document.title='pwned'</script>"
doc["functions"][doc["stacks"][-1]["function_index"]]["name"] = hostile
path = os.path.join(r.directory, "hostile.json")
with open(path, "w") as f:
    json.dump(doc, f)
check_eq(tool(path), (0, "", ""), "hooktrace-report PROFILE.json")
check(os.path.exists(os.path.join(r.directory, "hostile.html")), "hostile.html beside hostile.json")
page, errors, page_errors = browser.load(os.path.join(r.directory, "hostile.html"))
if page is not None:
    browser.expect_no_errors(errors, page_errors, "hostile.html")
    check(hostile in table_calls(page), "the hostile name is one row of text")
    check_eq(page.find_all("title")[0].text.startswith("hooktrace"), True,
             "the hostile name ran no script (title %r)" % page.find_all("title")[0].text)

# --- throttled functions ---------------------------------------------------
config = {"throttle": {"min_calls": 1000, "max_ns_per_call": 20000, "never": ["^kept$"]}}
r = run(program("throttle"), config=config)
check_eq(r.returncode, 0, "throttle exit status")
doc = json.loads(r.text(".json"))
throttled = sorted((s["id"], names_of(doc)[s["id"]], s["calls"]) for s in doc["stacks"]
                   if s.get("throttled"))
check_eq(sorted(n for _, n, _ in throttled),
         ["depth", "depth", "depth", "pick", "shared_scaled", "tiny", "touch"],
         "throttle: the JSON's throttled stacks")
page, errors, page_errors = browser.load(r.path(".html"))
if page is not None:
    browser.expect_no_errors(errors, page_errors, "throttle.html")
    rows = page.by_id("ht-throttled-stacks").find_all("tr", data_stack=None)
    check_eq(sorted((int(tr.get("data-stack")), tr.get("data-function"), int(tr.get("data-calls")))
                    for tr in rows), throttled, "the page lists the throttled stacks and their calls")
    check_eq([tr.get("data-calls") for tr in rows], ["1001"] * 7,
             "each throttled stack recorded 1001 calls")
    helps = [p.text for p in page.by_id("ht-throttled").find_all("p")]
    check(any("recorded until throttled (min_calls 1000, under 20.000 \u00b5s a call "
              "(max_ns_per_call), code patching on)" in t for t in helps),
          "the page gives the threshold and where it came from: %r" % helps)
    browser.check_menu(page, ["ht-tree-section", "ht-flame-section", "ht-functions-section",
                              "ht-throttled-section"],
                       "throttle.html")

# The threshold by cost, with the hook cost fixed (docs/throttle.md, "The rule").
r = run(program("throttle"), config={"throttle": {"min_calls": 1000}},
        env={"HOOKTRACE_HOOK_NS_TEST": "20"})
check_eq(r.returncode, 0, "throttle by cost: exit status")
page, errors, page_errors = browser.load(r.path(".html"))
if page is not None:
    browser.expect_no_errors(errors, page_errors, "throttle by cost")
    helps = [p.text for p in page.by_id("ht-throttled").find_all("p")]
    check(any("recorded until throttled (min_calls 1000, under 1.000 \u00b5s a call: the hook "
              "pair's 20.0 ns over a 2% budget, code patching on)" in t for t in helps),
          "the page gives the threshold by cost: %r" % helps)

# --- a partial profile is said so ------------------------------------------
r = run(program("basic"))
doc = json.loads(r.text(".json"))
doc["partial"] = {"reason": "signal", "signal": "SIGTERM"}
path = os.path.join(r.directory, "partial.json")
with open(path, "w") as f:
    json.dump(doc, f)
out = os.path.join(r.directory, "elsewhere.html")
check_eq(tool(path, "-o", out), (0, "", ""), "hooktrace-report PROFILE -o OUT")
page, errors, page_errors = browser.load(out)
if page is not None:
    browser.expect_no_errors(errors, page_errors, "partial")
    note = page.by_id("ht-partial")
    check_eq(note.text if note else None, "Partial profile: the run ended early (signal SIGTERM).",
             "the partial note")
    check_eq(table_calls(page), json_calls(doc), "basic: the JSON's calls")
    check_eq(table_calls(page).get("leaf"), 1303, "basic: calls of leaf")

# --- the lean page: size, members, menu, long names, first paint -------------
r = run(program("basic"))
doc = json.loads(r.text(".json"))
size = os.path.getsize(r.path(".html"))
check(size <= 200 * 1024, "basic.html is %d bytes, at most 200 KB" % size)
lean = json.loads(browser.embedded(r.path(".html")))
check_eq(lean, browser.lean(doc), "basic.html embeds the profile but the members it does not show")
check_eq(sorted(set(doc) - set(lean)), ["thread_groups", "thread_tids", "uninstrumented"],
         "basic.html: the top-level members left out")
check_eq(sorted(set(doc["stacks"][0]) - set(lean["stacks"][0])), [],
         "basic.html: a stack's members left out (one thread: the JSON has no stacks[].threads)")
page, errors, page_errors = browser.load(r.path(".html"), probe=True)
if page is not None:
    browser.expect_no_errors(errors, page_errors, "basic.html")
    browser.check_menu(page, ["ht-tree-section", "ht-flame-section", "ht-functions-section"], "basic.html")
    view = page.by_id("ht-view")
    check(view is not None and view.get("hidden") is not None, "basic.html: no rank selector")
    body = page.find_all("body")[0]
    shown = int(page.by_id("ht-flame-note").get("data-shown"))
    check_eq(shown + int(page.by_id("ht-flame-note").get("data-left-out")), len(doc["stacks"]),
             "basic.html: the flame graph's stacks shown and left out")
    check(shown > 1, "basic.html: %d frames in the flame graph" % shown)
    check_eq((int(body.get("data-probe-rects")), int(body.get("data-probe-drawn"))),
             (shown + 1, shown + 1), "basic.html: every frame drawn at the load event")

# the filter on odd JSON: a left-out member first and last, strings holding
# JSON's punctuation, keys longer than the filter holds or with escapes,
# nesting deeper than it follows (32): what is not left out stays as it was
odd = {"mpi_t": {"cvars": [{"name": "}{][,:\"\\<", "value": [1, {"a": "]"}]}]}}
odd.update(doc)
odd["command"] = 'prog "}{][,:\\<" --x'
odd["k" * 100] = {"mpi_t": ["kept: not at the top"], "stacks": []}
odd['quo"te'] = {"mpi_t": 1}
deep = {"mpi_t": "kept"}
for _ in range(40):
    deep = [deep, {"x": 1}]
odd["deep"] = deep
odd["uninstrumented"] = {"names": ["a}b", "c]d"]}
odd["thread_tids"] = [1, 2]
path = os.path.join(r.directory, "odd.json")
with open(path, "w") as f:
    json.dump(odd, f, indent=3)
check_eq(tool(path), (0, "", ""), "hooktrace-report odd.json")
text = browser.embedded(os.path.join(r.directory, "odd.html"))
check_eq(json.loads(text) if text else None, browser.lean(odd),
         "odd.html embeds the profile but the members left out")
check_eq(list(json.loads(text))[:2] if text else None, list(browser.lean(odd))[:2],
         "odd.html: the first member kept comes first")

# counters (made up: the page shows what the JSON says, PAPI or not)
events = ["PAPI_TOT_INS", "PAPI_TOT_CYC"]
counted = dict(doc)
counted["counters"] = {"events": events, "papi_version": "7.0.0.0",
                       "unavailable": [{"event": "PAPI_L3_TCM", "reason": "not available here"}]}
counted["stacks"] = [dict(st, counters={e: {"incl": 10 * (st["id"] + 1), "excl": st["id"] + 1}
                                        for e in events}) for st in doc["stacks"]]
path = os.path.join(r.directory, "counted.json")
with open(path, "w") as f:
    json.dump(counted, f)
check_eq(tool(path), (0, "", ""), "hooktrace-report counted.json")
page, errors, page_errors = browser.load(os.path.join(r.directory, "counted.html"))
if page is not None:
    browser.expect_no_errors(errors, page_errors, "counted.html")
    browser.check_menu(page, ["ht-tree-section", "ht-flame-section", "ht-functions-section",
                              "ht-counters-section"],
                       "counted.html")
    check_eq([li.get("data-event") for li in page.by_id("ht-counter-events").find_all("li")], events,
             "counted.html: the events listed")

# a 300-character C++ name, in a 1280-pixel window
# (no space to wrap at), on a stack of the function table and of the
# time-per-rank bars (min, avg, max made up)
long_name = ("ns::Expression<" + ",".join("ns::Op<std::vector<double>,%d>" % i for i in range(20)))[:291]
long_name += ">::eval()"
check_eq(len(long_name), 300, "the long name has 300 characters")
named = dict(doc)
named["functions"] = [dict(fn) for fn in doc["functions"]]
leaf = doc["stacks"][-1]["function_index"]
named["functions"][leaf]["name"] = long_name
named["stacks"] = [dict(st, imbalance={"min_s": 0.0, "min_rank": 1, "avg_s": st["time_incl_s"] / 2,
                                       "max_s": st["time_incl_s"], "max_rank": 0})
                   for st in doc["stacks"]]
path = os.path.join(r.directory, "long_name.json")
with open(path, "w") as f:
    json.dump(named, f)
check_eq(tool(path), (0, "", ""), "hooktrace-report long_name.json")
page, errors, page_errors = browser.load(os.path.join(r.directory, "long_name.html"), width=1280,
                                         probe=True)
if page is not None:
    browser.expect_no_errors(errors, page_errors, "long_name.html")
    body = page.find_all("body")[0]
    scroll, client = int(body.get("data-probe-scroll-width")), int(body.get("data-probe-client-width"))
    check(scroll <= client, "long_name.html: no horizontal scrollbar at 1280 px (scrollWidth %d,"
          " clientWidth %d)" % (scroll, client))
    row = page.by_id("ht-functions").find_all("tr", data_function=long_name)
    cell = row[0].find_all("td", **{"class": "name"})[0] if row else None
    check_eq(cell.get("title") if cell else None, long_name, "the long name's cell: its title is the name")
    shown = cell.text if cell else ""
    check(shown != long_name and len(shown) <= 70 and shown.startswith("ns::Expression<...>"),
          "the long name's cell: its text is the name shortened as the log does: %r" % shown)
    bars = [g for g in page.by_id("ht-rank-times").find_all("div", data_stack=None)
            if g.get("data-function") == long_name]
    stacks_of_leaf = sum(1 for st in doc["stacks"] if st["function_index"] == leaf)
    check_eq(len(bars), stacks_of_leaf, "the long name's %d stacks have their time-per-rank bars"
             % stacks_of_leaf)
    heads = [h.text for g in bars for h in g.find_all("h4")]
    check(len(set(heads)) == stacks_of_leaf and all(h.startswith(shown + " \u2190 ") for h in heads),
          "the bars' headings: the name shown, with its callers until they differ: %r" % heads)

# --- outputs.html false ------------------------------------------------------
r = run(program("basic"), config={"outputs": {"html": False}})
check_eq((r.returncode, r.exists(".json"), r.exists(".html")), (0, True, False),
         "outputs.html false: the JSON, no page")

# --- hooktrace-report's errors -------------------------------------------------
d = tempfile.mkdtemp(prefix="hooktrace-report-")
missing = os.path.join(d, "missing.json")
check_eq(tool(missing), (1, "", "hooktrace-report: cannot read %s: No such file or directory\n"
                         % missing), "missing profile")
bad = os.path.join(d, "bad.json")
with open(bad, "w") as f:
    f.write("{\"stacks\": [1, 2\n")
check_eq(tool(bad), (1, "", "hooktrace-report: %s is not JSON: ']' expected near end of "
                     "file (line 2, column 0)\n" % bad), "not JSON")
other = os.path.join(d, "other.json")
with open(other, "w") as f:
    f.write("{\"traceEvents\": []}\n")
check_eq(tool(other), (1, "", "hooktrace-report: %s is not a hooktrace profile: it has no "
                       "\"hooktrace_version\" and \"stacks\"\n" % other), "not a profile")
check_eq(sorted(os.listdir(d)), ["bad.json", "other.json"], "no page written on an error")
code, out, err = tool()
check_eq((code, out, err.splitlines()[0] if err else ""),
         (2, "", "hooktrace-report: no profile given"), "no argument")
code, out, err = tool(other, "-x")
check_eq((code, err.splitlines()[0] if err else ""), (2, "hooktrace-report: unknown option '-x'"),
         "unknown option")
code, out, err = tool(other, "-o")
check_eq((code, err.splitlines()[0] if err else ""), (2, "hooktrace-report: -o needs a file name"),
         "-o without a name")
code, out, err = tool("--help")
check_eq((code, out.splitlines()[0], err), (0, "usage: hooktrace-report PROFILE.json [-o OUT.html]", ""),
         "--help")

# --- links planted where the page's temporary file would go: the old name,
# OUT.tmp-<pid>, for the pids the tool will get next (they follow this
# process's), and OUT.tmp.* -------------------------------------------------
planted = run_directory("hooktrace-report-links-")
victim = os.path.join(planted, "victim.txt")
with open(victim, "w") as f:
    f.write("the victim's data\n")
out_html = os.path.join(planted, "page.html")
for pid in range(os.getpid(), os.getpid() + 5000):
    os.symlink(victim, out_html + ".tmp-%d" % pid)
for tail in ("XXXXXX", "000000", "aaaaaa"):
    os.symlink(victim, out_html + ".tmp." + tail)
code, out, err = tool(path, "-o", out_html)
check_eq((code, err), (0, ""), "planted links: the page is written")
with open(victim) as f:
    kept = f.read()
check(kept == "the victim's data\n",
      "planted links: the file they point to is untouched (it holds %d bytes now)" % len(kept))
check(os.path.isfile(out_html) and not os.path.islink(out_html), "planted links: the page is a file of its own")
left = [n for n in os.listdir(planted) if n.startswith("page.html.tmp.") and not os.path.islink(os.path.join(planted, n))]
check_eq(left, [], "planted links: no temporary file left")

# --- a target that is not a regular file is written in place, never
# replaced by a rename (as hooktrace-analyze does): a FIFO, read by a
# thread, stays a FIFO (the same rule keeps /dev/null a device, which a
# rename over it once turned into a file); a symbolic link stays a link and
# its file gets the page --------------------------------------------------------
with open(out_html, "rb") as f:
    page_bytes = f.read()
fifo = os.path.join(planted, "fifo.html")
os.mkfifo(fifo)
got = []
reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
reader.start()
code, out, err = tool(path, "-o", fifo)
reader.join(30)
check_eq((code, err), (0, ""), "-o FIFO: exit status and stderr")
check(stat.S_ISFIFO(os.lstat(fifo).st_mode), "-o FIFO: it stays a FIFO")
check(got == [page_bytes], "-o FIFO: the reader got the page, %d bytes (%d in a file)"
      % (len(got[0]) if got else -1, len(page_bytes)))
real, link = os.path.join(planted, "real.html"), os.path.join(planted, "link.html")
with open(real, "w") as f:
    f.write("old")
os.symlink(real, link)
code, out, err = tool(path, "-o", link)
check_eq((code, err), (0, ""), "-o LINK: exit status and stderr")
check(os.path.islink(link), "-o LINK: the link stays a link")
with open(real, "rb") as f:
    check(f.read() == page_bytes, "-o LINK: its file holds the page")
check_eq(sorted(n for n in os.listdir(planted) if n.startswith(("fifo", "link", "real"))),
         ["fifo.html", "link.html", "real.html"], "FIFO and link: no temporary file left")
finish()
