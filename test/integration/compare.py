#!/usr/bin/env python3
"""hooktrace-report --compare and --scaling (docs/compare.md).

A program run at two work sizes, the second run from another build of it
(other addresses and stack IDs): stacks matched by call path, exact call
ratios, the new and vanished stacks, every figure of the JSON equal to the
two profiles' own.  Hand-written profiles (a per-process profile and an MPI
summary): --fail-above's exit statuses 0 and 3 and which stacks count
(--min-share, --min-time), the message figures, bad input (1) and usage
errors (2); the table on the terminal, line for line.  Several runs a side:
compare_runs.py.  --scaling on hand-written summaries at 1, 2 and 4 ranks: time
per rank and efficiency.  The pages, loaded in headless chromium, show the
JSON's figures exactly.  Without chromium the page checks are skipped, the
rest runs."""
import json
import os

from comparelib import HAVE_CHROMIUM, check_matches, check_page, paths_of, table, tool, write_profile
from htlib import check, check_eq, finish, program, run, run_directory

if HAVE_CHROMIUM:
    import browser

# --- two runs of one program, two builds --------------------------------------
r10 = run(program("compare_work"), ["10"])
r20 = run(program("compare_work_moved"), ["20"])
check_eq((r10.returncode, r20.returncode), (0, 0), "compare_work exit statuses")
base_doc, new_doc = json.loads(r10.text(".json")), json.loads(r20.text(".json"))
ids10 = {p: s["id"] for p, s in paths_of(base_doc).items()}
ids20 = {p: s["id"] for p, s in paths_of(new_doc).items()}
check(ids10[("main", "step")] != ids20[("main", "step")],
      "the two builds give main > step other stack IDs (%r, %r)"
      % (ids10[("main", "step")], ids20[("main", "step")]))
d = run_directory("hooktrace-compare-")
page_path, json_path = os.path.join(d, "cmp.html"), os.path.join(d, "cmp.json")
code, out, err = tool("--compare", r10.path(".json"), r20.path(".json"), "-o", page_path, "--json",
                      json_path)
check_eq((code, err), (0, ""), "--compare exit status and stderr")
with open(json_path) as f:
    cmp = json.load(f)
check_eq(out, table(cmp), "--compare: the table on standard output")
check_eq(out.splitlines()[:2],
         ["1 run against 1; the 7 most changed of 7 stacks",
          "   incl base     incl new    ratio    excl base     excl new    ratio noise   call path"],
         "the table's head")
check_eq(cmp["kind"], "compare", "kind")
check_eq((cmp["base"]["file"], cmp["new"]["file"]), (r10.path(".json"), r20.path(".json")),
         "the runs' files")
check_eq((cmp["base"]["ranks"], cmp["base"]["merged"], cmp["base"]["stacks"]), (1, False, 5),
         "base run: ranks, merged, paths")
check_eq(cmp["new"]["stacks"], 6, "new run: paths")
check_eq(cmp["base"]["command"], base_doc["command"], "base run's command")
check_eq(cmp["base"]["time_incl_s"], base_doc["stacks"][0]["time_incl_s"],
         "base run's total: its root's inclusive time")
check_matches(cmp, base_doc, new_doc, "compare_work 10 vs 20")
by_path = {tuple(s["path"]): s for s in cmp["stacks"]}
for path, calls in ((("main",), [1, 1]), (("main", "setup"), [1, 1]), (("main", "step"), [10, 20]),
                    (("main", "step", "leaf"), [30, 60]), (("main", "small_only"), [1, None]),
                    (("main", "large_only"), [None, 1]), (("main", "a_moved"), [None, 1])):
    check_eq(by_path.get(path, {}).get("calls"), calls, "calls of %s" % " > ".join(path))
check_eq(sorted(p for p, s in by_path.items() if s["status"] == "new"),
         [("main", "a_moved"), ("main", "large_only")], "new stacks")
check_eq([p for p, s in by_path.items() if s["status"] == "vanished"], [("main", "small_only")],
         "vanished stacks")
