"""BENCHMARKS.md is the current state, not a log (issue 39): at most 600
lines, one section per area, which README.md, docs/ and the sources name
("BENCHMARKS.md, \"Hooks\"")."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
import htlib  # noqa: E402

LIMIT = 600
AREAS = ["Hooks", "MPI wrappers", "Real-application shapes", "Start-up and finalize",
         "Trace", "Analyzer", "Report", "What did not work"]


def main():
    path = os.path.join(os.path.abspath(htlib.SRCDIR), "BENCHMARKS.md")
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    htlib.check(len(lines) <= LIMIT, "BENCHMARKS.md has %d lines (limit %d): keep the current figure, "
                "leave the history to git" % (len(lines), LIMIT))
    headings = [line[3:].strip() for line in lines if line.startswith("## ")]
    for area in AREAS:
        htlib.check(area in headings, "BENCHMARKS.md has no section \"## %s\"" % area)
    print("BENCHMARKS.md: %d lines, %d sections" % (len(lines), len(headings)))
    htlib.finish()


main()
