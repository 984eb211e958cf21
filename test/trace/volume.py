"""Trace volume (docs/trace.md, "Volume"; docs/score.md).

1. Throttling in a trace: test/mpi/throttle_mpi.c on 4 ranks with
   min_calls 1000.  tiny and late are throttled at their 1001st call on
   every rank: their Enter events in the archive are exactly the profile's
   1001 calls, each location has one marker per throttled function (a
   ParameterUnsignedInt of value 1001 naming the function's region) right
   after its last Leave, Enter and Leave balance and nest, the summary line
   counts the 8 throttlings, and every MPI event of the run with throttling
   off is there (exchange and outer > middle carry MPI and are never
   throttled).
2. The bound: trace_calls (two threads, no MPI) with trace.max_bytes_per_rank
   1,000,000 and throttling off: the archive's files of the process are
   within the bound (in memory a function event takes 16 bytes, in the
   archive 12 to 13: the slack of 4 KiB covers the Leaves that close the
   open calls, the cut's records and the location's definition files), one
   MeasurementOnOff(OFF) per thread with the bound as attribute, one message,
   the archive reads and nests.  On 4 ranks (throttle_mpi, 100,000 bytes):
   function events stop, every MPI event is kept, one message for the job,
   and hooktrace-analyze matches every message of the bounded archive.
3. hooktrace-score on the profile of the unthrottled MPI run: exact bytes
   per function (24 per call, 16 per MPI message), the prediction per rank
   within 2% of the archive's files, and the filter written for a budget
   brings the next run's archive under it; clear errors for a missing file
   and for a file that is not a profile."""
import json
import os
import re
import stat
import subprocess
import sys
import threading

sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "integration"))
sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "mpi"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from htlib import check, check_eq, finish, memcheck, program, run  # noqa: E402
from mpilib import check_status, mpi_program, mpirun, require_launcher  # noqa: E402
from otf2lib import Trace, profile_calls_by_name  # noqa: E402

require_launcher()
SCORE = os.path.join(os.environ.get("HT_TOP_BUILDDIR", "."), "hooktrace-score")
ANALYZE = os.path.join(os.environ.get("HT_TOP_BUILDDIR", "."), "hooktrace-analyze")
N = 4
CALLS = 5000
MIN_CALLS = 1000
MARKER = re.compile(r'Parameter: "hooktrace throttled after calls" <\d+>, Value: (\d+) '
                    r'ADDITIONAL ATTRIBUTES: \("hooktrace throttled function" <\d+>; REGION; '
                    r'"([^"]*)" <\d+>\)')
REGION = re.compile(r'Region: "([^"]*)"')


def archive(r, name):
    return os.path.join(r.directory, name, "traces.otf2")


def rank_bytes(r, name, rank):
    """The archive's files of one process: its locations' events and
    definitions (thread << 32 | rank)."""
    folder = os.path.join(r.directory, name, "traces")
    total = 0
    for f in os.listdir(folder):
        if (int(f.split(".")[0]) & 0xffffffff) == rank:
            total += os.path.getsize(os.path.join(folder, f))
    return total


def mpi_events(t):
    """Per location: MPI event records, and Enter events of MPI routines."""
    counts = {}
    for kind, loc, _, attrs in t.events:
        if kind.startswith("MPI_") or (kind in ("ENTER", "LEAVE") and
                                       REGION.search(attrs).group(1).startswith("MPI_")):
            key = (loc, kind if kind.startswith("MPI_") else kind + " " + REGION.search(attrs).group(1))
            counts[key] = counts.get(key, 0) + 1
    return counts


def traced(config, what, name="throttle_mpi_trace"):
    r = mpirun(mpi_program("throttle_mpi"), N, config=config)
    check_status(r, 0, what)
    t = Trace(archive(r, name))
    check_eq(t.print_status, 0, "%s: otf2-print (stderr: %s)" % (what, t.print_stderr[-300:]))
    check_eq(t.count("ENTER"), t.count("LEAVE"), what + ": as many Leave as Enter events")
    t.check_nesting()
    return r, t


