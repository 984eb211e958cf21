#!/usr/bin/env python3
"""MPI benchmarks: the cost hooktrace adds per MPI call, and the hook cost
with open requests.  Prints markdown tables.

1. Added cost per MPI call (bench/mpi_calls.c, 2 ranks): a 0-byte and an
   8-byte MPI_Send/MPI_Recv ping-pong and an 8-byte MPI_Allreduce, run as
   variants
     plain                     no hooktrace
     hooktrace, logging on     libhooktrace, HOOKTRACE_CONFIG unset
     hooktrace, log_messages off   the same binary, {"mpi": {"log_messages": false}}
   alternated (the order rotates each round) for several rounds.  Added
   ns/call is variant − plain of the same round; the table gives the median
   (and range) over rounds.  Target: <= 60 ns per call with logging on.
2. Hook cost with open requests (bench/open_requests.c, rank 0 measured):
   ns per instrumented call with 0, 10, 100, 1000 open MPI_Irecv, and the
   ratio to 0 of the same run.  Target: <= 2x at 100.

Usage (from the build directory; `make bench-mpi` does this):
    python3 bench/mpi_cost.py [--builddir DIR] [--mpiexec mpirun] [--rounds 7]
                              [--iterations 200000] [--open-rounds 7]
                              [--only calls|open]   (--help for the rest)

Stdlib only.  Every run happens in its own empty temporary directory (the
profile files land there), which is deleted afterwards.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import Measure, median, values  # noqa: E402

CALL_TARGET_NS = 60.0
OPEN_TARGET_RATIO = 2.0
OPEN_TARGET_AT = 100
SHARE_WARN = 0.95

TESTS = {"pp0": "0-byte ping-pong (MPI_Send + MPI_Recv)",
         "pp8": "8-byte ping-pong (MPI_Send + MPI_Recv)",
         "ar8": "8-byte MPI_Allreduce"}
TEST_ROUTINES = {"pp0": ["MPI_Send", "MPI_Recv"], "pp8": ["MPI_Send", "MPI_Recv"],
                 "ar8": ["MPI_Allreduce"]}

PLAIN = "plain (no hooktrace)"
ON = "hooktrace, logging on"
NOLOG = "hooktrace, log_messages off"
# label: (program, config or None, writes a profile, logs messages)
CALL_VARIANTS = {
    PLAIN: ("mpi_calls_plain", None, False, False),
    ON: ("mpi_calls_hooktrace", None, True, True),
    NOLOG: ("mpi_calls_hooktrace", {"mpi": {"log_messages": False}}, True, False),
}


class Runner:
    """Runs a program of bench/ under mpirun, re-run (up to --retries times)
    while a rank waited for a CPU during a timed loop."""

    def __init__(self, args):
        self.args = args
        self.launch = shlex.split(args.mpiexec) + shlex.split(args.mpiexec_args)
        self.bindir = os.path.join(os.path.abspath(args.builddir), "bench")
        self.scratch = tempfile.mkdtemp(prefix="hooktrace-bench-mpi-")
        self.retried = 0

    def close(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def run(self, prog, prog_args, config, parse):
        """parse(stdout) gives (what the run measured, its smallest CPU
        share); returns (that, the Run, whose .seen holds the messages sent
        according to the JSON profiles written, or None if none says)."""
        for attempt in range(self.args.retries + 1):
            r = benchlib.run(self.launch + [os.path.join(self.bindir, prog)] + prog_args, config,
                             None, self.scratch, look=messages_sent, tool="mpi_cost")
            measured, share = parse(r.stdout)
            if share >= SHARE_WARN:
                break
            if attempt < self.args.retries:
                self.retried += 1
        return measured, r


def messages_sent(cwd):
    """The sum of messages_sent over the call stacks of the JSON profiles
    in cwd, or None if they hold no such field."""
    total, seen = 0, False
    for name in os.listdir(cwd):
        if not benchlib.is_profile_name(name):
            continue
        try:
            with open(os.path.join(cwd, name)) as f:
                profile = json.load(f)
        except (OSError, ValueError):
            continue
        for stack in profile.get("stacks", []) if isinstance(profile, dict) else []:
            if isinstance(stack, dict) and "messages_sent" in stack:
                seen = True
                total += stack["messages_sent"]
    return total if seen else None


# --- 1. added cost per MPI call -------------------------------------------------

def parse_calls(out):
    """({test: ns per call, test + " share": CPU share, "resolved": {routine:
    library}}, the smallest CPU share) from mpi_calls' output."""
    measured, resolved = {}, {}
    for line in out.splitlines():
        m = re.match(r"test=(\w+) .*ns_per_call=([0-9.]+) .*cpu_share=([0-9.]+)", line)
        if m:
            measured[m.group(1)] = float(m.group(2))
            measured[m.group(1) + " share"] = float(m.group(3))
        if line.startswith("resolved "):
            for item in line.split()[1:]:
                k, _, v = item.partition("=")
                resolved[k] = v
    if not all(t in measured for t in TESTS) or not resolved:
        sys.exit("mpi_cost: unexpected output from mpi_calls:\n%s" % out)
    measured["resolved"] = resolved
    return measured, min(measured[t + " share"] for t in TESTS)


