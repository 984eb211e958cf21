#!/usr/bin/env python3
"""Application shapes (issue 24): what hooktrace costs three application-
shaped programs built as a user builds them, against the same program built
without it.  Prints markdown tables.

The programs (sources in bench/):
  elem_helpers.cpp  serial C++: element loops calling medium-size helpers
                    (12-30 statements, no loop) that GCC inlines at -O2
  fem_proxy.cpp     C++ finite elements, MPI: std::map assembly, CG solve
                    with a halo of shared nodes and an Allreduce per dot
  lulesh_mpi.cpp    LULESH-like hydro code: Domain class, straight-line
                    per-element helpers, OpenMP loops, halo exchange
                    (Isend/Irecv/Waitall) and a dt Allreduce per step

The builds, all -O2 -g (-fopenmp for lulesh_mpi), made by this script in a
temporary directory:
  plain                     CXX (g++, or mpicxx for the MPI programs)
  hooktrace CXX (default)   the README's driver: `hooktrace mpicxx ...`
                            (-finstrument-functions, the GCC plugin, -g,
                            libhooktrace), no config
  -finstrument-functions, no plugin   the same without the plugin
  clang plain               clang++ (through mpicxx: OMPI_CXX/MPICH_CXX)
  clang -finstrument-functions-after-inlining + libhooktrace
                            the reference the issue names: its ratio is
                            given against clang plain
  MPI only (hooktrace run)  the plain binary under `hooktrace run --`
                            (libhooktrace preloaded; MPI programs only)

Each configuration runs its variants alternated (the order rotates each
round) for --rounds rounds.  Wall: the whole job as the driver times it
(mpirun start to exit, profile writing included); loop: the program's own
timed part (elapsed_s=, rank 0, between barriers for the MPI programs).
Ratios are medians (ranges) over rounds of variant ÷ baseline of the same
round.  Every run must print the checksum of its configuration's plain run
(the clang builds: the same value; -ffast-math is not used); a mismatch is
reported under the table.

Usage (from the build directory; `make bench-apps` does this):
    python3 bench/shapes_cost.py --hooktrace STAGED/bin/hooktrace
        [--rounds 5] [--quick] [--only helpers,fem,lulesh]
        [--mpiexec mpirun]
        [--mpi ompi-c|mpich] [--ranks 8] [--fem-ranks 4]   (--help for the rest)

Stdlib only.  Every run happens in its own empty temporary directory.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import Measure, median  # noqa: E402

SRCDIR = os.path.dirname(os.path.abspath(__file__))

PLAIN, PLUGIN, NOPLUGIN = "plain", "hooktrace CXX (default: plugin)", "-finstrument-functions, no plugin"
CLANG, CLANG_AI, MPI_ONLY = "clang plain", "clang -finstrument-functions-after-inlining", \
    "MPI only (hooktrace run, plain binary)"
# What --skip names: the variants each word leaves out.
SKIPPABLE = {"noplugin": (NOPLUGIN,), "mpi-only": (MPI_ONLY,), "clang": (CLANG, CLANG_AI)}
# label -> (build, baseline label, runs under `hooktrace run`)
VARIANTS = {
    PLAIN: ("plain", None, False),
    PLUGIN: ("plugin", PLAIN, False),
    NOPLUGIN: ("noplugin", PLAIN, False),
    CLANG: ("clang", PLAIN, False),
    CLANG_AI: ("clang_ai", CLANG, False),
    MPI_ONLY: ("plain", PLAIN, True),
}


def sh(cmd, env=None):
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    if done.returncode != 0:
        sys.exit("shapes_cost: build failed: %s\n%s" % (" ".join(cmd), done.stdout[-4000:]))


def compiler_version(cxx):
    """The first line of cxx --version."""
    return subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.split("\n")[0]


def library_dir(hooktrace):
    """The libdir the driver links with (its --help names the library)."""
    out = subprocess.run([hooktrace, "--help"], capture_output=True, text=True).stdout
    m = re.search(r"Librar(?:y|ies): (\S+)/libhooktrace\.so", out)
    if not m or not os.path.exists(os.path.join(m.group(1), "libhooktrace.so")):
        sys.exit("shapes_cost: %s names no installed libhooktrace.so" % hooktrace)
    return m.group(1)


def build(prog, mpi, openmp, args, outdir):
    """Builds every variant of bench/<prog>.cpp; returns {build: path}."""
    src = os.path.join(SRCDIR, prog + ".cpp")
    cxx = args.mpicxx if mpi else args.cxx
    flags = ["-O2", "-g"] + (["-fopenmp"] if openmp else [])
    lib = library_dir(args.hooktrace)
    link = ["-L" + lib, "-Wl,-rpath," + lib, "-Wl,--no-as-needed", "-lhooktrace",
            "-Wl,--as-needed"]
    clang_env = dict(os.environ, OMPI_CXX=args.clangxx, MPICH_CXX=args.clangxx)
    exes = {}
    for name, cmd, env in [
            ("plain", [cxx] + flags, None),
            ("plugin", [args.hooktrace, cxx] + flags, None),
            ("noplugin", [cxx, "-finstrument-functions"] + flags, None),
            ("clang", [cxx if mpi else args.clangxx] + flags, clang_env),
            ("clang_ai", [cxx if mpi else args.clangxx, "-finstrument-functions-after-inlining"]
             + flags, clang_env)]:
        exe = os.path.join(outdir, "%s_%s" % (prog, name))
        tail = link if name in ("noplugin", "clang_ai") else []
        sh(cmd + [src, "-o", exe] + tail, env)
        exes[name] = exe
    # The plugin build must have used the plugin: its section names what it left out.
    sec = subprocess.run(["readelf", "-S", "-W", exes["plugin"]], capture_output=True, text=True).stdout
    if ".hooktrace.uninstrumented" not in sec:
        print("shapes_cost: warning: %s has no .hooktrace.uninstrumented section (plugin not "
              "used?)" % exes["plugin"], file=sys.stderr)
    return exes


def profile_cell(runs, *path):
    """The median over runs' profiles of the number at path, or "–"."""
    vals = []
    for o in runs:
        v = o.profile
        for key in path:
            v = v.get(key) if isinstance(v, dict) else None
        if isinstance(v, (int, float)):
            vals.append(v)
    return "%d" % median(vals) if vals else "–"


