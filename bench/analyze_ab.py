"""Two hooktrace-analyze binaries on one archive, alternated: the CPU time
each takes (user + system), so that a machine loaded by others, which
stretches wall time, changes the figures less.

    python3 bench/analyze_ab.py --base OLD/hooktrace-analyze \\
        --new _build/dev/hooktrace-analyze --archive DIR [--rounds 7]

DIR is an archive from bench/analyze_write_trace (make bench-analyze
--keep DIR, or bench/analyze_write_trace DIR 16 80000).  Each round runs
both with -q --json, in alternating order; the ratio new ÷ base is taken
within each round.  Standard library only."""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--archive", required=True)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    binaries = {"base": os.path.abspath(args.base), "new": os.path.abspath(args.new)}
    archive = os.path.abspath(args.archive)
    # The JSON goes into the run's own directory, removed after it.
    results = benchlib.alternate(
        list(binaries), args.rounds,
        lambda which: benchlib.run([binaries[which], "-q", "--json", "report.json", archive],
                                   timeout=3600, tool="analyze_ab"), "analyze_ab")
    print("load average after: %s" % benchlib.loadavg())
    print()
    benchlib.ratio_table(list(binaries), results, "base",
                         [benchlib.Measure("cpu", "CPU time s")], label_title="binary")
    print("new ÷ base per round: median %s" % benchlib.cell(
        benchlib.ratios(results["new"], results["base"], "cpu")))


if __name__ == "__main__":
    main()