def bench_calls(runner, args):
    prog_args = ["-n", str(args.iterations), "-r", str(args.reps), "-t", ",".join(TESTS)]
    unchecked = set()

    def run_one(label):
        prog, config, profiled, logged = CALL_VARIANTS[label]
        measured, r = runner.run(prog, prog_args, config, parse_calls)
        if profiled and not r.written:
            sys.exit("mpi_cost: %s (%s) wrote no profile: was hooktrace on?" % (prog, label))
        if not profiled and r.written:
            sys.exit("mpi_cost: %s wrote %s" % (prog, r.written))
        # Message logging must really be on (or off): the JSON profile says.
        # With logging off the profile has no message fields at all.
        sent = r.seen
        if logged and sent is None:
            unchecked.add(label)
        elif logged and sent < args.iterations:
            sys.exit("mpi_cost: %s (%s) logged only %d messages" % (prog, label, sent))
        elif not logged and sent:
            sys.exit("mpi_cost: %s (%s) logged %d messages" % (prog, label, sent))
        return measured

    results = benchlib.alternate(list(CALL_VARIANTS), args.rounds, run_one, "calls")
    if unchecked:
        print("mpi_cost: no messages_sent in the JSON profiles of %s: message logging "
              "not verified" % ", ".join(sorted(unchecked)), file=sys.stderr)
    return results


def wrapped(results, label, test):
    resolved = results[label][-1]["resolved"]
    return all("hooktrace" in resolved.get(f, "") for f in TEST_ROUTINES[test])


