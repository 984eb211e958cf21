#!/usr/bin/env python3
"""hooktrace-report --compare with several runs a side (docs/compare.md,
"Several runs a side").

Hand-written summaries of 4 ranks, three a side, with exact figures: the
medians, ranges, low-median counts and runs of every path equal to the
profiles' own; the noise rule (an MPI_Wait whose median grew by x1.25 but
whose runs overlap passes --fail-above 1.2, where one run a side fails it);
a kernel made 2x slower fails first, before its callers; two runs a side
(the mean of the two middle ones) and one against three; a wait that grew more
than the slowed kernel listed after it.  Rank counts that
differ: a warning, exit 4 with --fail-above, --force.  Malformed lists and
--top.  The table on the terminal, line for line, and the page in headless
chromium (skipped without it).

Then the issue's target on a real program (test/programs/compare_noise.c):
three runs of one build against three more pass --fail-above 1.2; three
runs whose kernel_b takes twice as long fail it with main > solve >
kernel_b first."""
import json
import os

from comparelib import HAVE_CHROMIUM, check_matches, check_page, table, tool, write_profile
from htlib import check, check_eq, finish, program, run, run_directory

if HAVE_CHROMIUM:
    import browser

h = run_directory("hooktrace-compare-runs-")


def summary(name, kernel, wait, wait_calls, io, rare=None, ranks=4, rank=None):
    """main (0.1 s of its own) > solve (0.05 s) > kernel, main > MPI_Wait,
    main > io, main > rare (when given), main > tiny (1 ms: never counted)."""
    solve = 0.05 + kernel
    main = 0.1 + solve + wait + io + (rare or 0) + 0.001
    stacks = [(["main"], 1, main, 0.1, {}), (["main", "solve"], 4, solve, 0.05, {}),
              (["main", "solve", "kernel"], 4, kernel, kernel, {}),
              (["main", "MPI_Wait"], wait_calls, wait, wait, {}), (["main", "io"], 2, io, io, {})]
    if rare is not None:
        stacks.append((["main", "rare"], 1, rare, rare, {}))
    stacks.append((["main", "tiny"], 100, 0.001, 0.001, {}))
    return write_profile(h, name, stacks, ranks=ranks, rank=rank)


def load(paths):
    return [json.load(open(p)) for p in paths]


def compare(base, new, *args):
    """--compare of two lists with --json; (status, stdout, stderr, JSON)."""
    out_json = os.path.join(h, "cmp_%d.json" % len(os.listdir(h)))
    code, out, err = tool("--compare", ",".join(base), ",".join(new), "--json", out_json, *args)
    return code, out, err, json.load(open(out_json)) if os.path.exists(out_json) else None


def by_path(cmp):
    return {tuple(s["path"]): s for s in cmp["stacks"]}


# Base: the wait's runs spread from 0.1 to 0.3 s.  "same": the same build
# again, its wait's median 0.25 (x1.25) but within the base's spread.
# "slow": the kernel twice as long, io faster; rare only in some runs.
base = [summary("b1", 0.50, 0.10, 10, 0.30), summary("b2", 0.52, 0.30, 12, 0.31, rare=0.02),
        summary("b3", 0.48, 0.20, 11, 0.29)]
same = [summary("q1", 0.49, 0.25, 11, 0.30), summary("q2", 0.53, 0.35, 11, 0.32),
        summary("q3", 0.51, 0.15, 13, 0.28)]
slow = [summary("n1", 1.00, 0.25, 11, 0.10, rare=0.05), summary("n2", 1.04, 0.35, 11, 0.11),
        summary("n3", 0.96, 0.15, 13, 0.09, rare=0.04)]
KERNEL, SOLVE, MAIN, WAIT = ("main", "solve", "kernel"), ("main", "solve"), ("main",), ("main", "MPI_Wait")