# --- 1. throttled functions in the trace ------------------------------------------
what = "throttled"
r, t = traced({"trace": {"enabled": True}, "mpi": {"rank_files": list(range(N))},
               # 1 ms: late's first 1001 calls stay under it even when load or a trace
               # flush stalls them (at 20 us a stall at load 10 kept late whole).
               "throttle": {"min_calls": MIN_CALLS, "max_ns_per_call": 1000000}}, what)
check(re.search(r"hooktrace: trace: \./throttle_mpi_trace/traces\.otf2 \(\d+ events; 8 functions "
                r"throttled, summed over ranks\)\n", r.stderr),
      what + ": the summary line counts the throttled functions: %r" % r.stderr[-300:])
p = r.summary()
check_eq(dict(t.enters()), {k: v for k, v in profile_calls_by_name(p).items() if v},
         what + ": Enter events per region = profile calls")
for rank in range(N):
    rp = r.rank_profile(rank)
    ev = [e for e in t.events if e[1] == rank]
    for fn in ("tiny", "late"):
        enters = sum(1 for k, _, _, a in ev if k == "ENTER" and REGION.search(a).group(1) == fn)
        check_eq(enters, MIN_CALLS + 1, "%s: rank %d: Enter events of %s" % (what, rank, fn))
        check_eq(rp.calls("main;%s;%s" % ("compute" if fn == "tiny" else "late_caller", fn)),
                 MIN_CALLS + 1, "%s: rank %d: the profile's calls of %s" % (what, rank, fn))
    markers = [(i, MARKER.search(a)) for i, (k, _, _, a) in enumerate(ev) if k == "PARAMETER_UINT64"]
    check_eq(sorted((m.group(2), int(m.group(1))) for _, m in markers if m),
             [("late", MIN_CALLS + 1), ("tiny", MIN_CALLS + 1)],
             "%s: rank %d: one marker per throttled function, with its calls" % (what, rank))
    for i, m in markers:
        if m:
            k, _, _, a = ev[i - 1]
            check_eq((k, REGION.search(a).group(1)), ("LEAVE", m.group(2)),
                     "%s: rank %d: %s's marker follows its last Leave" % (what, rank, m.group(2)))
throttled_mpi = mpi_events(t)

what = "throttling off"
r, t = traced({"trace": {"enabled": True}, "throttle": {"enabled": False}}, what)
check_eq(t.count("PARAMETER_UINT64"), 0, what + ": no marker")
check(re.search(r"\(\d+ events\)\n", r.stderr), what + ": no throttling in the summary line")
check_eq(t.enters()["tiny"], N * CALLS, what + ": every call of tiny traced")
unthrottled_mpi = mpi_events(t)
check_eq(throttled_mpi, unthrottled_mpi, "every MPI event kept when functions are throttled")
check_eq(sum(v for (loc, k), v in unthrottled_mpi.items() if k == "MPI_ISEND"), N * CALLS,
         "MpiIsend events")
unthrottled_run = r
unthrottled_bytes = [rank_bytes(r, "throttle_mpi_trace", k) for k in range(N)]

# --- 2. the bound --------------------------------------------------------------------
BOUND = 1000000
SLACK = 4096
what = "bound, serial"
r = run(program("trace_calls"), ["200000"], config={
    "trace": {"enabled": True, "max_bytes_per_rank": BOUND, "name": "bounded"},
    "throttle": {"enabled": False}})
check_eq(r.returncode, 0, what + ": exit status")
t = Trace(archive(r, "bounded"))
check_eq(t.print_status, 0, what + ": otf2-print reads the archive")
check_eq(t.count("ENTER"), t.count("LEAVE"), what + ": as many Leave as Enter events")
t.check_nesting()
size = rank_bytes(r, "bounded", 0)
check(BOUND // 2 < size <= BOUND + SLACK, "%s: the process's archive files, %d bytes, within "
      "%d + %d and the bound used" % (what, size, BOUND, SLACK))
