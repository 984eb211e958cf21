#!/usr/bin/env python3
"""DWARF read at shut-down against the compile units a run touched
(docs/symbols.md, "Cost"): hooktrace reads only the compile units that hold
a recorded function, so a run that calls into few of a program's units
pays for those few.

Generates a C program of --units compile units of --functions functions
each (every function with a loop, so none is tiny), builds it with
-finstrument-functions against this build's libhooktrace, and runs it under
callgrind calling into 2 units and into all of them.  Prints the
instructions of the DWARF reader (ht_dwarf_functions_load, inclusive) and
checks that every recorded function got its file and line.

Usage (from the build directory; `make bench-units` does this):
    python3 bench/units_cost.py [--builddir .] [--cc cc] [--units 40] [--functions 30]
Needs valgrind.  Stdlib only; works in a temporary directory."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def generate(where, units, functions):
    for k in range(units):
        with open(os.path.join(where, "unit_%d.c" % k), "w") as f:
            f.write("#include <stdio.h>\n")
            for j in range(functions):
                f.write("__attribute__((noinline)) int f_%d_%d(int x) { int s = 0; "
                        "for (int i = 0; i < x; i++) s += i * %d; return s; }\n" % (k, j, j + 1))
            f.write("int unit_%d_entry(int x) { int s = 0;\n" % k)
            f.write("".join("  s += f_%d_%d(x);\n" % (k, j) for j in range(functions)))
            f.write("  return s; }\n")
    with open(os.path.join(where, "main.c"), "w") as f:
        f.write("#include <stdio.h>\n#include <stdlib.h>\n")
        f.write("".join("int unit_%d_entry(int);\n" % k for k in range(units)))
        f.write("int (*entries[])(int) = {%s};\n" % ", ".join("unit_%d_entry" % k for k in range(units)))
        f.write("int main(int argc, char **argv) { int n = argc > 1 ? atoi(argv[1]) : %d, s = 0;\n"
                "  for (int k = 0; k < n; k++) s += entries[k](10);\n"
                "  printf(\"%%d\\n\", s); return 0; }\n" % units)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--units", type=int, default=40)
    ap.add_argument("--functions", type=int, default=30)
    a = ap.parse_args()
    libs = os.path.abspath(os.path.join(a.builddir, ".libs"))
    if not shutil.which("valgrind"):
        sys.exit("units_cost: valgrind is needed (apt-get install valgrind)")
    work = tempfile.mkdtemp(prefix="hooktrace-bench-units-")
    try:
        generate(work, a.units, a.functions)
        sources = sorted(f for f in os.listdir(work) if f.endswith(".c"))
        subprocess.run([a.cc, "-O2", "-g", "-finstrument-functions"] + sources +
                       ["-o", "units", "-L" + libs, "-Wl,-rpath," + libs, "-lhooktrace"],
                       cwd=work, check=True)
        print("| units called (of %d) | functions recorded | with file:line | DWARF reader, instructions |"
              % (a.units + 1))
        print("|---:|---:|---:|---:|")
        for called in (2, a.units):
            out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=cg.out",
                                  "./units", str(called)], cwd=work, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
            if out.returncode != 0:
                sys.exit("units_cost: the program failed under valgrind")
            text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "cg.out"], cwd=work,
                                  stdout=subprocess.PIPE, universal_newlines=True).stdout
            m = re.search(r"^\s*([\d,]+) .*ht_dwarf_functions_load \[", text, re.M)
            with open(os.path.join(work, "units.json")) as f:
                doc = json.load(f)
            mine = [f for f in doc["functions"] if f["name"].startswith("f_")]
            print("| %d (+ main's) | %d | %d | %s |" % (
                called, len(mine), sum(1 for f in mine if f["file"] and f["line"]),
                m.group(1) if m else "?"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
