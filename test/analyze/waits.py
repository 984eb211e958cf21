"""Wait states (docs/analyze.md, "Wait states"): late sender, late
receiver, wait at NxN and at a barrier, late broadcast, early reduce, per
rank and call path, with exact counts and times, in the JSON, the text
report and the HTML page; and traces where nobody waits.  The expected
figures are derived in test/analyze/scenarios_waits.c."""

import os

from analyzelib import analyze, check, check_eq, check_in, finish, ns, run, scratch, write


def waits(a):
    """wait_states as (pattern, rank, callpath, count, ns) in report order;
    None without the field."""
    if "wait_states" not in a.doc:
        return None
    return [(w["pattern"], w["rank"], tuple(w["callpath"]), w["count"], ns(w["time_s"]))
            for w in a.doc["wait_states"]]


def check_order(a, what):
    times = [w["time_s"] for w in a.doc.get("wait_states", [])]
    check_eq(times, sorted(times, reverse=True), what + ": biggest first")


RECV = ("main", "recv_phase", "MPI_Recv")
a = analyze(write("late_sender"))
check_eq(sorted(waits(a) or []), sorted([
    ("late_sender", 0, RECV, 2, 50),
    ("late_sender", 0, ("main", "recv_phase", "MPI_Wait"), 1, 40),
    ("late_sender", 0, ("main", "recv_phase", "MPI_Waitall"), 1, 40),
]), "late_sender: wait states")
check_order(a, "late_sender")
check_eq(a.summary.get("messages"), 6, "late_sender: messages")
check_eq(a.nonzero_warnings(), {}, "late_sender: warnings")

a = analyze(write("late_receiver"))
check_eq(waits(a), [("late_receiver", 0, ("main", "MPI_Ssend"), 1, 80)],
         "late_receiver: wait states")

a = analyze(write("collective_waits"))
MAIN = ("main",)
check_eq(sorted(waits(a) or []), sorted([
    ("wait_at_barrier", 0, MAIN + ("MPI_Barrier",), 1, 60),
    ("wait_at_barrier", 1, MAIN + ("MPI_Barrier",), 1, 50),
    ("wait_at_barrier", 2, MAIN + ("MPI_Barrier",), 1, 40),
    ("wait_at_nxn", 0, MAIN + ("MPI_Allreduce",), 2, 90),
    ("wait_at_nxn", 1, MAIN + ("MPI_Allreduce",), 1, 40),
    ("wait_at_nxn", 2, MAIN + ("MPI_Allreduce",), 2, 80),
    ("wait_at_nxn", 3, MAIN + ("MPI_Allreduce",), 1, 30),
    ("late_broadcast", 0, MAIN + ("MPI_Bcast",), 1, 60),
    ("late_broadcast", 1, MAIN + ("MPI_Bcast",), 1, 50),
    ("late_broadcast", 3, MAIN + ("MPI_Bcast",), 1, 40),
    ("late_broadcast", 1, MAIN + ("sub", "MPI_Bcast"), 1, 50),
    ("early_reduce", 1, MAIN + ("MPI_Reduce",), 1, 20),
]), "collective_waits: wait states")
check_order(a, "collective_waits")
# Equal times come in pattern order, then rank, then call path.
check_eq((waits(a) or [])[:3], [("wait_at_nxn", 0, MAIN + ("MPI_Allreduce",), 2, 90),
                        ("wait_at_nxn", 2, MAIN + ("MPI_Allreduce",), 2, 80),
                        ("wait_at_barrier", 0, MAIN + ("MPI_Barrier",), 1, 60)],
         "collective_waits: first three")

a = analyze(write("no_wait"))
check_eq(waits(a), [], "no_wait: wait states")
check_eq(a.summary.get("messages"), 3, "no_wait: messages")

# A clock of 1e6 ticks/s; a late sender clipped at the receive's record;
# a collective a rank never reaches.
a = analyze(write("wait_edges"))
check_eq(sorted(waits(a) or []), sorted([
    ("late_sender", 0, ("main", "MPI_Recv"), 1, 20000),
    ("wait_at_barrier", 0, ("main", "MPI_Barrier"), 1, 20000),
    ("wait_at_barrier", 1, ("main", "MPI_Barrier"), 1, 10000),
]), "wait_edges: wait states")
check_eq(a.nonzero_warnings(), {"nonpositive_duration": 1}, "wait_edges: warnings")

# The older scenarios have no MPI regions: no wait state, but the field.
a = analyze(write("ring"))
check_eq(waits(a), [], "ring: wait states")

# Text report: a section, biggest first, the call path readable.
r = run([write("late_receiver", "late_receiver_text")])
check_eq(r.returncode, 0, "text: exit status")
check_in("\nWait states (biggest first; seconds)\n"
         "  late_receiver    rank 0               1 x    0.000000080  main > MPI_Ssend\n",
         r.stdout, "text: wait states section")
r = run([write("no_wait", "no_wait_text")])
check_in("\nWait states (biggest first; seconds)\n  (none)\n", r.stdout, "text: no wait states")

# HTML: one self-contained page with the table and the matrix.
out = os.path.join(scratch("html"), "waits.html")
r = run(["-q", "--html", out, write("collective_waits", "collective_waits_html")])
check_eq((r.returncode, r.stderr), (0, ""), "html: exit status and stderr")
page = open(out).read() if os.path.exists(out) else ""
check(page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>"),
      "html: a whole page")
check_in("<td class=\"l\">wait_at_nxn</td><td>0</td><td>2</td><td>0.000000090</td>", page,
         "html: the biggest row")
check_in("main &gt; sub &gt; MPI_Bcast", page, "html: an escaped call path")
check_in("<h2>Communication matrix</h2>\n<p>No messages.</p>", page, "html: the matrix")
check("http" not in page and "<script" not in page, "html: nothing external")
r = run(["--html", "-", "--json", "-", write("no_wait", "no_wait_html")])
check_eq(r.returncode, 2, "html: --html and --json on one stdout is a usage error")

finish()
