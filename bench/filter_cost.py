#!/usr/bin/env python3
"""What an excluded function costs (issue 37, point 3): bench/throttle_shape.c,
whose helper of a few ns is called 20 million times beside four kernels of
2-7 us, with the helper excluded by the config and throttling off.  Its
hook calls are rewritten into no-ops at its first call (docs/filter.md).
Prints a markdown table.

Variants, run alternated (the order rotates each round) for --rounds:
  plain                                 built without -finstrument-functions
  exclude_functions, throttling off     {"exclude_functions": ["^helper$"]}
  Score-P filter file, throttling off   EXCLUDE helper, through filter_file
  nothing excluded, throttling off      every call recorded: what an
                                        exclusion cost when the output alone
                                        dropped the function

Ratios are medians (and quartiles) over rounds of variant ÷ plain in the
same round (wall: the whole process; loop: the program's timed part; cpu:
the process's user and system time, which other work on a loaded machine
lengthens far less than wall time).  From each variant's first profile:
whether the helper is absent, the kernels' calls, the hook calls
rewritten.

Usage (from the build directory; `make bench-filter` does this):
    python3 bench/filter_cost.py [--builddir DIR] [--rounds 9] [--steps 200000]
        [--helpers 100]
Stdlib only; every run happens in its own empty temporary directory."""
import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import Measure  # noqa: E402

PLAIN = "plain"
EXCLUDED = "exclude_functions, throttling off"
FILTERED = "Score-P filter file, throttling off"
RECORDED = "nothing excluded, throttling off"
LABELS = [PLAIN, EXCLUDED, FILTERED, RECORDED]
KERNELS = ("blts", "buts", "jacld", "jacu")
OFF = {"enabled": False}


def facts(doc):
    """(helper absent, kernel calls, sites patched) from a profile."""
    names = [f["name"] for f in doc["functions"]]
    calls = sum(s["calls"] for s in doc["stacks"] if names[s["function_index"]] in KERNELS)
    return ("helper" not in names, calls, doc.get("throttle", {}).get("sites_patched"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builddir", default=os.environ.get("HT_TOP_BUILDDIR", "."))
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--steps", type=int, default=200000, help="time steps (4 kernel calls each)")
    ap.add_argument("--helpers", type=int, default=100, help="helper calls per step")
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()
    bindir = os.path.join(os.path.abspath(args.builddir), "bench")
    for prog in ("throttle_shape_plain", "throttle_shape_hooktrace"):
        if not os.access(os.path.join(bindir, prog), os.X_OK):
            sys.exit("filter_cost: %s/%s not built: run `make bench-filter`" % (bindir, prog))

    benchlib.header("Excluded functions: a 20-million-call helper (bench/throttle_shape.c)",
                    "bench/filter_cost.py", [
                        "%d steps: %d calls of each of 4 kernels, %d helper calls; %d rounds, "
                        "variants alternated" % (args.steps, args.steps, args.steps * args.helpers,
                                                 args.rounds)])
    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-filter-")
    filter_path = os.path.join(scratch, "helper.filter")
    with open(filter_path, "w") as f:
        f.write("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE helper\nSCOREP_REGION_NAMES_END\n")
    configs = {
        PLAIN: None,
        EXCLUDED: {"exclude_functions": ["^helper$"], "throttle": OFF},
        FILTERED: {"filter_file": filter_path, "throttle": OFF},
        RECORDED: {"throttle": OFF},
    }
    cmd_args = ["-s", str(args.steps), "-t", str(args.helpers)]

    def cmd_of(label):
        prog = "throttle_shape_plain" if label == PLAIN else "throttle_shape_hooktrace"
        return [os.path.join(bindir, prog)] + cmd_args

    try:
        results = benchlib.alternate_programs("filter_cost", "filter_cost", LABELS, cmd_of, {},
                                              args.rounds, args.timeout, scratch,
                                              config=lambda label: configs[label])
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    def fact_cells(label):
        """From the label's first profile."""
        ok = [o for o in results[label] if o.error is None and o.profile]
        f = facts(ok[0].profile) if label != PLAIN and ok else None
        return ["yes" if f[0] else "no", "%d" % f[1], "%s" % f[2]] if f else ["–"] * 3

    # cpu: the process's user and system time, which other work on a loaded
    # machine lengthens far less than wall time; quartiles, since there the
    # wall ratios of one variant spread over 0.8-1.1.
    benchlib.ratio_table(LABELS, results, PLAIN,
                         [Measure("wall", "wall s"), Measure("loop", "loop s"),
                          Measure("cpu", "cpu s")],
                         extra=(["helper absent", "kernel calls", "hook calls rewritten"],
                                fact_cells), quartiles=True)
    benchlib.checksums(LABELS, results, PLAIN)
    print("Load average after: %s." % benchlib.loadavg())


if __name__ == "__main__":
    main()
