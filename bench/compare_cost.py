#!/usr/bin/env python3
"""hooktrace-report --compare and --scaling at scale (docs/compare.md):
two synthetic profiles (format 2) with F functions each calling every one
of them down to depth D (default 10 and 4: 111,111 stacks below main, as
bench/stacks_cost.py), the second with every time scaled by a factor
between 0.5 and 2 and one root callee renamed (11,111 new and 11,111
vanished stacks).  Measures --compare writing both the page and the JSON,
and --scaling of the two (as 4 and 8 ranks): wall time and peak RSS
(GNU time; the two alternated), output sizes, and headless chromium
loading the compare page (its scripts run to their end; errors) when
chromium is installed.
Prints a markdown table of medians.

Usage (from the build directory): python3 bench/compare_cost.py
    [--builddir DIR] [--functions 10] [--depth 4] [--rounds 3]
Stdlib only."""
import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import cpu_model, loadavg  # noqa: E402


def profile(path, functions, depth, ranks, rename, seed):
    rnd = random.Random(seed)
    names = ["main"] + ["f%d" % i for i in range(functions)] + ["renamed"]
    stacks = []

    def add(parent, fi, level):
        sid = len(stacks)
        t = rnd.uniform(1e-4, 1e-2) * (rnd.uniform(0.5, 2.0) if seed else 1.0)
        stacks.append('{"id":%d,"parent":%d,"function_index":%d,"calls":%d,"time_incl_s":%r,'
                      '"time_excl_s":%r,"threads":[]}' % (sid, parent, fi, level + 1, t, t / 2))
        if level < depth + 1:
            for k in range(functions):
                callee = k + 1
                if rename and level == 0 and k == 0:
                    callee = functions + 1
                add(sid, callee, level + 1)

    add(-1, 0, 0)
    with open(path, "w") as f:
        f.write('{"hooktrace_version":"bench","format":2,"ranks":%d,"command":"bench",'
                '"functions":[%s],\n"stacks":[\n%s\n]}\n'
                % (ranks, ",".join('{"name":"%s","file":null,"line":0}' % n for n in names),
                   ",\n".join(stacks)))
    return len(stacks)


def timed(argv, cwd):
    out = os.path.join(cwd, "time.out")
    start = time.monotonic()
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out] + argv, cwd=cwd,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          universal_newlines=True)
    wall = time.monotonic() - start
    with open(out) as f:
        return wall, int(f.read().split()[-1]) / 1024.0, proc.returncode


def page_load(page, work):
    browser = shutil.which("chromium")
    if not browser:
        return None
    start = time.monotonic()
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                          "--user-data-dir=" + os.path.join(work, "chromium"),
                          "--virtual-time-budget=10000", "--dump-dom", "file://" + page],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         universal_newlines=True, timeout=600).stdout
    wall = time.monotonic() - start
    ready = 'data-ht-ready="1"' in dom
    errors = re.search(r'<pre id="ht-errors"[^>]*>(.*?)</pre>', dom, re.S)
    return wall, ready, errors.group(1).strip() if errors else "no #ht-errors"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--functions", type=int, default=10)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    tool = os.path.join(os.path.abspath(a.builddir), "hooktrace-report")
    work = tempfile.mkdtemp(prefix="hooktrace-compare-bench-")
    base, new = os.path.join(work, "base.json"), os.path.join(work, "new.json")
    n = profile(base, a.functions, a.depth, 4, False, 0)
    profile(new, a.functions, a.depth, 8, True, 1)
    print("machine: %s, load average before: %s" % (cpu_model(), loadavg()))
    print("profiles: %d stacks each, %.1f MB and %.1f MB"
          % (n, os.path.getsize(base) / 1e6, os.path.getsize(new) / 1e6))
    loads = []
    outputs = {"compare": "cmp", "scaling": "scale"}
    runs = benchlib.alternate(list(outputs), a.rounds, lambda what: timed(
        [tool, "--" + what, base, new, "-o", outputs[what] + ".html", "--json",
         outputs[what] + ".json"], work), "compare_cost")
    cmp_runs, scale_runs = runs["compare"], runs["scaling"]
    doc = json.load(open(os.path.join(work, "cmp.json")))
    status = [s["status"] for s in doc["stacks"]]
    print("comparison: %d changed, %d new, %d vanished" % (status.count("changed"),
                                                          status.count("new"),
                                                          status.count("vanished")))
    for _ in range(a.rounds):
        loads.append(page_load(os.path.join(work, "cmp.html"), work))
    print()
    print("| | wall time | peak RSS | output |")
    print("|---|---:|---:|---:|")
    print("| `--compare` (page and JSON) | %.2f s | %.0f MB | page %.1f MB, JSON %.1f MB |"
          % (statistics.median(r[0] for r in cmp_runs), statistics.median(r[1] for r in cmp_runs),
             os.path.getsize(os.path.join(work, "cmp.html")) / 1e6,
             os.path.getsize(os.path.join(work, "cmp.json")) / 1e6))
    print("| `--scaling` (page and JSON) | %.2f s | %.0f MB | page %.3f MB |"
          % (statistics.median(r[0] for r in scale_runs),
             statistics.median(r[1] for r in scale_runs),
             os.path.getsize(os.path.join(work, "scale.html")) / 1e6))
    if loads[0] is not None:
        print("| chromium loads the compare page | %.2f s | | ready: %s, errors: %r |"
              % (statistics.median(r[0] for r in loads), all(r[1] for r in loads),
                 loads[0][2]))
    print("exit statuses: %s" % sorted(set(r[2] for r in cmp_runs + scale_runs)))
    print("load average after: %s" % loadavg())
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