def report(title, labels, results, args, params, load_before):
    print("### %s" % title)
    print()
    print("%s; %d round%s, variants alternated; load average %s before, %s after."
          % (params, args.rounds, "" if args.rounds == 1 else "s", load_before,
             benchlib.loadavg()))
    print()

    def profile_cells(label):
        ok = [o for o in results[label] if o.error is None]
        if label in (PLAIN, CLANG):
            return ["–"] * 3
        # uninstrumented.inlined: from the plugin's second rule (absent before it).
        return [profile_cell(ok, "throttle", "functions"),
                profile_cell(ok, "uninstrumented", "functions"),
                "%s/%s" % (profile_cell(ok, "uninstrumented", "inlined", "functions"),
                           profile_cell(ok, "uninstrumented", "inlined", "sites"))]

    benchlib.ratio_table(labels, results, lambda label: VARIANTS[label][1],
                         [Measure("wall", "wall s", digits=2, ratio_digits=2),
                          Measure("loop", "loop s", digits=2, ratio_digits=2)],
                         extra=(["functions throttled", "left out by the plugin",
                                 "inlined copies unhooked (functions/sites)"], profile_cells))
    benchlib.checksums(labels, results, PLAIN)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hooktrace", required=True,
                    help="the hooktrace driver of an installed (or DESTDIR-staged) hooktrace")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--mpicxx", default="mpicxx")
    ap.add_argument("--clangxx", default="clang++")
    ap.add_argument("--mpiexec", default=os.environ.get("HT_MPIEXEC", "mpirun"))
    ap.add_argument("--mpi", default=os.environ.get("HT_MPI_NAME", "ompi-c"),
                    help="MPI library (ompi-c or mpich): picks the launch options")
    ap.add_argument("--ranks", type=int, default=8, help="ranks of the multi-rank LULESH runs")
    ap.add_argument("--fem-ranks", type=int, default=4, help="ranks of the multi-rank FE runs")
    ap.add_argument("--threads", type=int, default=1,
                    help="OMP_NUM_THREADS of the 1-rank LULESH runs (default 1; multi-rank runs: 1). "
                         "With 2, libgomp's spinning threads make a shared 2-core machine's "
                         "figures swing by 3x between rounds")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per run")
    ap.add_argument("--only", default="helpers,fem,lulesh",
                    help="comma-separated subset of helpers,fem,lulesh")
    ap.add_argument("--skip", default="",
                    help="comma-separated variants not run: %s (their builds are made all "
                         "the same)" % ", ".join(SKIPPABLE))
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: 1 round, small problems, 2 ranks")
    args = ap.parse_args()
    sizes = {"helpers": ["-n", "300", "-i", "50"], "fem1": ["-s", "160", "-i", "8"],
             "femN": ["-s", "100", "-i", "8"], "lulesh1": ["-s", "30", "-i", "100"],
             "luleshN": ["-s", "16", "-i", "100"]}
    if args.quick:
        args.rounds, args.timeout, args.ranks, args.fem_ranks = 1, 60.0, 2, 2
        sizes = {"helpers": ["-n", "64", "-i", "5"], "fem1": ["-s", "30", "-i", "2"],
                 "femN": ["-s", "20", "-i", "2"], "lulesh1": ["-s", "8", "-i", "10"],
                 "luleshN": ["-s", "6", "-i", "10"]}
    args.hooktrace = os.path.abspath(args.hooktrace)
    only = set(args.only.split(","))
    unknown = [v for v in args.skip.split(",") if v and v not in SKIPPABLE]
    if unknown:
        ap.error("--skip: unknown variant %s (known: %s)" % (", ".join(unknown), ", ".join(SKIPPABLE)))
    skipped = {label for v in args.skip.split(",") if v for label in SKIPPABLE[v]}

    def kept(labels):
        return [label for label in labels if label not in skipped]

    def launch(ranks):
        if args.mpi == "mpich":
            return shlex.split(args.mpiexec) + ["-n", str(ranks)]
        # No binding: with 1 rank Open MPI would bind it, and its threads, to one core.
        return shlex.split(args.mpiexec) + ["-np", str(ranks), "--oversubscribe",
                                            "--bind-to", "none"]

    benchlib.header("Application shapes (issue 24)", "bench/shapes_cost.py", [
        "MPI: %s; compilers: %s, %s, %s" % (
            benchlib.mpi_version(shlex.split(args.mpiexec)[0]), compiler_version(args.cxx),
            compiler_version(args.clangxx), args.hooktrace)])

    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-shapes-")
    try:
        configs = []
        if "helpers" in only:
            exes = build("elem_helpers", False, False, args, scratch)
            configs.append(("elem_helpers (serial, inlined medium helpers)", exes,
                            kept([PLAIN, PLUGIN, NOPLUGIN, CLANG, CLANG_AI]), None, {},
                            sizes["helpers"]))
        if "fem" in only:
            exes = build("fem_proxy", True, False, args, scratch)
            labels = kept([PLAIN, PLUGIN, NOPLUGIN, CLANG, CLANG_AI, MPI_ONLY])
            configs.append(("fem_proxy, 1 rank", exes, labels, 1, {}, sizes["fem1"]))
            configs.append(("fem_proxy, %d ranks" % args.fem_ranks, exes, labels, args.fem_ranks,
                            {}, sizes["femN"]))
        if "lulesh" in only:
            exes = build("lulesh_mpi", True, True, args, scratch)
            labels = kept([PLAIN, PLUGIN, NOPLUGIN, CLANG, CLANG_AI, MPI_ONLY])
            configs.append(("lulesh_mpi, 1 rank, OMP_NUM_THREADS=%d" % args.threads, exes, labels,
                            1, {"OMP_NUM_THREADS": str(args.threads)}, sizes["lulesh1"]))
            configs.append(("lulesh_mpi, %d ranks, OMP_NUM_THREADS=1" % args.ranks, exes, labels,
                            args.ranks, {"OMP_NUM_THREADS": "1"}, sizes["luleshN"]))
        for title, exes, labels, ranks, env, pargs in configs:
            def cmd_of(label, exes=exes, ranks=ranks, pargs=pargs):
                build_name, _, preload = VARIANTS[label]
                cmd = ([] if ranks is None else launch(ranks)) + [exes[build_name]] + pargs
                return ([args.hooktrace, "run", "--"] if preload else []) + cmd
            load = benchlib.loadavg()
            res = benchlib.alternate_programs("shapes_cost", title, labels, cmd_of, env,
                                              args.rounds, args.timeout, scratch)
            where = "`%s`" % " ".join(os.path.basename(c) if c.startswith(scratch) else c
                                      for c in cmd_of(PLAIN))
            report(title, labels, res, args, where, load)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