check_eq(cmp["gate"]["fail_above"], None, "no gate asked")
check_eq((cmp["counts"], cmp["page_rows"]), ({"changed": 4, "new": 2, "vanished": 1}, 500),
         "counts per status; rows per status on the page")
with open(json_path) as f:
    lines = f.read().split("\n")
check_eq([json.loads(line.rstrip(",")) for line in lines[2:-2]], cmp["stacks"],
         "the JSON file: one stack per line")
check_page(page_path, cmp, "compare_work cmp.html")

# Default page name, no JSON: NEW.compare.html.
check_eq(tool("--compare", r10.path(".json"), r20.path(".json")), (0, table(cmp), ""),
         "--compare without -o")
check(os.path.exists(r20.path(".compare.html")), "the default page NEW.compare.html written")
# --json - : the document on standard output, no page.
code, out, err = tool("--compare", r10.path(".json"), r20.path(".json"), "--json", "-")
check_eq((code, err, json.loads(out) if code == 0 else None), (0, table(cmp), cmp),
         "--json - : the table on stderr")

# --- the gate on hand-written profiles ----------------------------------------
# base total 1.0 s; work 0.5 (50 %), tiny 0.005 (0.5 %), MPI_Send 0.2 with
# messages; new: work x1.2, tiny x10, MPI_Send x1.05, main x1.05.
h = run_directory("hooktrace-compare-gate-")
send = {"messages_sent": 8, "bytes_sent": 8192}
recv = {"messages_received": 8, "bytes_received": 8192}
base = write_profile(h, "base", [
    (["main"], 1, 1.0, 0.295, {}), (["main", "work"], 4, 0.5, 0.5, {}),
    (["main", "tiny"], 100, 0.005, 0.005, {}), (["main", "MPI_Send"], 8, 0.2, 0.2, send),
    (["main", "MPI_Recv"], 8, 0.0, 0.0, recv)], ranks=4,
    metadata={"compiler": "gcc 12", "ranks": 4})
new = write_profile(h, "new", [
    (["main"], 1, 1.05, 0.09, {}), (["main", "work"], 4, 0.6, 0.6, {}),
    (["main", "tiny"], 100, 0.05, 0.05, {}), (["main", "MPI_Send"], 16, 0.21, 0.21,
                                                {"messages_sent": 16, "bytes_sent": 16384}),
    (["main", "MPI_Recv"], 16, 0.1, 0.1, {"messages_received": 16, "bytes_received": 16384})],
    ranks=4)
gj = os.path.join(h, "gate.json")
code, out, err = tool("--compare", base, new, "--json", gj, "--fail-above", "1.1")
check_eq(code, 3, "--fail-above 1.1: exit status 3")
check_eq(err, "hooktrace-report: slower: main > work: 0.500000 s -> 0.600000 s (x1.200 > 1.1)\n"
              "hooktrace-report: 1 stack slowed by more than 1.1 (stacks of at least 0.010000 s "
              "in %s count)\n" % base, "--fail-above 1.1: the stack on stderr")
with open(gj) as f:
    g = json.load(f)
check_eq(out, table(g), "--fail-above 1.1: the table, FAIL beside main > work")
check_eq(out.splitlines()[-1], "--fail-above 1.1: FAIL: 1 counted stack slower than x1.1",
         "--fail-above 1.1: the verdict")
check_matches(g, json.load(open(base)), json.load(open(new)), "hand-written summaries")
check_eq((g["base"]["merged"], g["base"]["ranks"]), (True, 4), "a summary: merged, 4 ranks")
check_eq((g["base"].get("metadata"), "metadata" in g["new"]), ({"compiler": "gcc 12", "ranks": 4}, False),
         "the base profile's metadata carried over; none for a profile without")
check_eq(g["gate"], {"fail_above": 1.1, "min_share": 0.01, "min_time_s": 0.001,
                     "threshold_s": 0.01, "force": False, "slower": [["main", "work"]]},
         "the gate's JSON")
