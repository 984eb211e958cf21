"""make bench-analyze: hooktrace-analyze against a bare OTF2 read loop.

Writes a synthetic archive of RANKS * ITERATIONS * 8 events (default 16 *
80000 * 8 = 10.24 million) with bench/analyze_write_trace, then, ROUNDS
times, runs bench/analyze_read_loop (the bare loop: the same OTF2 reading
with counting callbacks) and hooktrace-analyze (-q --json FILE) over it,
alternated (the order rotating each round).  Each run is timed as a whole process (wall
clock, perf_counter); its peak RSS and CPU time come from wait4(), and
its CPU share is CPU time / wall time (below 1: it waited for a CPU).  The
ratio "analyze events/s ÷ bare events/s" is computed within each round, so
that a change of machine load between rounds does not enter it; the
report gives the median and range of each figure.

Memory: hooktrace-analyze is also run on an archive a quarter as long; a
peak RSS that does not grow with the trace's length shows that memory
follows the messages in flight.  The archives are deleted at the end
unless --keep DIR is given.  Standard library only."""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import Measure, median, values  # noqa: E402


def timed_rss(argv):
    """Runs argv with fork/exec and wait4: (wall seconds, peak RSS KiB, stdout,
    CPU share = (user + system CPU time) / wall time)."""
    read_fd, write_fd = os.pipe()
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.dup2(write_fd, 1)
        os.close(read_fd)
        os.close(write_fd)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        try:
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    os.close(write_fd)
    chunks = []
    while True:
        data = os.read(read_fd, 65536)
        if not data:
            break
        chunks.append(data)
    os.close(read_fd)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("%s failed with status %d" % (argv[0], os.waitstatus_to_exitcode(status)))
    share = (usage.ru_utime + usage.ru_stime) / wall
    return wall, usage.ru_maxrss, b"".join(chunks).decode(), share


def write_archive(builddir, directory, ranks, iterations):
    writer = os.path.join(builddir, "bench", "analyze_write_trace")
    start = time.perf_counter()
    subprocess.run([writer, directory, str(ranks), str(iterations)], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def size_of(directory):
    return sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(directory) for f in fs)


BARE, ANALYZE = "bare OTF2 read loop", "hooktrace-analyze"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--ranks", type=int, default=16)
    ap.add_argument("--iterations", type=int, default=80000)
    ap.add_argument("--keep", metavar="DIR", help="write the archives here and keep them")
    args = ap.parse_args()

    builddir = os.path.abspath(args.builddir)
    analyze = os.path.join(builddir, "hooktrace-analyze")
    bare = os.path.join(builddir, "bench", "analyze_read_loop")
    top = args.keep or tempfile.mkdtemp(prefix="hooktrace-bench-analyze-")
    os.makedirs(top, exist_ok=True)
    big = os.path.join(top, "big")
    small = os.path.join(top, "quarter")
    json_path = os.path.join(top, "report.json")
    load_before = benchlib.loadavg()
    try:
        for d in (big, small):
            shutil.rmtree(d, ignore_errors=True)
        write_s = write_archive(builddir, big, args.ranks, args.iterations)
        big_mb = size_of(big) / 1e6
        write_archive(builddir, small, args.ranks, max(1, args.iterations // 4))
        anchor = os.path.join(big, "traces.otf2")
        events = args.ranks * args.iterations * 8

        # Warm the page cache, and check both programs see every event.
        _, _, out, _ = timed_rss([bare, anchor])
        bare_events = int(out.split()[0])
        timed_rss([analyze, "-q", "--json", json_path, big])
        with open(json_path) as f:
            doc = json.load(f)
        if bare_events != events or doc["trace"]["events"] != events:
            sys.exit("event counts differ: expected %d, bare %d, analyze %d"
                     % (events, bare_events, doc["trace"]["events"]))

        def run_one(label):
            argv = [bare, anchor] if label == BARE else [analyze, "-q", "--json", json_path, big]
            wall, rss, _, share = timed_rss(argv)
            return {"rate": events / wall, "rss": rss, "share": share}

        results = benchlib.alternate([BARE, ANALYZE], args.rounds, run_one, "analyze_bench")
        quarter_rss = [timed_rss([analyze, "-q", "--json", json_path, small])[1]
                       for _ in range(3)]
        csv_wall, _, _, _ = timed_rss([analyze, "-q", "--csv", os.path.join(top, "m.csv"), big])
        load_after = benchlib.loadavg()
    finally:
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)

    s = doc["summary"]
    print("## hooktrace-analyze against a bare OTF2 read loop")
    print()
    print("- machine: %s, %d CPUs; load average before %s, after %s"
          % (benchlib.cpu_model(), os.cpu_count(), load_before, load_after))
    print("- archive: %d ranks x %d rounds x 8 events = %d events (%.0f MB, written in %.1f s);"
          " %d messages matched, %d warnings, peak %d sends/receives held"
          % (args.ranks, args.iterations, events, big_mb, write_s, s["messages"], s["warnings"],
             s["peak_in_flight"]))
    print("- %d rounds, the two programs alternated" % args.rounds)
    print()
    benchlib.ratio_table(
        [BARE, ANALYZE], results, BARE,
        [Measure("rate", "M events/s", digits=2, ratio_digits=2, scale=1e-6)],
        extra=(["events/s min..max", "peak RSS (median)", "CPU share (min)"], lambda label: [
            "%.2f..%.2f M" % (min(values(results[label], "rate")) / 1e6,
                              max(values(results[label], "rate")) / 1e6),
            "%.1f MiB" % (median(values(results[label], "rss")) / 1024),
            "%.2f" % min(values(results[label], "share"))]), label_title="program")
    analyze_rss = median(values(results[ANALYZE], "rss"))
    print("- speed ratio hooktrace-analyze ÷ bare loop, per round: median **%s**; target >= 0.5"
          % benchlib.cell(benchlib.ratios(results[ANALYZE], results[BARE], "rate"), 2))
    print("- peak RSS of hooktrace-analyze: %.1f MiB on %d events, %.1f MiB on %d events"
          % (analyze_rss / 1024, events, median(quarter_rss) / 1024,
             args.ranks * max(1, args.iterations // 4) * 8))
    print("- with --csv (%d lines written): %.2f M events/s" % (s["messages"], events / csv_wall / 1e6))


if __name__ == "__main__":
    main()
