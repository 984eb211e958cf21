"""make bench-analyze: hooktrace-analyze against a bare OTF2 read loop.

Writes a synthetic archive of RANKS * ITERATIONS * 8 events (default 16 *
80000 * 8 = 10.24 million) with bench/analyze_write_trace, then, ROUNDS
times, runs bench/analyze_read_loop (the bare loop: the same OTF2 reading
with counting callbacks) and hooktrace-analyze (-q --json FILE) over it,
one right after the other.  Each run is timed as a whole process (wall
clock, perf_counter); its peak RSS and CPU time come from wait4(), and
its CPU share is CPU time / wall time (below 1: it waited for a CPU).  The
ratio "analyze events/s / bare events/s" is computed within each round, so
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
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402


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

        bare_rate, analyze_rate, ratio, bare_rss, analyze_rss = [], [], [], [], []
        bare_share, analyze_share = [], []
        for _ in range(args.rounds):
            b_wall, b_rss, _, b_share = timed_rss([bare, anchor])
            a_wall, a_rss, _, a_share = timed_rss([analyze, "-q", "--json", json_path, big])
            bare_share.append(b_share)
            analyze_share.append(a_share)
            bare_rate.append(events / b_wall)
            analyze_rate.append(events / a_wall)
            ratio.append(b_wall / a_wall)
            bare_rss.append(b_rss)
            analyze_rss.append(a_rss)
        quarter_rss = [timed_rss([analyze, "-q", "--json", json_path, small])[1]
                       for _ in range(3)]
        csv_wall, _, _, _ = timed_rss([analyze, "-q", "--csv", os.path.join(top, "m.csv"), big])
        load_after = benchlib.loadavg()
    finally:
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)

    med = statistics.median
    s = doc["summary"]
    print("## hooktrace-analyze against a bare OTF2 read loop")
    print()
    print("- machine: %s, %d CPUs; load average before %s, after %s"
          % (benchlib.cpu_model(), os.cpu_count(), load_before, load_after))
    print("- archive: %d ranks x %d rounds x 8 events = %d events (%.0f MB, written in %.1f s);"
          " %d messages matched, %d warnings, peak %d sends/receives held"
          % (args.ranks, args.iterations, events, big_mb, write_s, s["messages"], s["warnings"],
             s["peak_in_flight"]))
    print("- %d rounds; each round runs the bare loop, then hooktrace-analyze" % args.rounds)
    print()
    print("| program | events/s (median) | min..max | peak RSS (median) | CPU share (min) |")
    print("|---|---:|---:|---:|---:|")
    print("| bare OTF2 read loop | %.2f M | %.2f..%.2f M | %.1f MiB | %.2f |"
          % (med(bare_rate) / 1e6, min(bare_rate) / 1e6, max(bare_rate) / 1e6,
             med(bare_rss) / 1024, min(bare_share)))
    print("| hooktrace-analyze | %.2f M | %.2f..%.2f M | %.1f MiB | %.2f |"
          % (med(analyze_rate) / 1e6, min(analyze_rate) / 1e6, max(analyze_rate) / 1e6,
             med(analyze_rss) / 1024, min(analyze_share)))
    print()
    print("- speed ratio hooktrace-analyze / bare loop, per round: median **%.2f** (%.2f..%.2f);"
          " target >= 0.5" % (med(ratio), min(ratio), max(ratio)))
    print("- peak RSS of hooktrace-analyze: %.1f MiB on %d events, %.1f MiB on %d events"
          % (med(analyze_rss) / 1024, events, med(quarter_rss) / 1024,
             args.ranks * max(1, args.iterations // 4) * 8))
    print("- with --csv (%d lines written): %.2f M events/s" % (s["messages"], events / csv_wall / 1e6))


if __name__ == "__main__":
    main()
