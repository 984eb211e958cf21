"""Two hooktrace-analyze binaries on one archive, alternated: the CPU time
each takes (user + system, from wait4), so that a machine loaded by
others, which stretches wall time, changes the figures less.

    python3 bench/analyze_ab.py --base OLD/hooktrace-analyze \\
        --new _build/dev/hooktrace-analyze --archive DIR [--rounds 7]

DIR is an archive from bench/analyze_write_trace (make bench-analyze
--keep DIR, or bench/analyze_write_trace DIR 16 80000).  Each round runs
both with -q --json, in alternating order; the ratio new / base is taken
within each round.  Standard library only."""

import argparse
import os
import resource
import statistics
import subprocess
import tempfile


def cpu_seconds(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--archive", required=True)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    out = tempfile.mkdtemp(prefix="analyze-ab-")
    times = {"base": [], "new": []}
    for r in range(args.rounds):
        order = ("base", "new") if r % 2 == 0 else ("new", "base")
        for which in order:
            binary = args.base if which == "base" else args.new
            json_path = os.path.join(out, which + ".json")
            times[which].append(cpu_seconds([binary, "-q", "--json", json_path, args.archive]))
    ratios = [n / b for n, b in zip(times["new"], times["base"])]
    print("load average after: %.2f %.2f %.2f" % os.getloadavg())
    for which in ("base", "new"):
        t = times[which]
        print("%-4s CPU time median %.3f s (%.3f..%.3f)" % (which, statistics.median(t), min(t),
                                                            max(t)))
    print("new / base per round: median %.3f (%.3f..%.3f)" % (statistics.median(ratios),
                                                             min(ratios), max(ratios)))


if __name__ == "__main__":
    main()