check_eq(g["ranks_differ"], False, "two summaries of 4 ranks")
gb = {tuple(s["path"]): s for s in g["stacks"]}
check_eq({p: s["counted"] for p, s in gb.items()},
         {("main",): True, ("main", "work"): True, ("main", "tiny"): False,
          ("main", "MPI_Send"): True, ("main", "MPI_Recv"): False}, "which stacks count")
check_eq((gb[("main", "MPI_Send")]["messages"], gb[("main", "MPI_Send")]["bytes"]),
         ([8, 16], [8192, 16384]), "MPI_Send: messages and bytes")
check_eq(gb[("main", "MPI_Recv")]["ratio"], None, "a stack of no base time has no ratio")
check_eq(gb[("main", "work")]["ratio"], 0.6 / 0.5, "work's ratio")
check_eq([tuple(s["path"]) for s in g["stacks"]][:2], [("main", "MPI_Recv"), ("main", "work")],
         "most changed first (0.1 s each, by path on a tie)")
code, out, err = tool("--compare", base, new, "--json", gj, "--fail-above", "1.25")
check_eq((code, err, out.splitlines()[-1]),
         (0, "", "--fail-above 1.25: pass: 0 counted stacks slower than x1.25"),
         "--fail-above 1.25: exit status 0 (tiny's x10 is under 1 % of the base run)")
code, out, err = tool("--compare", base, new, "--json", gj, "--fail-above", "1.25",
                      "--min-share", "0.001")
check_eq((code, err.splitlines()[0] if err else ""),
         (3, "hooktrace-report: slower: main > tiny: 0.005000 s -> 0.050000 s (x10.000 > 1.25)"),
         "--min-share 0.001: tiny counts")
check_eq(tool("--compare", base, new, "--json", gj, "--fail-above", "1.25", "--min-share",
              "0.001", "--min-time", "0.01")[0], 0, "--min-time 0.01: tiny does not count")
check_eq(tool("--compare", base, base, "--json", gj, "--fail-above", "1.0")[0], 0,
         "a run against itself: exit status 0")
if HAVE_CHROMIUM:
    gp = os.path.join(h, "gate.html")
    check_eq(tool("--compare", base, new, "-o", gp, "--fail-above", "1.1")[0], 3, "gate.html")
    page = check_page(gp, g, "gate.html")
    if page is not None:
        check_eq([json.loads(tr.get("data-path")) for tr in page.find_all("tr", **{"class": "slower"})],
                 [["main", "work"]], "gate.html: the slower stack highlighted")
        check_eq(page.by_id("ht-gate").get("data-slower"), "1", "gate.html: one slower stack")
        meta = page.find_all("tr", data_field="metadata")
        check_eq([[div.text for div in td.find_all("div")] for td in meta[0].find_all("td")]
                 if meta else None, [["compiler: gcc 12", "ranks: 4"], []],
                 "gate.html: the metadata shown beside the base run")

# A rank's own file (ranks and rank): not a summary.
rank1 = write_profile(h, "rank1", [(["main"], 1, 0.5, 0.5, {})], ranks=4, rank=1)
code, out, err = tool("--compare", rank1, rank1, "--json", "-")
check_eq((code, [(json.loads(out)[k]["ranks"], json.loads(out)[k]["merged"])
                 for k in ("base", "new")] if code == 0 else None),
         (0, [(4, False), (4, False)]), "a rank's own file: 4 ranks, not merged")

# --- a page of many stacks: the first 500 of each status ----------------------
many = write_profile(h, "many", [(["main"], 1, 1.0, 0.0, {})] +
                     [(["main", "f%04d" % i], 1, 0.001 * (i + 1), 0.0, {}) for i in range(1200)])
mj, mp = os.path.join(h, "many.cmp.json"), os.path.join(h, "many.cmp.html")
check_eq(tool("--compare", base, many, "--json", mj, "-o", mp)[0], 0, "--compare of 1,200 new stacks")
mdoc = json.load(open(mj))
check_eq((mdoc["counts"]["new"], len([s for s in mdoc["stacks"] if s["status"] == "new"])),
         (1200, 1200), "the JSON has all 1,200 new stacks")
