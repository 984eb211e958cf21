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
in the loops cost, without hooktrace's start-up and output).

With --lulesh it builds and runs bench/lulesh_proxy.cpp (-s 30 -i 120)
instead: the LULESH-style proxy whose accessors the first rule leaves out.

Usage (from the build directory; `make bench-inlined` does this):
    python3 bench/inlined_cost.py [--builddir DIR] [--rounds 7]
                                  [--elements 200000] [--steps 100] [--lulesh]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402


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
    variants = [("gcc plain", "gcc", [args.gxx], []),
                ("gcc plugin, inlined-hooks=keep", "gcc", [args.gxx], plugin_flags + [arg + "keep"] + link),
                ("gcc plugin, default (leaf)", "gcc", [args.gxx], plugin_flags + link),
                ("gcc plugin, keep-loops", "gcc", [args.gxx], plugin_flags + [arg + "keep-loops"] + link),
                ("gcc plugin, remove", "gcc", [args.gxx], plugin_flags + [arg + "remove"] + link)]
    if args.clangxx:
        variants += [("clang plain", "clang", [args.clangxx], []),
                     ("clang -finstrument-functions", "clang", [args.clangxx],
                      ["-finstrument-functions"] + link),
                     ("clang -finstrument-functions-after-inlining", "clang", [args.clangxx],
                      ["-finstrument-functions-after-inlining"] + link)]
        # hooktrace's LLVM plugin, as the `hooktrace` prefix gives it to clang 14.
        llvm_plugin = os.path.join(build, "hooktrace_llvm.so")
        if os.path.exists(llvm_plugin):
            variants += [("clang LLVM plugin (default)", "clang", [args.clangxx],
                          ["-finstrument-functions", "-fpass-plugin=" + llvm_plugin] + link)]
    work = tempfile.mkdtemp(prefix="hooktrace-inlined-")
    try:
        binaries = []
        for i, (name, family, cxx, flags) in enumerate(variants):
            exe = os.path.join(work, "v%d" % i)
            subprocess.run(cxx + ["-O2", "-g", source, "-o", exe] + flags, check=True)
            binaries.append(exe)
        times = {name: [] for name, *_ in variants}
        ratios = {name: [] for name, *_ in variants}
        checksums = set()
        env = dict(os.environ)
        env.pop("HOOKTRACE_CONFIG", None)
        for r in range(args.rounds):
            order = list(range(len(variants)))
            order = order[r % len(order):] + order[:r % len(order)]
            this = {}
            for i in order:
                run_dir = tempfile.mkdtemp(dir=work)
                start = time.monotonic()
                proc = subprocess.Popen([binaries[i]] + program_args, cwd=run_dir, env=env,
                                        stdout=subprocess.PIPE, universal_newlines=True)
                out = proc.stdout.read()
                _, status, usage = os.wait4(proc.pid, 0)
                wall = time.monotonic() - start
                proc.returncode = os.waitstatus_to_exitcode(status)
                if proc.returncode != 0:
                    sys.exit("%s failed (%d)" % (variants[i][0], proc.returncode))
                checksums.add(out.split("checksum=")[1].split("\n")[0])
                loop = float(out.split("elapsed_s=")[1].split()[0])
                this[i] = (wall, usage.ru_utime + usage.ru_stime, loop)
                shutil.rmtree(run_dir)
            plain = {family: this[i] for i, (_, family, _, flags) in enumerate(variants) if not flags}
            for i, (name, family, _, _) in enumerate(variants):
                times[name].append(this[i])
                ratios[name].append(tuple(a / b for a, b in zip(this[i], plain[family])))
        print("%s %s, %d rounds, alternated; %s; load %s"
              % (os.path.basename(source), " ".join(program_args), args.rounds, benchlib.cpu_model(),
                 benchlib.loadavg()))
        print()
        print("| build | wall (s) | wall / plain | min-max | CPU (s) | CPU / plain | loop / plain |")
        print("|---|---|---|---|---|---|---|")
        for name, *_ in variants:
            med = [statistics.median(t[k] for t in times[name]) for k in range(3)]
            rat = [statistics.median(r[k] for r in ratios[name]) for k in range(3)]
            walls = [r[0] for r in ratios[name]]
            print("| %s | %.3f | %.2fx | %.2f-%.2f | %.3f | %.2fx | %.2fx |"
                  % (name, med[0], rat[0], min(walls), max(walls), med[1], rat[1], rat[2]))
        print()
        print("checksums: %s" % ("all equal" if len(checksums) == 1 else "DIFFER: %s" % sorted(checksums)))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