def report_calls(results, retried, args):
    print("## Added cost per MPI call (2 ranks)")
    print()
    print("ns per MPI call per rank (a ping-pong iteration is 2 calls per rank, an "
          "Allreduce iteration 1), %d iterations per loop, median of %d loops per run, over "
          "%d alternated rounds.  Added = variant − plain of the same round."
          % (args.iterations, args.reps, args.rounds))
    print()
    labels = list(CALL_VARIANTS)
    for t, title in TESTS.items():
        print("### %s" % title)
        print()
        benchlib.ratio_table(
            labels, results, PLAIN, [Measure(t, "ns/call", "difference", digits=1, ratio_digits=1)],
            extra=(["wrapped", "CPU share (min)"], lambda label: [
                "–" if label == PLAIN else "yes" if wrapped(results, label, t) else "**no**",
                "%.2f" % min(values(results[label], t + " share"))]))
    shares = [min(r[t + " share"] for t in TESTS) for runs in results.values() for r in runs]
    print("CPU share: the smallest CPU time / wall time of any timed loop on either rank "
          "in that row (Open MPI polls while it waits, so below 1 a rank was descheduled). "
          "Runs with a loop below %.2f were re-run (up to %d times): %d re-runs; %d of the "
          "%d runs kept are still below %.2f."
          % (SHARE_WARN, args.retries, retried, sum(1 for s in shares if s < SHARE_WARN),
             len(shares), SHARE_WARN))
    print()

    def where(res):
        libs = set(res.values())
        if len(libs) == 1:
            return "all in " + libs.pop()
        return ", ".join("%s in %s" % kv for kv in sorted(res.items()))
    print("Where %s resolve (dladdr in the program): %s." % (
        ", ".join(sorted(results[PLAIN][-1]["resolved"])),
        "; ".join("%s: %s" % (label, where(results[label][-1]["resolved"])) for label in labels)))
    print()
    met_all = True
    for t, title in TESTS.items():
        if not wrapped(results, ON, t):
            print("- %s: %s is not wrapped by this libhooktrace: no verdict" %
                  (title, ", ".join(TEST_ROUTINES[t])))
            met_all = False
            continue
        a = median(benchlib.differences(results[ON], results[PLAIN], t))
        met = a <= CALL_TARGET_NS
        met_all &= met
        print("- %s: hooktrace adds **%.1f ns per call** with logging on (target <= %.0f: %s)"
              % (title, a, CALL_TARGET_NS, "met" if met else "NOT met"))
    print()
    print("Target (<= %.0f ns added per MPI call with message logging on): %s"
          % (CALL_TARGET_NS, "met" if met_all else "NOT met"))
    print()


# --- 2. hook cost with open requests ------------------------------------------

def parse_open(out):
    """({open requests: {figure: value}}, rank 0's smallest CPU share)."""
    rows = {}
    for line in out.splitlines():
        if line.startswith("open="):
            d = dict(kv.split("=", 1) for kv in line.split())
            rows[int(d["open"])] = {k: float(v) for k, v in d.items() if k != "open"}
    if not rows:
        sys.exit("mpi_cost: unexpected output from open_requests:\n%s" % out)
    return rows, min(r["cpu_share"] for r in rows.values())


def bench_open(runner, args, counts):
    """One list of runs, each measuring every count: the counts are
    alternated inside open_requests, and compared within each run."""
    prog_args = ["-n", str(args.open_calls), "-k", ",".join(map(str, counts)),
                 "-r", str(args.open_reps)]
    # The kernel's tiny functions would be throttled after 100,000 calls and
    # their hook calls rewritten away: what is measured is a recorded call.
    config = {"throttle": {"enabled": False}}

    def run_one(_):
        rows, r = runner.run("open_requests", prog_args, config, parse_open)
        if not r.written:
            sys.exit("mpi_cost: open_requests wrote no profile: was hooktrace on?")
        return rows

    runs = benchlib.alternate(["open"], args.open_rounds, run_one, "open")["open"]
    return {k: [run[k] for run in runs] for k in counts}