# --- one build against itself: the wait's noise passes ---------------------
code, out, err, cmp = compare(base, same, "--fail-above", "1.2")
check_eq((code, err), (0, ""), "3 runs against 3 of one build: --fail-above 1.2 passes")
check_matches(cmp, load(base), load(same), "base against same")
check_eq(out, table(cmp), "base against same: the table")
check_eq(out.splitlines()[0], "3 runs against 3 (medians; noise: the new runs' range against "
         "the base runs'); the 7 most changed of 7 stacks", "the table's first line")
check_eq(out.splitlines()[-1], "--fail-above 1.2: pass: 0 counted stacks slower than x1.2 beyond "
         "the runs' spread", "the verdict")
w = by_path(cmp)[WAIT]
check_eq((w["time_incl_s"], w["time_incl_range_s"], w["ratio"], w["noise"], w["counted"],
          w["slower"]), ([0.20, 0.25], [[0.10, 0.30], [0.15, 0.35]], 0.25 / 0.20, "within", True,
                         False), "MPI_Wait: x1.25 within the runs' spread")
check_eq(w["calls"], [11, 11], "MPI_Wait's calls: the low medians of 10, 12, 11 and 11, 11, 13")
check_eq((len(cmp["base"]["runs"]), [r["file"] for r in cmp["new"]["runs"]], cmp["base"]["file"]),
         (3, same, base[0]), "the runs' descriptions; file: the first run's")
totals = sorted(json.load(open(p))["stacks"][0]["time_incl_s"] for p in base)
check_eq((cmp["base"]["time_incl_s"], cmp["gate"]["threshold_s"], cmp["base"]["stacks"]),
         (totals[1], 0.01 * totals[1], 7), "the base side: the median total, its threshold")
# One run a side: the wait's x2.5 fails (the rule of a single run).
code, out, err, one = compare(base[:1], same[:1], "--fail-above", "1.2")
check_eq((code, one["gate"]["slower"], by_path(one)[WAIT]["noise"]), (3, [list(WAIT)], None),
         "b1 against q1 alone: MPI_Wait x2.5 fails, no noise to judge by")
check_eq(err.splitlines()[0], "hooktrace-report: slower: main > MPI_Wait: 0.100000 s -> "
         "0.250000 s (x2.500 > 1.2)", "b1 against q1: the stderr line of one run a side")

# --- a kernel made 2x slower --------------------------------------------------
code, out, err, cmp = compare(base, slow, "--fail-above", "1.2")
check_eq(code, 3, "the kernel 2x slower: exit status 3")
check_matches(cmp, load(base), load(slow), "base against slow")
check_eq(cmp["gate"]["slower"], [list(KERNEL), list(SOLVE), list(MAIN)],
         "gate.slower: the kernel first (its exclusive time grew), then its callers")
check_eq(out, table(cmp), "base against slow: the table")
check_eq(out.splitlines()[-1], "--fail-above 1.2: FAIL: 3 counted stacks slower than x1.2 beyond "
         "the runs' spread", "base against slow: the verdict")
k = by_path(cmp)[KERNEL]
check_eq(err.splitlines(), [
    "hooktrace-report: slower: main > solve > kernel: 0.500000 s -> 1.000000 s (x2.000 > 1.2; "
    "runs 0.480000..0.520000 s -> 0.960000..1.040000 s)",
    "hooktrace-report: slower: main > solve: %.6f s -> %.6f s (x%.3f > 1.2; runs %.6f..%.6f s -> "
    "%.6f..%.6f s)" % tuple(by_path(cmp)[SOLVE]["time_incl_s"] + [by_path(cmp)[SOLVE]["ratio"]] +
                            by_path(cmp)[SOLVE]["time_incl_range_s"][0] +
                            by_path(cmp)[SOLVE]["time_incl_range_s"][1]),
    "hooktrace-report: slower: main: %.6f s -> %.6f s (x%.3f > 1.2; runs %.6f..%.6f s -> "
    "%.6f..%.6f s)" % tuple(by_path(cmp)[MAIN]["time_incl_s"] + [by_path(cmp)[MAIN]["ratio"]] +
                            by_path(cmp)[MAIN]["time_incl_range_s"][0] +
                            by_path(cmp)[MAIN]["time_incl_range_s"][1]),
    "hooktrace-report: 3 stacks slowed by more than 1.2 beyond the runs' spread (stacks of at "
    "least %.6f s in the base runs count)" % cmp["gate"]["threshold_s"]], "the stderr lines")
