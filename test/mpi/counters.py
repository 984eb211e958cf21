"""Counters in an MPI program (test/mpi/counters_mpi.c on 4 ranks): three
software-defined PAPI events the program owns.  The summary's counters are
the sums over the ranks, exactly; each rank's own file has its own; the MPI
routines' stacks carry counters too (MTEST::reads, which grows by one per
read, counts exactly 1 per call of a routine with nothing recorded inside:
hooktrace reads once as the routine is entered and once as it returns).
The HTML report's function table shows the same figures, read in headless
chromium when it is installed."""
import os
import shutil
from mpilib import *
import browser

require_launcher()
if os.environ.get("HT_PAPI_SDE") != "yes":
    print("SKIP: built without PAPI's SDE library")
    finish()

N = 4
WORK, SENT, READS = "sde:::MTEST::work", "sde:::MTEST::sent", "sde:::MTEST::reads"
EXE = mpi_program("counters_mpi")

# One rank's figures: {path: (calls, {event: (incl, excl)})}.  compute adds
# 7 a call (5 calls), exchange 100 before each of its 3 sends; reads: a
# call's inclusive count is 1 + the reads made inside it (2 per recorded
# call inside; main and MPI_Finalize, still open at MPI_Finalize's
# shut-down, are closed there by one read each, MPI_Finalize's first).
RANK = {
    "main": (1, {WORK: (35, 0), SENT: (300, 0), READS: (29, 9)}),
    "main;MPI_Init": (1, {WORK: (0, 0), SENT: (0, 0), READS: (1, 1)}),
    "main;compute": (5, {WORK: (35, 35), SENT: (0, 0), READS: (5, 5)}),
    "main;exchange": (1, {WORK: (0, 0), SENT: (300, 300), READS: (13, 7)}),
    "main;exchange;MPI_Send": (3, {WORK: (0, 0), SENT: (0, 0), READS: (3, 3)}),
    "main;exchange;MPI_Recv": (3, {WORK: (0, 0), SENT: (0, 0), READS: (3, 3)}),
    "main;MPI_Finalize": (1, {WORK: (0, 0), SENT: (0, 0), READS: (1, 1)}),
}


def as_json(figures, times):
    return {e: {"incl": i * times, "excl": x * times} for e, (i, x) in figures.items()}


r = mpirun(EXE, N, config={"counters": [WORK, SENT, READS],
                           "mpi": {"rank_files": list(range(N))}})
check_status(r, 0, "counters on 4 ranks")
check_eq(sorted(r.stdout.splitlines()),
         ["rank %d: work 35 sent 300" % k for k in range(N)], "the program's output")
check("hooktrace: counter" not in r.stderr, "no counter message: every event readable")

s = r.summary()
if s:
    check_eq(s.doc["counters"]["events"], [WORK, SENT, READS], "summary: the events")
    check_eq(s.doc["counters"]["unavailable"], [], "summary: none unavailable")
    check_eq(sorted(s.paths()), sorted(RANK), "summary: the stacks")
    for path, (calls, figures) in RANK.items():
        st = s.stack(path)
        check_eq(st["calls"], calls * N, "summary: calls of " + path)
        check_eq(st.get("counters"), as_json(figures, N), "summary: counters of %s, summed over"
                 " the 4 ranks" % path)
    log = r.text(".log")
    check("Counters, all threads of all ranks" in log, "summary log: the counters table")
    send = s.stack("main;exchange;MPI_Send")
    line = [l for l in log.splitlines() if l.split()[-2:] == ["MPI_Send", str(send["id"])]
            and len(l.split()) == 8]
    check_eq([l.split()[:6] for l in line], [["0", "0", "0", "0", "12", "12"]],
             "summary log: MPI_Send's counters row")

# The report: one column pair per event, each cell the summary's exact
# figure (every function here has one stack, so per function = per stack).
if s and shutil.which("chromium") and check(r.exists(".html"), "counters_mpi.html written"):
    page, errors, page_errors = browser.load(r.path(".html"))
    if page is not None:
        browser.expect_no_errors(errors, page_errors, "counters_mpi.html")
        check_eq([li.get("data-event") for li in page.by_id("ht-counter-events").find_all("li")],
                 [WORK, SENT, READS], "report: the events listed")
        rows = page.by_id("ht-functions").find_all("tr", data_function=None)
        got = {}
        for tr in rows:
            for td in tr.find_all("td", data_event=None):
                got[(tr.get("data-function"), td.get("data-event"), td.get("data-kind"))] = \
                    int(td.get("data-value"))
        want = {}
        for path, (calls, figures) in RANK.items():
            for e, (i, x) in figures.items():
                want[(path.split(";")[-1], e, "incl")] = i * N
                want[(path.split(";")[-1], e, "excl")] = x * N
        check_eq(got, want, "report: every function's counters, summed over the 4 ranks")
        # per call stack: each flame-graph frame's hover text (main is
        # always shown; the others when above the 0.1% cut)
        titles = {}
        for g in page.by_id("ht-flame").find_all("g", name=None):
            t = g.find_all("title")
            if t:
                titles[g.get("name")] = t[0].text
        check("main" in titles, "report: main has a frame")
        for path, (calls, figures) in RANK.items():
            name = path.split(";")[-1]
            if name in titles:
                for e, (i, x) in figures.items():
                    line = "%s: %s inclusive, %s exclusive" % (e, "{:,}".format(i * N),
                                                               "{:,}".format(x * N))
                    check(line in titles[name].split("\n"), "report: frame %s says %r (title %r)"
                          % (name, line, titles[name]))

for k in range(N):
    p = r.rank_profile(k)
    if not p:
        continue
    check_eq(sorted(p.paths()), sorted(RANK), "rank %d: the stacks" % k)
    for path, (calls, figures) in RANK.items():
        st = p.stack(path)
        check_eq(st["calls"], calls, "rank %d: calls of %s" % (k, path))
        check_eq(st.get("counters"), as_json(figures, 1), "rank %d: counters of %s" % (k, path))
        check_eq([t.get("counters") for t in st["threads"]], [as_json(figures, 1)],
                 "rank %d: the thread's counters of %s" % (k, path))

# Without counters: no counters anywhere, as before.
r = mpirun(EXE, N)
check_status(r, 0, "no counters")
s = r.summary()
if s:
    check("counters" not in s.doc, "no counters: no top-level key")
    check(all("counters" not in st for st in s.doc["stacks"]), "no counters: no stack has them")
finish()
