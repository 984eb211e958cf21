#!/usr/bin/env python3
"""Peak memory and output size for many short-lived threads, and output
size for a deep recursion (issue 15: bounded output, thread groups).

Runs test/programs/many_threads (10,000 threads of worker 50 at a time,
100 of helper, 3 of few, one still running; built by `make check`) with
and without hooktrace and prints the program's own peak RSS (VmHWM, which
it prints), the output files' sizes and the number of thread tables in the
logfile.  Then runs test/programs/deep_recursion at the given depths with
max_stack_depth above them and prints the output files' sizes.

Usage (from the build directory, after `make check`):
    python3 ../../bench/threads_memory.py [--builddir .] [--threads 10000]
        [--depths 20000,100000]
Stdlib only.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile


def run(exe, args, config=None):
    d = tempfile.mkdtemp(prefix="ht-bench-")
    env = dict(os.environ)
    env.pop("HOOKTRACE_CONFIG", None)
    if config:
        with open(os.path.join(d, "c.json"), "w") as f:
            json.dump(config, f)
        env["HOOKTRACE_CONFIG"] = os.path.join(d, "c.json")
    out = subprocess.run([exe] + args, cwd=d, env=env, stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    sizes = {}
    tables = 0
    for name in os.listdir(d):
        if name == "c.json":
            continue
        sizes[os.path.splitext(name)[1]] = os.path.getsize(os.path.join(d, name))
        if name.endswith(".log"):
            with open(os.path.join(d, name)) as f:
                tables = sum(1 for l in f if l.startswith("Runtime profile, thread"))
    shutil.rmtree(d)
    return out, sizes, tables


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--threads", type=int, default=10000)
    ap.add_argument("--depths", default="20000,100000")
    a = ap.parse_args()
    programs = os.path.abspath(os.path.join(a.builddir, "test", "programs"))
    print("| run | peak RSS (VmHWM) | .log | .json | .folded | thread tables |")
    print("|---|---|---|---|---|---|")
    for name in ("many_threads_plain", "many_threads"):
        out, sizes, tables = run(os.path.join(programs, name), [str(a.threads)])
        kib = int(re.search(r"peak RSS (\d+) KiB", out).group(1))
        print("| %s %d | %.1f MB | %s | %s | %s | %d |" % (
            name, a.threads, kib / 1024.0, sizes.get(".log", "-"), sizes.get(".json", "-"),
            sizes.get(".folded", "-"), tables))
    print()
    print("| recursion depth | .log | .json | .folded | total |")
    print("|---|---|---|---|---|")
    for depth in (int(x) for x in a.depths.split(",")):
        _, sizes, _ = run(os.path.join(programs, "deep_recursion"), [str(depth)],
                          {"max_stack_depth": depth + 20000})
        print("| %d | %d | %d | %d | %.1f MB |" % (depth, sizes[".log"], sizes[".json"],
                                                   sizes[".folded"], sum(sizes.values()) / 1e6))


if __name__ == "__main__":
    main()
