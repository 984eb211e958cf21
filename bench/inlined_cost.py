#!/usr/bin/env python3
"""What the GCC plugin's second rule (instrumenting after inlining,
docs/plugin.md) buys on a program of the shape issue 24 measured:
bench/inlined_helpers.cpp, element loops whose bodies call medium helpers
that GCC inlines at -O2, and kernels with a loop inlined into a driver.

Builds, in a temporary directory, with -O2 -g:
    gcc plain                       g++, no hooktrace
    gcc plugin, inlined-hooks=keep  -finstrument-functions + the plugin, every
                                    inlined copy keeps its hooks (the plugin
                                    before the second rule)
    gcc plugin, default (leaf)      copies holding a loop or a call keep their
                                    hooks, straight-line leaf copies are counted
    gcc plugin, keep-loops          the default before: copies of functions
                                    with a loop keep their hooks
    gcc plugin, remove              every inlined copy loses its hooks
    clang plain                     clang++ (if found), no hooktrace
    clang -finstrument-functions    hooks inserted before inlining
    clang -finstrument-functions-after-inlining   the reference
    clang LLVM plugin               -finstrument-functions + hooktrace's LLVM
                                    plugin (if built): leaf copies counted
and runs them alternated (the order rotates each round), default hooktrace
settings (no config), each in its own empty directory.  The table gives
the median whole-process wall time and the median over rounds of the ratio
to the same compiler's plain build of the same round (with its range), and
the same for the process's CPU time (user + system, less disturbed by other
load on the machine) and for the program's own step loop (what the hooks
in the loops cost, without hooktrace's start-up and output).  Every run
must print the checksum of the gcc plain build.

With --lulesh it builds and runs bench/lulesh_proxy.cpp (-s 30 -i 120)
instead: the LULESH-style proxy whose accessors the first rule leaves out.

Usage (from the build directory; `make bench-inlined` does this):
    python3 bench/inlined_cost.py [--builddir DIR] [--rounds 7]
                                  [--elements 200000] [--steps 100] [--lulesh]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import Measure  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--elements", type=int, default=200000)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--lulesh", action="store_true",
                    help="bench/lulesh_proxy.cpp (-s 30 -i 120) instead of inlined_helpers.cpp")
    ap.add_argument("--gxx", default="g++")
    ap.add_argument("--clangxx", default=shutil.which("clang++") or shutil.which("clang++-14") or "")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per run")
    args = ap.parse_args()
    build = os.path.abspath(args.builddir)
    here = os.path.dirname(os.path.abspath(__file__))
    if args.lulesh:
        source, program_args = os.path.join(here, "lulesh_proxy.cpp"), ["-s", "30", "-i", "120"]
    else:
        source, program_args = os.path.join(here, "inlined_helpers.cpp"), [str(args.elements), str(args.steps)]
    plugin = os.path.join(build, "hooktrace_gcc.so")
    libdir = os.path.join(build, ".libs")
    link = ["-L" + libdir, "-lhooktrace", "-Wl,-rpath," + libdir]
    plugin_flags = ["-finstrument-functions", "-fplugin=" + plugin]
    arg = "-fplugin-arg-hooktrace_gcc-inlined-hooks="
    # label: (compiler, flags, baseline: the same compiler's plain build)
    variants = {"gcc plain": ([args.gxx], [], None),
                "gcc plugin, inlined-hooks=keep": ([args.gxx], plugin_flags + [arg + "keep"] + link,
                                                   "gcc plain"),
                "gcc plugin, default (leaf)": ([args.gxx], plugin_flags + link, "gcc plain"),
                "gcc plugin, keep-loops": ([args.gxx], plugin_flags + [arg + "keep-loops"] + link,
                                           "gcc plain"),
                "gcc plugin, remove": ([args.gxx], plugin_flags + [arg + "remove"] + link,
                                       "gcc plain")}
    if args.clangxx:
        variants.update({
            "clang plain": ([args.clangxx], [], None),
            "clang -finstrument-functions": ([args.clangxx], ["-finstrument-functions"] + link,
                                             "clang plain"),
            "clang -finstrument-functions-after-inlining": (
                [args.clangxx], ["-finstrument-functions-after-inlining"] + link, "clang plain")})
        # hooktrace's LLVM plugin, as the `hooktrace` prefix gives it to clang 14.
        llvm_plugin = os.path.join(build, "hooktrace_llvm.so")
        if os.path.exists(llvm_plugin):
            variants["clang LLVM plugin (default)"] = (
                [args.clangxx], ["-finstrument-functions", "-fpass-plugin=" + llvm_plugin] + link,
                "clang plain")
    labels = list(variants)
    work = tempfile.mkdtemp(prefix="hooktrace-inlined-")
    try:
        binaries = {}
        for i, (label, (cxx, flags, _)) in enumerate(variants.items()):
            binaries[label] = os.path.join(work, "v%d" % i)
            subprocess.run(cxx + ["-O2", "-g", source, "-o", binaries[label]] + flags, check=True)
        results = benchlib.alternate_programs(
            "inlined_cost", "inlined_cost", labels, lambda label: [binaries[label]] + program_args,
            {}, args.rounds, args.timeout, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("%s %s, %d rounds, alternated; %s; load %s"
          % (os.path.basename(source), " ".join(program_args), args.rounds, benchlib.cpu_model(),
             benchlib.loadavg()))
    print()
    benchlib.ratio_table(labels, results, lambda label: variants[label][2],
                         [Measure("wall", "wall s", ratio_digits=2),
                          Measure("cpu", "CPU s", ratio_digits=2),
                          Measure("loop", "loop s", ratio_digits=2)], label_title="build")
    benchlib.checksums(labels, results, labels[0])


if __name__ == "__main__":
    main()
