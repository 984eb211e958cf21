"""Counters in an MPI program (test/mpi/counters_mpi.c on 4 ranks): three
software-defined PAPI events the program owns.  The summary's counters are
the sums over the ranks, exactly; each rank's own file has its own; the MPI
routines' stacks carry counters too (MTEST::reads, which grows by one per
read, counts exactly 1 per call of a routine with nothing recorded inside:
hooktrace reads once as the routine is entered and once as it returns).
The HTML report's function table shows the same figures, read in headless
chromium when it is installed.

Then perf events next to an SDE event, as the machine has them and forced
off (HOOKTRACE_PAPI_DISABLE=perf_event, docs/counters.md): where they are
read, each rank's page faults in the function touching 16384 fresh pages
are at least that, its 3 sleeps at least 3 context switches, the summary
holds at least 4 times those, and MTEST::work stays exact; where they are
not, they are listed unavailable with the component's reason and the run
goes on."""
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
        check_eq([t.get("counters") for t in p.threads_of(st)], [as_json(figures, 1)],
                 "rank %d: the thread's counters of %s" % (k, path))

# perf events, read per thread on every rank; the same figures' least
# values on each rank and 4 times them in the summary.
FAULTS, PAGES = "perf::PAGE-FAULTS", 16384
SWITCHES = "perf::CONTEXT-SWITCHES:u=1:k=1"  # the kernel's domain: docs/counters.md
DISABLED = "the perf_event component is disabled: "
TOUCH, NAP, COMPUTE = "main;touch_fresh_pages", "main;nap", "main;compute"
for env, forced in ((None, False), ({"HOOKTRACE_PAPI_DISABLE": "perf_event"}, True)):
    what = "perf events " + ("off" if forced else "as the machine has them")
    events = [WORK, FAULTS, SWITCHES]
    r = mpirun(EXE, N, args=["perf"], env=env,
               config={"counters": events, "mpi": {"rank_files": list(range(N))}})
    check_status(r, 0, what)
    check_eq(sorted(r.stdout.splitlines()),
             ["rank %d: work 35 sent 300" % k for k in range(N)], what + ": the program's output")
    s = r.summary()
    if not s:
        continue
    kept = s.doc["counters"]["events"]
    print("note: %s: counted %s" % (what, ", ".join(kept)))
    unavailable = {u["event"]: u["reason"] for u in s.doc["counters"]["unavailable"]}
    check_eq(sorted(kept + list(unavailable)), sorted(events), what + ": each event kept or listed")
    check(WORK in kept, what + ": the SDE event kept")
    for e, reason in unavailable.items():
        check(reason.startswith(DISABLED) if forced else reason != "",
              what + ": %s dropped for a reason: %r" % (e, reason))
        check("hooktrace: counter %s: %s; not counted\n" % (e, reason) in r.stderr,
              what + ": %s's message on stderr" % e)
    if forced:
        check_eq(kept, [WORK], what + ": the perf events dropped")
    for k, p in [(None, s)] + [(k, r.rank_profile(k)) for k in range(N)]:
        if not p:
            continue
        times = N if k is None else 1
        tag = what + (": summary" if k is None else ": rank %d" % k)
        check_eq([p.calls(x) for x in (TOUCH, NAP, COMPUTE)], [times, 3 * times, 5 * times],
                 tag + ": calls of touch_fresh_pages, nap, compute")
        check_eq(p.stack(COMPUTE)["counters"][WORK], {"incl": 35 * times, "excl": 35 * times},
                 tag + ": MTEST::work of compute, exact")
        if FAULTS in kept:
            v = p.stack(TOUCH)["counters"][FAULTS]
            check(v["incl"] == v["excl"] >= PAGES * times,
                  tag + ": page faults of touch_fresh_pages %r >= %d" % (v, PAGES * times))
        if SWITCHES in kept:
            v = p.stack(NAP)["counters"][SWITCHES]
            check(v["incl"] >= 3 * times, tag + ": context switches of nap %r >= %d"
                  % (v, 3 * times))
        for st in p.doc["stacks"]:
            children = [c for c in p.doc["stacks"] if c["parent"] == st["id"]]
            for e in kept:
                v, below = st["counters"][e], sum(c["counters"][e]["incl"] for c in children)
                check(0 <= v["excl"] == v["incl"] - below,
                      tag + ": %s %s: %r, excl = incl - the callees' %d"
                      % (";".join(st["path"]), e, v, below))

# Without counters: no counters anywhere, as before.
r = mpirun(EXE, N)
check_status(r, 0, "no counters")
s = r.summary()
if s:
    check("counters" not in s.doc, "no counters: no top-level key")
    check(all("counters" not in st for st in s.doc["stacks"]), "no counters: no stack has them")
finish()