cuts = [(loc, a) for k, loc, _, a in t.events if k == "MEASUREMENT_ON_OFF"]
check_eq(sorted(loc for loc, _ in cuts), [0, 1 << 32], what + ": one cut per thread")
check(all("Mode: OFF" in a and '"trace.max_bytes_per_rank" <1>; UINT64; %d)' % BOUND in a
          for _, a in cuts), what + ": the cut is MeasurementOnOff(OFF) with the bound: %r" % cuts)
message = ("hooktrace: trace: this process reached trace.max_bytes_per_rank (%d bytes) and stopped "
           "recording function events there (their open calls end at that point). To trace "
           "further, raise the bound in the config file, e.g. {\"trace\": {\"max_bytes_per_rank\": "
           "%d}} (0: no bound), or leave hot functions out with trace.exclude_functions "
           "(hooktrace-score PROFILE.json --budget SIZE writes them)\n" % (BOUND, 4 * BOUND))
check_eq(r.stderr.count("max_bytes_per_rank ("), 1, what + ": one message")
check(message in r.stderr, what + ": the message: %r" % r.stderr)
check("trace_calls: 200000" in r.stdout, what + ": program output unchanged")

what = "bound, 4 ranks"
r, t = traced({"trace": {"enabled": True, "max_bytes_per_rank": 100000},
               "throttle": {"enabled": False}}, what)
check_eq(r.stderr.count("max_bytes_per_rank ("), 1, what + ": one message for the job")
check("hooktrace: trace: 4 of 4 ranks reached trace.max_bytes_per_rank (100000 bytes) and stopped "
      "recording function events there (their open calls end at that point; MPI events were kept)"
      in r.stderr, what + ": the message: %r" % r.stderr[-600:])
check_eq(t.count("MEASUREMENT_ON_OFF"), N, what + ": one cut per rank")
check(t.enters()["tiny"] < N * CALLS, what + ": function events stopped (%d of tiny's %d calls)"
      % (t.enters()["tiny"], N * CALLS))
check_eq(mpi_events(t), unthrottled_mpi, what + ": every MPI event kept beyond the bound")
report = os.path.join(r.directory, "analysis.json")
proc = subprocess.run(memcheck([ANALYZE, "-q", "--json", report,
                                os.path.join(r.directory, "throttle_mpi_trace")]),
                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                      timeout=120)
if check_eq(proc.returncode, 0, what + ": hooktrace-analyze exit status (%s)" % proc.stderr):
    with open(report) as f:
        analysis = json.load(f)
    check_eq(analysis["comm_matrix"], r.summary().doc["comm_matrix"],
             what + ": the analyzer's comm_matrix = the profile's")
    check_eq({k: analysis["warnings"][k] for k in ("missing_receive", "receive_without_send",
                                                   "isend_not_completed")},
             {"missing_receive": 0, "receive_without_send": 0, "isend_not_completed": 0},
             what + ": the analyzer matches every message")

# --- 3. hooktrace-score --------------------------------------------------------------
what = "hooktrace-score"
profile = os.path.join(unthrottled_run.directory, "throttle_mpi.json")
proc = subprocess.run([SCORE, profile, "--top", "50"], stdout=subprocess.PIPE,
                      stderr=subprocess.PIPE, universal_newlines=True)
check_eq(proc.returncode, 0, what + ": exit status (%s)" % proc.stderr)
rows = {m.group(3): (int(m.group(1)), int(m.group(2)))
        for m in re.finditer(r"^\s+(\d+)\s+(\d+)\s+[\d.]+%  (\S+)", proc.stdout, re.M)}
for fn, calls, messages in [("tiny", N * CALLS, 0), ("exchange", N * CALLS, 0),
                            ("middle", N * CALLS, 0), ("MPI_Isend", N * CALLS, N * CALLS),
                            ("MPI_Irecv", N * CALLS, N * CALLS), ("late", N * (CALLS + 1), 0)]:
    check_eq(rows.get(fn), (24 * calls + 16 * messages, calls), "%s: bytes and calls of %s" % (what, fn))