check_eq((k["ratio"], k["ratio_excl"], k["noise"], k["noise_excl"]), (2.0, 2.0, "slower", "slower"),
         "the kernel: x2 inclusive and exclusive, beyond the noise")
s = by_path(cmp)[SOLVE]
check_eq((s["ratio_excl"], s["noise_excl"]), (1.0, "within"), "solve: its own time unchanged")
io = by_path(cmp)[("main", "io")]
check_eq((io["noise"], io["slower"]), ("faster", False), "io: faster beyond the noise")
rare = by_path(cmp)[("main", "rare")]
check_eq((rare["status"], rare["runs"], rare["time_incl_s"], rare["time_incl_range_s"],
          rare["ratio"], rare["counted"]),
         ("changed", [1, 2], [0.0, 0.04], [[0.0, 0.02], [0.0, 0.05]], None, False),
         "rare: in 1 base run and 2 new, 0 where absent")

# The kernel made 2x slower, and the ranks that wait for it waiting longer
# by more than its own growth (0.7 s against 0.5 s): the kernel still
# comes first, its callers next, the MPI wait last.
waits = [summary("w1", 1.00, 0.90, 11, 0.30), summary("w2", 1.04, 1.00, 11, 0.31),
         summary("w3", 0.96, 0.80, 13, 0.29)]
wcode, _, werr, wcmp = compare(base, waits, "--fail-above", "1.2")
grew = {p: by_path(wcmp)[p]["time_excl_s"][1] - by_path(wcmp)[p]["time_excl_s"][0] for p in (WAIT, KERNEL)}
check(grew[WAIT] > grew[KERNEL], "the wait's exclusive time grew more than the kernel's: %r" % grew)
check_matches(wcmp, load(base), load(waits), "base against waits")
check_eq((wcode, wcmp["gate"]["slower"]), (3, [list(KERNEL), list(MAIN), list(SOLVE), list(WAIT)]),
         "gate.slower: the kernel first, the stack ending in MPI_Wait after the others")
check_eq([line.split(":")[2].strip() for line in werr.splitlines()[:4]],
         ["main > solve > kernel", "main", "main > solve", "main > MPI_Wait"], "the stderr lines' order")

# Two runs a side: the mean of the two middle ones; counts the lower.
code, out, err, two = compare(base[:2], slow[:2])
check_eq((code, err), (0, ""), "two runs a side")
check_matches(two, load(base[:2]), load(slow[:2]), "two runs a side")
check_eq((by_path(two)[KERNEL]["time_incl_s"], by_path(two)[WAIT]["calls"]),
         ([(0.50 + 0.52) / 2, (1.00 + 1.04) / 2], [10, 11]), "two runs: medians and low medians")
# One base run against three new: the new runs' range against the one value.
code, out, err, mixed = compare(base[:1], slow, "--fail-above", "1.2")
check_matches(mixed, load(base[:1]), load(slow), "one run against three")
check_eq((code, by_path(mixed)[WAIT]["noise"], list(WAIT) in mixed["gate"]["slower"]),
         (3, "slower", True), "one against three: MPI_Wait's 0.1 s below all three new runs")

if HAVE_CHROMIUM:
    page_path = os.path.join(h, "runs.html")
    check_eq(tool("--compare", ",".join(base), ",".join(slow), "--fail-above", "1.2", "-o",
                  page_path)[0], 3, "runs.html")
    page = check_page(page_path, cmp, "runs.html")
    if page is not None:
        tr = page.find_all("tr", data_field="runs")
        check_eq([[div.text for div in td.find_all("div")] for td in tr[0].find_all("td")]
                 if tr else None,
                 [["%s (%s)" % (r["file"], "%.3f s" % r["time_incl_s"]) for r in cmp[k]["runs"]]
                  for k in ("base", "new")], "runs.html: each side's runs")
        row = [t for t in page.find_all("tr", data_path=None)
               if json.loads(t.get("data-path")) == list(KERNEL)][0]
        check_eq([d.text for d in row.find_all("div", **{"class": "range"})][:2],
                 ["480.000 ms .. 520.000 ms", "960.000 ms .. 1.040 s"],
                 "runs.html: the kernel's ranges below its medians")
        check_eq(page.by_id("ht-ranks-warning"), None, "runs.html: no rank warning")