check_eq([s["path"][1] for s in mdoc["stacks"] if s["status"] == "new"][:2], ["f1199", "f1198"],
         "new stacks, most time first")
if HAVE_CHROMIUM:
    page, errors, page_errors = browser.load(mp)
    if page is not None:
        browser.expect_no_errors(errors, page_errors, "many.cmp.html")
        rows = page.by_id("ht-new").find_all("tr", data_path=None)
        check_eq(len(rows), 500, "many.cmp.html: the first 500 new stacks")
        check_eq([json.loads(tr.get("data-path"))[1] for tr in rows[:2]], ["f1199", "f1198"],
                 "many.cmp.html: the most changed first")
        check_eq(page.by_id("ht-new-section").find_all("p", data_total="1200") != [], True,
                 "many.cmp.html: says 1,200 in all")

# --- bad input (1) and usage errors (2) ---------------------------------------
missing = os.path.join(h, "missing.json")
check_eq(tool("--compare", base, missing),
         (1, "", "hooktrace-report: cannot read %s: No such file or directory\n" % missing),
         "a missing profile")
notjson = os.path.join(h, "bad.json")
with open(notjson, "w") as f:
    f.write("[1, 2")
check_eq(tool("--compare", notjson, base)[0], 1, "not JSON")
other = os.path.join(h, "other.json")
with open(other, "w") as f:
    f.write('{"stacks": []}')
check_eq(tool("--compare", base, other),
         (1, "", "hooktrace-report: %s is not a hooktrace profile: it has no "
                 "\"hooktrace_version\" and \"stacks\"\n" % other), "not a hooktrace profile")
broken = os.path.join(h, "broken.json")
doc = json.load(open(base))
doc["stacks"][2]["parent"] = 3
with open(broken, "w") as f:
    json.dump(doc, f)
check_eq(tool("--compare", base, broken),
         (1, "", "hooktrace-report: %s: stack 2: \"parent\" is not -1 or a smaller stack ID\n"
          % broken), "a stack whose parent comes after it")
# docs/compare.md: format 2 or later, whatever else the file holds.
for value in (1, 0, "2"):
    old = os.path.join(h, "format_%s.json" % value)
    doc = json.load(open(base))
    doc["format"] = value
    with open(old, "w") as f:
        json.dump(doc, f)
    check_eq(tool("--compare", old, base),
             (1, "", "hooktrace-report: %s: \"format\" is not 2 or later (a profile of format 2 or"
                     " later is needed)\n" % old), "format %r refused" % value)
for args, first in (
        ((base,), "hooktrace-report: --compare needs two profiles, BASE.json and NEW.json (or two"
                  " comma-separated lists of them)"),
        ((base, new, new), "hooktrace-report: --compare takes two profiles (or two comma-separated"
                           " lists): '%s' is a third" % new),
        ((base, new, "--fail-above", "x"),
         "hooktrace-report: --fail-above: 'x' is not a number >= 0"),
        ((base, new, "--fail-above"), "hooktrace-report: --fail-above needs a value"),
        ((base, new, "--min-share", "2"), "hooktrace-report: --min-share: '2' is more than 1"),
        ((base, new, "--tops", "3"), "hooktrace-report: unknown option for --compare '--tops'")):
    code, out, err = tool("--compare", *args)
    check_eq((code, out, err.splitlines()[0] if err else ""), (2, "", first),
             "usage error: %r" % (args,))

