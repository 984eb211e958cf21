#!/usr/bin/env python3
"""What throttling by cost costs on the shape the fixed threshold got wrong
(issue 35, point 3): bench/throttle_shape.c, an NPB LU-like loop of four
sweep kernels of 2-7 us (200,000 calls each) beside a helper of a few ns
(20 million calls).  Prints a markdown table.

Variants, run alternated (the order rotates each round) for --rounds:
  plain                      built without -finstrument-functions
  hooktrace (cost rule)      -finstrument-functions + libhooktrace, defaults
  hooktrace, max_ns_per_call 10000   the old fixed threshold (TAU's)
  hooktrace, throttling off  every call recorded

Wall: the whole process as this script times it (start-up, profile writing
included); loop: the program's own timed part.  Ratios are medians (and
ranges) over rounds of variant ÷ plain in the same round.  From each variant's profile
(the first run's): the kernels' calls and how many of the four were
throttled, and the exclusive time of their caller `step` (where a
throttled kernel's time goes) as a share of the run's.

Usage (from the build directory; `make bench-throttle` does this):
    python3 bench/throttle_shape.py [--builddir DIR] [--rounds 9] [--steps 200000]
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

PLAIN, COST_RULE = "plain", "hooktrace (cost rule)"
VARIANTS = {  # label: (program, config)
    PLAIN: ("throttle_shape_plain", None),
    COST_RULE: ("throttle_shape_hooktrace", None),
    "hooktrace, max_ns_per_call 10000": ("throttle_shape_hooktrace",
                                         {"throttle": {"max_ns_per_call": 10000}}),
    "hooktrace, throttling off": ("throttle_shape_hooktrace", {"throttle": {"enabled": False}}),
}
KERNELS = ("blts", "buts", "jacld", "jacu")


def profile_facts(doc):
    """(kernel calls, kernels throttled, step's exclusive share, threshold
    ns, hook pair ns) from a JSON profile, or None."""
    if not doc:
        return None
    names = [f["name"] for f in doc["functions"]]
    calls = throttled = 0
    step_excl = total = 0.0
    for s in doc["stacks"]:
        name = names[s["function_index"]]
        if s["parent"] < 0:
            total += s["time_incl_s"]
        if name in KERNELS:
            calls += s["calls"]
            throttled += bool(s.get("throttled"))
        if name == "step":
            step_excl += s["time_excl_s"]
    th = doc.get("throttle", {})
    return (calls, throttled, step_excl / total if total else 0.0, th.get("max_ns_per_call"),
            th.get("hook_pair_ns"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builddir", default=os.environ.get("HT_TOP_BUILDDIR", "."))
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--steps", type=int, default=200000, help="time steps (4 kernel calls each)")
    ap.add_argument("--helpers", type=int, default=100, help="helper calls per step")
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()
    bindir = os.path.join(os.path.abspath(args.builddir), "bench")
    for prog, _ in VARIANTS.values():
        if not os.access(os.path.join(bindir, prog), os.X_OK):
            sys.exit("throttle_shape: %s/%s not built: run `make bench-throttle`" % (bindir, prog))

    benchlib.header("Throttling by cost: the LU shape (bench/throttle_shape.c)",
                    "bench/throttle_shape.py", [
                        "%d steps: %d calls of each of 4 kernels, %d helper calls; %d rounds, "
                        "variants alternated" % (args.steps, args.steps, args.steps * args.helpers,
                                                 args.rounds)])
    cmd_args = ["-s", str(args.steps), "-t", str(args.helpers)]
    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-throttle-")
    try:
        results = benchlib.alternate_programs(
            "throttle_shape", "throttle_shape", list(VARIANTS),
            lambda label: [os.path.join(bindir, VARIANTS[label][0])] + cmd_args, {}, args.rounds,
            args.timeout, scratch, config=lambda label: VARIANTS[label][1])
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    def fact_cells(label):
        """From the label's first profile."""
        ok = [o for o in results[label] if o.error is None]
        facts = profile_facts(ok[0].profile) if label != PLAIN and ok else None
        if not facts:
            return ["–"] * 5
        return ["%d" % facts[0], "%d of 4" % facts[1], "%.1f%%" % (100 * facts[2]),
                "%s" % facts[3], "%.1f" % facts[4] if facts[4] is not None else "–"]

    benchlib.ratio_table(list(VARIANTS), results, PLAIN,
                         [Measure("wall", "wall s"), Measure("loop", "loop s")],
                         extra=(["kernel calls recorded", "kernels throttled",
                                 "step's exclusive share", "threshold ns", "hook pair ns"],
                                fact_cells))
    benchlib.checksums(list(VARIANTS), results, PLAIN)
    walls = ", ".join("%.3f" % w for w in benchlib.values(results[COST_RULE], "wall"))
    print("Wall seconds of the cost rule's runs: %s; load average after: %s."
          % (walls, benchlib.loadavg()))


if __name__ == "__main__":
    main()