# --- rank counts that differ --------------------------------------------------
r8 = summary("r8", 1.00, 0.25, 11, 0.10, ranks=8)
warning = ("hooktrace-report: warning: the rank counts differ: %s has 4 ranks (an MPI summary: "
           "sums over them), %s has 8 ranks (an MPI summary: sums over them); the figures are "
           "sums over ranks and change with their number (--scaling compares rank counts)\n"
           % (base[0], r8))
code, out, err, cmp = compare(base, slow[:2] + [r8])
check_eq((code, err, cmp["ranks_differ"], out), (0, warning, True, table(cmp)),
         "a new run of 8 ranks: a warning, the outputs")
if HAVE_CHROMIUM:
    page_path = os.path.join(h, "ranks.html")
    check_eq(tool("--compare", ",".join(base), ",".join(slow[:2] + [r8]), "-o", page_path)[0], 0,
             "ranks.html")
    page = check_page(page_path, cmp, "ranks.html")
    if page is not None:
        shown = page.by_id("ht-ranks-warning")
        check(shown is not None and shown.text.startswith("Warning: the profiles' rank counts "
                                                           "differ"), "ranks.html: the warning")
lost = os.path.join(h, "refused.json")
check_eq(tool("--compare", ",".join(base), ",".join(slow[:2] + [r8]), "--fail-above", "1.2",
              "--json", lost),
         (4, "", "hooktrace-report: the rank counts differ: %s has 4 ranks (an MPI summary: sums "
                 "over them), %s has 8 ranks (an MPI summary: sums over them); --fail-above does "
                 "not judge figures summed over different ranks (--force judges them all the "
                 "same)\n" % (base[0], r8)), "--fail-above on different rank counts: exit 4")
check(not os.path.exists(lost), "exit 4: no output written")
code, out, err, cmp = compare(base, slow[:2] + [r8], "--fail-above", "1.2", "--force")
check_eq((code, err.splitlines(True)[0], cmp["gate"]["force"], cmp["ranks_differ"]),
         (3, warning, True, True), "--force: judged all the same, the warning kept")
b2 = summary("b_2ranks", 0.48, 0.20, 11, 0.29, ranks=2)
code, out, err, cmp = compare(base[:2] + [b2], same)
check_eq((code, err.split(";")[0]),
         (0, "hooktrace-report: warning: the rank counts differ: %s has 4 ranks (an MPI summary: "
             "sums over them), %s has 2 ranks (an MPI summary: sums over them)" % (base[0], b2)),
         "runs of one side that differ")
own = summary("rank1", 0.50, 0.10, 10, 0.30, rank=1)
code, out, err, cmp = compare(base[:1], [own])
check_eq((code, err.split(";")[0]),
         (0, "hooktrace-report: warning: the rank counts differ: %s has 4 ranks (an MPI summary: "
             "sums over them), %s has 4 ranks (one rank's own profile)" % (base[0], own)),
         "a summary against one rank's own file")
one_rank = summary("one_rank", 0.50, 0.10, 10, 0.30, ranks=1)
no_mpi = summary("no_mpi", 0.50, 0.10, 10, 0.30, ranks=None)
code, out, err, cmp = compare([one_rank], [no_mpi], "--fail-above", "1.2")
check_eq((code, err, cmp["ranks_differ"]), (0, "", False),
         "a summary of 1 rank against a run without MPI: the same figures")