# --- --scaling -----------------------------------------------------------------
# Summaries at 1, 2 and 4 ranks: solve scales perfectly (4 s of work in
# all), exchange grows with ranks, setup only at 1 rank.
sd = run_directory("hooktrace-scaling-")
prof = {}
for p, solve, exch in ((1, 4.0, 0.0), (2, 4.0, 0.5), (4, 4.0, 2.0)):
    st = [(["main"], p, 0.25 * p + solve + exch, 0.25 * p, {}), (["main", "solve"], p, solve, solve, {})]
    if exch:
        st.append((["main", "exchange"], p, exch, exch, {}))
    if p == 1:
        st.append((["main", "setup"], 1, 0.125, 0.125, {}))
        st[0] = (["main"], 1, 0.25 + solve + 0.125, 0.25, {})
    prof[p] = write_profile(sd, "p%d" % p, st, ranks=p)
sj, sp = os.path.join(sd, "scale.json"), os.path.join(sd, "scale.html")
check_eq(tool("--scaling", prof[4], prof[1], prof[2], "--json", sj, "-o", sp, "--top", "3"),
         (0, "", ""), "--scaling exit status")
sc = json.load(open(sj))
check_eq(sc["ranks"], [1, 2, 4], "profiles sorted by ranks")
check_eq([q["file"] for q in sc["profiles"]], [prof[1], prof[2], prof[4]], "their files")
check_eq([s["path"] for s in sc["stacks"]], [["main"], ["main", "solve"], ["main", "exchange"]],
         "--top 3: the stacks with the most time per rank in any profile")
docs = [json.load(open(prof[p])) for p in (1, 2, 4)]
for s in sc["stacks"]:
    incl = [paths_of(dd).get(tuple(s["path"]), {}).get("time_incl_s") for dd in docs]
    t = [None if v is None else v / p for v, p in zip(incl, (1, 2, 4))]
    eff = [None if t[0] is None or v is None or v == 0 else t[0] * 1 / (v * p)
           for v, p in zip(t, (1, 2, 4))]
    check_eq((s["time_incl_s"], s["time_s"], s["efficiency"]), (incl, t, eff),
             "scaling of %s" % s["path"])
check_eq(sc["stacks"][1]["efficiency"], [1.0, 1.0, 1.0], "solve scales perfectly")
check_eq(sc["run"]["time_incl_s"], [4.375, 5.0, 7.0], "the run's total per profile")
check_eq(tool("--scaling", prof[1], prof[1])[0:2], (1, ""), "two profiles of one rank count")
check_eq(tool("--scaling", prof[1])[0], 2, "one profile")
if HAVE_CHROMIUM:
    page, errors, page_errors = browser.load(sp)
    if page is not None:
        browser.expect_no_errors(errors, page_errors, "scale.html")
        rows = {tr.get("data-path"): tr for tr in page.by_id("ht-scaling").find_all("tr", data_path=None)}
        for s in sc["stacks"]:
            tr = rows.get(json.dumps(s["path"], separators=(",", ":")))
            if check(tr is not None, "scale.html: a row for %s" % s["path"]):
                check_eq([None if v is None else float(v) for v in json.loads(tr.get("data-time-s"))],
                         s["time_s"], "scale.html %s: time per rank" % s["path"])
                check_eq([None if v is None else float(v)
                          for v in json.loads(tr.get("data-efficiency"))],
                         s["efficiency"], "scale.html %s: efficiency" % s["path"])
        lines = [pl for pl in page.find_all("polyline") if pl.get("class") != "ideal"]
        check_eq(len(lines), 3, "scale.html: a line per stack")
        # each stack's ideal line (issue 38): T1*P1/P from its first point
        for k, s in enumerate(sc["stacks"]):
            ideal = page.find_all("polyline", data_stack=str(k), **{"class": "ideal"})
            t = s["time_s"]
            first = next((i for i, v in enumerate(t) if v), None)
            want = [None if first is None or i < first else t[first] * sc["ranks"][first] / p
                    for i, p in enumerate(sc["ranks"])]
            got = json.loads(ideal[0].get("data-times")) if ideal else None
            check(got is not None and len(got) == len(want) and
                  all((a is None and b is None) or (a is not None and b is not None and abs(a - b) <= 1e-12 * b)
                      for a, b in zip(got, want)),
                  "scale.html %s: the ideal line %r, expected %r" % (s["path"], got, want))
finish()