m = re.search(r"predicted trace: (\d+) bytes in all, (\d+) bytes per rank", proc.stdout)
predicted = int(m.group(2)) if m else 0
actual = sum(unthrottled_bytes) / N
check(abs(predicted - actual) <= 0.02 * actual, "%s: predicted %d bytes per rank, the archive "
      "has %d: within 2%%" % (what, predicted, actual))
BUDGET = 600000
filt = os.path.join(unthrottled_run.directory, "filter.json")
proc = subprocess.run([SCORE, profile, "--budget", str(BUDGET), "-o", filt], stdout=subprocess.PIPE,
                      stderr=subprocess.PIPE, universal_newlines=True)
check_eq(proc.returncode, 0, what + ": --budget exit status (%s %s)" % (proc.stdout, proc.stderr))
check_eq([n for n in os.listdir(unthrottled_run.directory) if n.startswith("filter.json.tmp.")], [],
         what + ": written through a temporary file of its own, none left")
with open(filt) as f:
    snippet = json.load(f)
excluded = snippet["trace"]["exclude_functions"]
check(excluded and all(re.fullmatch(r"\^[A-Za-z_]+\$", x) for x in excluded) and
      not any(x.startswith("^MPI_") or x == "^main$" for x in excluded),
      what + ": anchored names, no MPI routine, not main: %r" % excluded)
r, t = traced({"trace": dict(snippet["trace"], enabled=True), "throttle": {"enabled": False}},
              what + ": the filter applied")
for k in range(N):
    size = rank_bytes(r, "throttle_mpi_trace", k)
    check(size <= BUDGET, "%s: rank %d's archive, %d bytes, under the budget %d"
          % (what, k, size, BUDGET))
check_eq(mpi_events(t), unthrottled_mpi, what + ": every MPI event kept with the filter")

proc = subprocess.run([SCORE, "/nonexistent/app.json"], stdout=subprocess.PIPE,
                      stderr=subprocess.PIPE, universal_newlines=True)
check_eq((proc.returncode, proc.stderr), (2, "hooktrace-score: cannot read /nonexistent/app.json: "
                                             "No such file or directory\n"), what + ": missing file")
config = os.path.join(unthrottled_run.directory, "config.json")
proc = subprocess.run([SCORE, config], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                      universal_newlines=True)
check_eq((proc.returncode, proc.stderr), (2, "hooktrace-score: %s is not a hooktrace profile (no "
                                             "\"hooktrace_version\" and \"stacks\"): give the "
                                             "<basename>.json profile hooktrace wrote\n" % config),
         what + ": not a profile")
# -o names a FIFO: written in place (a rename would replace it, as it
# would /dev/null), the same snippet as in the file.
fifo = os.path.join(unthrottled_run.directory, "filter.fifo")
os.mkfifo(fifo)
got = []
reader = threading.Thread(target=lambda: got.append(open(fifo).read()), daemon=True)
reader.start()
proc = subprocess.run([SCORE, profile, "--budget", str(BUDGET), "-o", fifo], stdout=subprocess.PIPE,
                      stderr=subprocess.PIPE, universal_newlines=True)
reader.join(30)
check_eq(proc.returncode, 0, what + ": -o FIFO: exit status (%s)" % proc.stderr)
check(stat.S_ISFIFO(os.lstat(fifo).st_mode), what + ": -o FIFO: it stays a FIFO")
check(got != [] and json.loads(got[0]) == snippet, what + ": -o FIFO: the reader got the snippet")
# Format 2 (stacks[].threads with one thread too) is read as format 3;
# format 1 (no functions table) is refused.
with open(profile) as f:
    doc = json.load(f)
for fmt, status in ((2, 0), (1, 2)):
    old = os.path.join(unthrottled_run.directory, "format_%d.json" % fmt)
    with open(old, "w") as f:
        json.dump(dict(doc, format=fmt), f)
    proc = subprocess.run([SCORE, old, "--top", "50"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    check_eq((proc.returncode, proc.stderr), (status, "" if status == 0 else
             "hooktrace-score: %s: profile format 1; this hooktrace-score reads format 2 or later "
             "(hooktrace after 2026-11-25): run the program again\n" % old),
             "%s: a profile of format %d" % (what, fmt))
finish()