# --- malformed lists, --top, --json - --------------------------------------------
missing = os.path.join(h, "missing.json")
for args, first in (
        (("%s,,%s" % (base[0], base[1]), same[0]),
         "hooktrace-report: --compare: '%s,,%s' has an empty file name (the runs of a side are "
         "separated by one comma each)" % (base[0], base[1])),
        ((base[0] + ",", same[0]),
         "hooktrace-report: --compare: '%s,' has an empty file name (the runs of a side are "
         "separated by one comma each)" % base[0]),
        ((base[0], "," + same[0]),
         "hooktrace-report: --compare: ',%s' has an empty file name (the runs of a side are "
         "separated by one comma each)" % same[0]),
        (("%s,%s" % (base[0], base[0]), same[0]),
         "hooktrace-report: --compare: '%s' is given twice for one side" % base[0]),
        ((base[0], same[0], "--top", "x"), "hooktrace-report: --top: 'x' is not a number >= 0"),
        ((base[0], same[0], "--top", "1.5"), "hooktrace-report: --top: '1.5' is not a whole number")):
    code, out, err = tool("--compare", *args)
    check_eq((code, out, err.splitlines()[0] if err else ""), (2, "", first),
             "usage error: %r" % (args,))
check_eq(tool("--compare", "%s,%s" % (base[0], missing), same[0]),
         (1, "", "hooktrace-report: cannot read %s: No such file or directory\n" % missing),
         "a missing run in a list: exit 1")
code, out, err, cmp = compare(base, slow, "--top", "2", "--fail-above", "1.2")
check_eq((code, out, len(out.splitlines())), (3, table(cmp, 2), 5), "--top 2: two rows")
code, out, err, cmp = compare(base, slow, "--top", "0")
check_eq((code, out, err), (0, "", ""), "--top 0: no table")
code, out, err = tool("--compare", ",".join(base), ",".join(slow), "--json", "-")
check_eq((code, err, json.loads(out)["gate"]["slower"] if code == 0 else None),
         (0, table(json.loads(out)) if code == 0 else None, []),
         "--json -: the JSON on stdout, the table on stderr")

# --- the target on a real program ------------------------------------------------
# Three runs of one build and three more, interleaved so that a change of
# the machine's load falls on both sides alike; three with kernel_b given
# twice the time.
exe = program("compare_noise")
runs = {"a": [], "b": [], "slow": []}
for i in range(3):
    for side, args in (("a", ["200", "200"]), ("b", ["200", "200"]), ("slow", ["200", "400"])):
        r = run(exe, args)
        check_eq(r.returncode, 0, "compare_noise %s run %d" % (side, i))
        runs[side].append(r.path(".json"))
code, out, err, cmp = compare(runs["a"], runs["b"], "--fail-above", "1.2")
check_eq((code, err, cmp["gate"]["slower"]), (0, "", []),
         "compare_noise: 3 runs against 3 of one build pass --fail-above 1.2")
check_matches(cmp, load(runs["a"]), load(runs["b"]), "compare_noise a against b")
check_eq(out, table(cmp), "compare_noise a against b: the table")
check_eq(by_path(cmp)[("main", "solve", "kernel_b")]["calls"], [4, 4], "kernel_b's calls")
code, out, err, cmp = compare(runs["a"], runs["slow"], "--fail-above", "1.2")
check_eq((code, cmp["gate"]["slower"][:1]), (3, [["main", "solve", "kernel_b"]]),
         "compare_noise: kernel_b 2x slower fails --fail-above 1.2, first")
check(set(map(tuple, cmp["gate"]["slower"])) <= {("main", "solve", "kernel_b"), ("main", "solve"),
                                                 ("main",)},
      "compare_noise: only kernel_b and its callers fail: %r" % cmp["gate"]["slower"])
check_matches(cmp, load(runs["a"]), load(runs["slow"]), "compare_noise a against slow")
check_eq(out, table(cmp), "compare_noise a against slow: the table")
check(err.startswith("hooktrace-report: slower: main > solve > kernel_b: "),
      "compare_noise: kernel_b first on stderr: %r" % err.splitlines()[:1])
finish()