def report_open(per, retried, counts, args):
    print("## Hook cost with open requests (rank 0 of 2)")
    print()
    print("ns per instrumented call (3 tiny instrumented functions per iteration, %d calls "
          "per loop) while rank 0 has K MPI_Irecv open that rank 1 never matches; default "
          "poll settings (mpi.poll_interval_us 50, poll_max_interval_us 10000, poll_batch 1), "
          "throttling off (every call recorded).  Each run measures every K %d times, "
          "interleaved (median per run), over %d runs; the ratio is ns(K) ÷ ns(0) of the same "
          "run." % (args.open_calls, args.open_reps, args.open_rounds))
    print()
    labels = ["%d open" % k for k in counts]
    results = dict(zip(labels, (per[k] for k in counts)))
    benchlib.ratio_table(
        labels, results, labels[0], [Measure("ns_per_call", "ns/call", digits=2, ratio_digits=2)],
        extra=(["get_status ns (1 request)", "get_status calls per 1000 calls", "CPU share (min)"],
               lambda label: [
                   "–" if label == labels[0] else "%.1f" % median(values(results[label],
                                                                         "get_status_ns")),
                   "%.2f" % median(values(results[label], "polled_per_kcall")),
                   "%.2f" % min(values(results[label], "cpu_share"))]),
        label_title="open requests")
    print("CPU share: rank 0's CPU time / wall time of a loop, the smallest in the row; "
          "runs with a loop below %.2f were re-run (up to %d times): %d re-runs."
          % (SHARE_WARN, args.retries, retried))
    print()
    if OPEN_TARGET_AT in per:
        r = median(benchlib.ratios(per[OPEN_TARGET_AT], per[0], "ns_per_call"))
        print("Target (hook cost with %d open requests <= %.1fx the cost with none): "
              "**%.2fx**, %s" % (OPEN_TARGET_AT, OPEN_TARGET_RATIO, r,
                                 "met" if r <= OPEN_TARGET_RATIO else "NOT met"))
        print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builddir", default=os.environ.get("HT_TOP_BUILDDIR", "."),
                    help="top build directory (holds bench/mpi_calls_* and bench/open_requests)")
    ap.add_argument("--mpiexec", default=os.environ.get("HT_MPIEXEC", "mpirun"))
    ap.add_argument("--mpiexec-args",
                    default="-np 2 --bind-to core --map-by core --mca btl self,vader",
                    help="launch options (default: 2 ranks, each pinned to its own core, "
                         "shared-memory transport; Open MPI syntax)")
    ap.add_argument("--rounds", type=int, default=7, help="rounds of the per-call benchmark")
    ap.add_argument("--iterations", type=int, default=200000,
                    help="iterations per timed loop of mpi_calls (default 200000)")
    ap.add_argument("--reps", type=int, default=5,
                    help="timed loops per test per run of mpi_calls (median; default 5)")
    ap.add_argument("--open-rounds", type=int, default=7,
                    help="runs of open_requests (default 7)")
    ap.add_argument("--open-calls", type=int, default=6000000,
                    help="instrumented calls per timed loop of open_requests")
    ap.add_argument("--open-reps", type=int, default=3,
                    help="timed loops per count per run of open_requests (median)")
    ap.add_argument("--open-counts", default="0,10,100,1000")
    # The poll-settings sweep is gone (its figures with it); the option stays
    # for the commands BENCHMARKS.md records.
    ap.add_argument("--skip-sweep", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--retries", type=int, default=3,
                    help="re-run a run whose CPU share fell below %.2f up to this many "
                         "times (default 3)" % SHARE_WARN)
    ap.add_argument("--only", choices=["calls", "open"], help="run one part only")
    args = ap.parse_args()
    counts = [int(k) for k in args.open_counts.split(",")]
    if 0 not in counts:
        counts.insert(0, 0)

    bindir = os.path.join(os.path.abspath(args.builddir), "bench")
    for prog in ["mpi_calls_plain", "mpi_calls_hooktrace", "open_requests"]:
        if not os.access(os.path.join(bindir, prog), os.X_OK):
            sys.exit("mpi_cost: %s/%s not built: run `make bench-mpi`" % (bindir, prog))

    benchlib.header("MPI benchmarks", "bench/mpi_cost.py", [
        "MPI: %s; launch: %s %s" % (benchlib.mpi_version(shlex.split(args.mpiexec)[0]),
                                    args.mpiexec, args.mpiexec_args)])
    runner = Runner(args)
    try:
        if args.only in (None, "calls"):
            report_calls(bench_calls(runner, args), runner.retried, args)
        if args.only in (None, "open"):
            runner.retried = 0
            report_open(bench_open(runner, args, counts), runner.retried, counts, args)
    finally:
        runner.close()
    print("- load average after the run: %s" % benchlib.loadavg())


if __name__ == "__main__":
    main()
