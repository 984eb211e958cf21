#!/usr/bin/env python3
"""Memory, output size and time at exit for a program with 111,111
distinct call stacks (issue: data at scale).

Generates a C program with F functions (default 10), each calling every
one of them down to a depth D (default 4, so 1 + F + ... + F^5 stacks
below main), builds it with and without -finstrument-functions against
this build's libhooktrace, and runs each a few times, alternated (throttling
off, so every call is recorded): peak RSS (GNU time), the sizes of the output
files (the HTML report among them), and the wall time.  Then the report
itself at that size: hooktrace-report's time and peak RSS on the JSON, and
the time headless chromium takes to load the page and run its scripts
(when chromium is installed).  Prints markdown tables of medians.

Usage (from the build directory; needs GNU time): python3 bench/stacks_cost.py
    [--builddir DIR] [--functions 10] [--depth 4] [--rounds 3] [--cc gcc]

Targets: peak RSS at most 64 MB over the uninstrumented program, and all
output files together at most 64 MB.  Stdlib only.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import re
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import cpu_model, loadavg  # noqa: E402

TARGET_RSS_MB = 64
TARGET_OUTPUT_MB = 64


def source(functions, depth):
    lines = ["#include <stdio.h>", "static volatile long sink;"]
    lines += ["void f%d(int d);" % i for i in range(functions)]
    calls = " ".join("f%d(d - 1);" % j for j in range(functions))
    for i in range(functions):
        lines.append("__attribute__((noinline)) void f%d(int d) { sink += d; if (d > 0) { %s } }"
                     % (i, calls))
    table = ", ".join("f%d" % i for i in range(functions))
    lines.append("int main(void) { void (*fs[])(int) = {%s}; for (int i = 0; i < %d; i++) "
                 "fs[i](%d); printf(\"%%ld\\n\", sink); return 0; }" % (table, functions, depth))
    return "\n".join(lines) + "\n"


def run(exe, cwd, env):
    """{"rss": peak RSS in MB, "wall": wall seconds}.  Through GNU time: a
    child forked from this Python would carry Python's own memory into its
    peak RSS (the kernel keeps the larger of the two across the exec)."""
    out = os.path.join(cwd, "time.out")
    start = time.monotonic()
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out, exe], cwd=cwd, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.monotonic() - start
    with open(out) as f:
        return {"rss": int(f.read().split()[-1]) / 1024.0, "wall": wall}


def report_cost(builddir, work):
    """hooktrace-report on the profile: (wall s, peak RSS MB); then
    chromium on the page: (wall s, frames drawn, errors) or None."""
    out = os.path.join(work, "time.out")
    tool = os.path.join(os.path.abspath(builddir), "hooktrace-report")
    start = time.monotonic()
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out, tool, "profiled.json", "-o",
                    "again.html"], cwd=work, check=True)
    tool_wall = time.monotonic() - start
    with open(out) as f:
        tool_rss = int(f.read().split()[-1]) / 1024.0
    browser = shutil.which("chromium")
    if not browser:
        return tool_wall, tool_rss, None
    start = time.monotonic()
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                          "--user-data-dir=" + os.path.join(work, "chromium"),
                          "--virtual-time-budget=10000", "--dump-dom",
                          "file://" + os.path.join(work, "profiled.html")],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         universal_newlines=True, timeout=600).stdout
    page_wall = time.monotonic() - start
    shown = re.search(r'data-shown="(\d+)"', dom)
    errors = re.search(r'<pre id="ht-errors"[^>]*>(.*?)</pre>', dom, re.S)
    return tool_wall, tool_rss, (page_wall, int(shown.group(1)) if shown else -1,
                                 errors.group(1).strip() if errors else "no #ht-errors")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--functions", type=int, default=10)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cc", default=os.environ.get("CC", "gcc"))
    a = ap.parse_args()
    libdir = os.path.join(os.path.abspath(a.builddir), ".libs")
    work = tempfile.mkdtemp(prefix="ht-stacks-")
    try:
        with open(os.path.join(work, "stacks.c"), "w") as f:
            f.write(source(a.functions, a.depth))
        subprocess.run([a.cc, "-O1", "-g", "stacks.c", "-o", "plain"], cwd=work, check=True)
        subprocess.run([a.cc, "-O1", "-g", "-finstrument-functions", "stacks.c", "-o", "profiled",
                        "-L" + libdir, "-Wl,-rpath," + libdir, "-Wl,--no-as-needed",
                        "-lhooktrace"], cwd=work, check=True)
        with open(os.path.join(work, "config.json"), "w") as f:
            json.dump({"throttle": {"enabled": False}}, f)
        env = dict(os.environ, HOOKTRACE_CONFIG=os.path.join(work, "config.json"))
        env.pop("HOOKTRACE_OFF", None)
        runs = benchlib.alternate(["plain", "profiled"], a.rounds,
                                  lambda exe: run(os.path.join(work, exe), work, env),
                                  "stacks_cost")
        sizes = {ext: os.path.getsize(os.path.join(work, "profiled" + ext))
                 for ext in (".json", ".log", ".folded", ".html")}
        with open(os.path.join(work, "profiled.json")) as f:
            nstacks = len(json.load(f)["stacks"])
        tool_wall, tool_rss, page = report_cost(a.builddir, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    # The extra peak RSS: hooktrace's minus the plain build's of the same round.
    extra = statistics.median(benchlib.differences(runs["profiled"], runs["plain"], "rss"))
    profiled = benchlib.values(runs["profiled"], "rss")
    total = sum(sizes.values()) / 1e6
    print("- machine: %s; load average before: %s" % (cpu_model(), loadavg()))
    print("- program: %d functions each calling all of them to depth %d: %d stacks in the JSON"
          % (a.functions, a.depth, nstacks))
    print()
    print("| peak RSS, uninstrumented | peak RSS, hooktrace | extra | .json | .log | .folded | "
          ".html | all outputs | wall time with hooktrace |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print("| %.1f MB | %.1f MB | **%.1f MB** | %.1f MB | %.2f MB | %.2f MB | %.1f MB | **%.1f MB** "
          "| %.2f s |" % (
              statistics.median(benchlib.values(runs["plain"], "rss")), statistics.median(profiled),
              extra, sizes[".json"] / 1e6, sizes[".log"] / 1e6, sizes[".folded"] / 1e6,
              sizes[".html"] / 1e6, total, statistics.median(benchlib.values(runs["profiled"],
                                                                             "wall"))))
    print()
    print("The report of this profile: `hooktrace-report profiled.json` %.2f s, peak RSS %.0f MB"
          % (tool_wall, tool_rss), end="")
    if page:
        print("; headless chromium loads the page and runs its scripts in %.1f s, drawing %d "
              "frames of the flame graph (the others are under 0.1%% of the time), "
              "errors: %s" % (page[0], page[1], page[2] or "none"))
    else:
        print("; chromium is not installed, so the page's load time was not measured")
    print()
    print("Targets: extra RSS <= %d MB: %s; all outputs <= %d MB: %s" % (
        TARGET_RSS_MB, "met" if extra <= TARGET_RSS_MB else "NOT met", TARGET_OUTPUT_MB,
        "met" if total <= TARGET_OUTPUT_MB else "NOT met"))


if __name__ == "__main__":
    main()
