#!/usr/bin/env python3
"""What throttling by cost costs on the shape the fixed threshold got wrong
(issue 35, point 3): bench/throttle_shape.c, an NPB LU-like loop of four
sweep kernels of 2-7 us (200,000 calls each) beside a helper of a few ns
(20 million calls).  Prints a markdown table.

Variants, run interleaved (the order rotates each round) for --rounds:
  plain                      built without -finstrument-functions
  hooktrace (cost rule)      -finstrument-functions + libhooktrace, defaults
  hooktrace, max_ns_per_call 10000   the old fixed threshold (TAU's)
  hooktrace, throttling off  every call recorded

Wall: the whole process as this script times it (start-up, profile writing
included); loop: the program's own timed part.  Ratios are medians over
rounds of variant / plain in the same round.  From each variant's profile
(the first run's): the kernels' calls and how many of the four were
throttled, and the exclusive time of their caller `step` (where a
throttled kernel's time goes) as a share of the run's.

Usage (from the build directory; `make bench-throttle` does this):
    python3 bench/throttle_shape.py [--builddir DIR] [--rounds 9] [--steps 200000]
        [--helpers 100]
Stdlib only; every run happens in its own empty temporary directory."""
import argparse
import datetime
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import cpu_model, loadavg, run_program  # noqa: E402

PLAIN = "plain"
VARIANTS = [  # label, program, config
    (PLAIN, "throttle_shape_plain", None),
    ("hooktrace (cost rule)", "throttle_shape_hooktrace", None),
    ("hooktrace, max_ns_per_call 10000", "throttle_shape_hooktrace",
     {"throttle": {"max_ns_per_call": 10000}}),
    ("hooktrace, throttling off", "throttle_shape_hooktrace", {"throttle": {"enabled": False}}),
]
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
    for _, prog, _ in VARIANTS:
        if not os.access(os.path.join(bindir, prog), os.X_OK):
            sys.exit("throttle_shape: %s/%s not built: run `make bench-throttle`" % (bindir, prog))

    print("## Throttling by cost: the LU shape (bench/throttle_shape.c)")
    print()
    print("- machine: %s, %d online CPUs; load average before: %s" % (cpu_model(), os.cpu_count() or 0,
                                                                     loadavg()))
    print("- date: %s" % datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"))
    print("- command: %s" % " ".join(["python3", "bench/throttle_shape.py"] + sys.argv[1:]))
    print("- %d steps: %d calls of each of 4 kernels, %d helper calls; %d rounds, variants "
          "interleaved" % (args.steps, args.steps, args.steps * args.helpers, args.rounds))
    print(flush=True)

    cmd_args = ["-s", str(args.steps), "-t", str(args.helpers)]
    results = {v[0]: [] for v in VARIANTS}
    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-throttle-")
    try:
        for r in range(args.rounds):
            order = VARIANTS[r % len(VARIANTS):] + VARIANTS[:r % len(VARIANTS)]
            for label, prog, config in order:
                results[label].append(run_program("throttle_shape", [os.path.join(bindir, prog)] + cmd_args,
                                                  config, {}, scratch, args.timeout))
            print("round %d/%d done (load %s)" % (r + 1, args.rounds, loadavg()), file=sys.stderr,
                  flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    print("| variant | wall s (median) | wall ratio | loop s (median) | loop ratio | kernel calls "
          "recorded | kernels throttled | step's exclusive share | threshold ns | hook pair ns |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    ref = next((o.checksum for o in results[PLAIN] if o.error is None), None)
    bad = []
    for label, _, _ in VARIANTS:
        runs = results[label]
        ok = [o for o in runs if o.error is None]
        if not ok:
            print("| %s | %s |" % (label, "; ".join(sorted({o.error for o in runs}))))
            continue
        pairs = [(o, b) for o, b in zip(runs, results[PLAIN]) if o.error is None and b.error is None]
        wr = statistics.median(o.wall / b.wall for o, b in pairs) if pairs else None
        lr = statistics.median(o.loop / b.loop for o, b in pairs if b.loop > 0) if pairs else None
        facts = profile_facts(ok[0].profile) if label != PLAIN else None
        cells = (["%d" % facts[0], "%d of 4" % facts[1], "%.1f%%" % (100 * facts[2]),
                  "%s" % facts[3], "%.1f" % facts[4] if facts[4] is not None else "–"]
                 if facts else ["–"] * 5)
        print("| %s | %.3f | %s | %.3f | %s | %s |" % (
            label, statistics.median(o.wall for o in ok), "%.3f" % wr if label != PLAIN else "–",
            statistics.median(o.loop for o in ok), "%.3f" % lr if label != PLAIN else "–",
            " | ".join(cells)))
        bad += ["%s: checksum %s" % (label, o.checksum) for o in ok if o.checksum != ref]
        if len(ok) < len(runs):
            bad.append("%s: %d run(s) failed" % (label, len(runs) - len(ok)))
    print()
    walls = ", ".join("%.3f" % o.wall for o in results["hooktrace (cost rule)"] if o.error is None)
    print("Wall seconds of the cost rule's runs: %s; load average after: %s." % (walls, loadavg()))
    for b in bad:
        print("- %s" % b)


if __name__ == "__main__":
    main()
