#!/usr/bin/env python3
"""The program as written (issue 35): what the default build costs, and
whether its profile is the program's call tree with exact counts.

Each shape is built as the README says (`hooktrace g++ ...` or
`hooktrace mpicxx ...`, the GCC plugin's default inlined-hooks=leaf) and
without hooktrace, with the same flags (-O2 -g, -fopenmp where the program
has OpenMP), and timed whole process (mpirun start to exit, profile writing
included), the builds alternated round by round (benchlib.alternate); the
ratio is the median over rounds of hooktrace ÷ plain of the same round.
Timed alongside: the same default build run with throttling off (config
{"throttle": {"enabled": false}}: every out-of-line call recorded to the
end), and the old default, `-fplugin-arg-hooktrace_gcc-inlined-hooks=keep-loops`.

The shapes (sources in bench/):
  lulesh_shape     LULESH-shaped MPI + OpenMP (test/plugin/lulesh_shape.cpp
                   at benchmark size): static drivers once per step, static
                   kernels that are `omp parallel for` loops calling
                   10-15-statement inline helpers; 1 rank, OMP_NUM_THREADS=2
                   (OMP_WAIT_POLICY=PASSIVE for every build of an OpenMP
                   shape unless --omp-wait-policy says otherwise)
  inlined_helpers  serial element loops calling medium inline helpers,
                   200,000 elements x 300 steps
  lulesh_proxy     serial C++ accessor kernel: Domain accessors in hot loops,
                   out-of-line kernels and drivers, inline element helpers
  lulesh_mpi       bench's LULESH-like proxy, MPI + OpenMP, 1 rank,
                   OMP_NUM_THREADS=2
  fem_proxy        bench's finite-element proxy, MPI, 1 rank

Exactness, read from the JSON profile every default-build run wrote:
  - the paths and counts the shape's source fixes (drivers, kernels, MPI
    calls: steps, 2 x steps, ...) and each counted helper's calls under its
    kernel (summed over threads), where the shape lists them;
  - the full tree against a reference: the same source built with
    inlined-hooks=keep (every inlined copy keeps its hooks: every call
    recorded) and run once with throttling off.  Each reference stack is
    looked for in the default profile under the longest part of its path
    the default build records with hooks of its own (a straight-line helper
    inlined into another straight-line helper is counted under the nearest
    enclosing function that keeps its hooks); the calls per (that path,
    function) must be equal, and every function of the reference must be in
    the profile.  Tiny functions (the plugin's first rule) are left out of
    both builds alike and named in the profile's `uninstrumented` list;
  - no path twice, counted stacks with no time of their own.
A stack throttled in the default config stops counting (and its callees'
later calls move to its caller), so the full tree is exact only where
nothing is throttled: the runs with throttling off tell the plugin's tree
from throttling's effect, and the functions throttled are named.  The same
reading of the keep-loops build's profile names the functions the old
default lost.

Usage (from the build directory; `make bench-asbuilt` does this):
    python3 bench/asbuilt_cost.py --hooktrace STAGED/bin/hooktrace
        [--rounds 9] [--quick] [--only lulesh_shape,inlined_helpers,...]
        [--threads 2] [--omp-wait-policy passive|active|unset]
        [--mpiexec mpirun] [--mpi ompi-c|mpich] [--save-profiles DIR]

Stdlib only.  Every run happens in its own empty temporary directory.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import Measure, median, ratios, run_program, values  # noqa: E402
from shapes_cost import compiler_version, library_dir, sh  # noqa: E402

SRCDIR = os.path.dirname(os.path.abspath(__file__))
PLAIN, DEFAULT = "plain", "hooktrace (default: leaf)"
NOTHROTTLE, KEEP_LOOPS = "hooktrace, throttling off", "hooktrace, inlined-hooks=keep-loops"
REFERENCE = "reference: inlined-hooks=keep"
LABELS = [PLAIN, DEFAULT, NOTHROTTLE, KEEP_LOOPS]
BUILDS = {PLAIN: "plain", DEFAULT: "leaf", NOTHROTTLE: "leaf", KEEP_LOOPS: "keep-loops",
          REFERENCE: "keep"}
NO_THROTTLE = {"throttle": {"enabled": False}}
MODE_ARG = "-fplugin-arg-hooktrace_gcc-inlined-hooks="


def base_name(name):
    """A display name without its namespaces, class and parameters:
    "(anonymous namespace)::step(Mesh&, int, double)" -> "step"."""
    depth, cut = 0, len(name)
    for i, c in enumerate(name):  # the first "(" at template depth 0 that is not "(anonymous"
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0 and not name.startswith("(anonymous", i):
            cut = i
            break
    head = name[:cut]
    return head.rsplit("::", 1)[-1]


def short_name(name):
    """A display name without template arguments, parameters and return
    type, for messages: "int* std::fill_n<int*, ...>(int*, ...)" ->
    "std::fill_n"; a clone keeps its suffix."""
    clone = name[name.index(" [clone"):] if " [clone" in name else ""
    out, depth, i = [], 0, 0
    name = name.replace("(anonymous namespace)", "{anon}")
    while i < len(name):
        c = name[i]
        if c == "<" and not name.startswith("<<", i) and not (out and out[-1] == "r" and name[:i].endswith("operator")):
            depth += 1
        elif c == ">" and depth:
            depth -= 1
        elif c == "(" and depth == 0 and not name[:i].endswith("operator"):
            break
        elif depth == 0:
            out.append(c)
        i += 1
    head = "".join(out).strip()
    if " " in head and not head.endswith("operator"):
        head = head.rsplit(" ", 1)[-1]
    return head + clone


def short_path(path):
    return ";".join(short_name(f) for f in path)


def is_library(name):
    """A function of the C++ library (std::, __gnu_cxx::), not the program's."""
    head = short_name(name)
    return head.startswith(("std::", "__gnu_cxx::"))


# --- The shapes: what each runs and what its profile must show ---------------

def lulesh_shape_expect(size):
    """Paths (by base name) and calls; helpers: (helper, kernel, calls)."""
    n, steps = size
    leap = ("main", "LeapFrog")
    nodal, elems, time = leap + ("LagrangeNodal",), leap + ("LagrangeElements",), leap + ("TimeConstraint",)
    comm = nodal + ("CommSend",)
    tree = {leap: steps, nodal: steps, elems: steps, time: steps,
            nodal + ("CalcForce",): steps, nodal + ("CalcVelocity",): steps, comm: 2 * steps,
            elems + ("CalcKinematics",): steps, elems + ("CalcEnergy",): 2 * steps,
            comm + ("MPI_Irecv",): 2 * steps, comm + ("MPI_Isend",): 2 * steps,
            comm + ("MPI_Waitall",): 2 * steps, time + ("MPI_Allreduce",): steps}
    helpers = [("stress_term", "CalcForce", n * steps), ("advance_node", "CalcVelocity", n * steps),
               ("viscosity", "CalcKinematics", n * steps), ("energy_of", "CalcEnergy", 2 * n * steps)]
    return tree, helpers


def inlined_helpers_expect(size):
    n, steps = size
    step = ("main", "step")
    tree = {step: steps, step + ("lagrange_nodes",): steps, step + ("lagrange_elements",): steps,
            step + ("courant",): steps, ("main", "total_energy"): steps}
    helpers = [("element_volume", "lagrange_elements", n * steps),
               ("viscosity", "lagrange_elements", n * steps),
               ("pressure", "lagrange_elements", n * steps),
               ("accelerate", "lagrange_nodes", n * steps)]
    return tree, helpers


def lulesh_proxy_expect(size):
    _, iters = size
    llf = ("main", "LagrangeLeapFrog")
    nodal, cle = llf + ("LagrangeNodal",), llf + ("CalcLagrangeElements",)
    force = nodal + ("CalcForceForNodes",)
    tree = {("main",): 1, ("main", "Domain"): 1, ("main", "TimeIncrement"): iters, llf: iters,
            nodal: iters, force: iters, force + ("IntegrateStressForElems",): iters,
            force + ("CalcHourglassControlForElems",): iters, cle: iters,
            cle + ("CalcKinematicsForElems",): iters, llf + ("CalcQForElems",): iters,
            llf + ("ApplyMaterialPropertiesForElems",): iters,
            llf + ("CalcTimeConstraintsForElems",): iters}
    return tree, []


# name: source, MPI, OpenMP, options (full, quick), size for expect(), expect, target
SHAPES = {
    "lulesh_shape": dict(title="(a) LULESH shape, OpenMP (bench/lulesh_shape.cpp)", mpi=True,
                         openmp=True, target=1.10, expect=lulesh_shape_expect,
                         size=(1000000, 100), quick=(20000, 5),
                         argv=lambda s: ["-n", str(s[0]), "-i", str(s[1])]),
    "inlined_helpers": dict(title="(b) element loop, inline helpers (bench/inlined_helpers.cpp)",
                            mpi=False, openmp=False, target=1.10, expect=inlined_helpers_expect,
                            size=(200000, 300), quick=(20000, 10),
                            argv=lambda s: [str(s[0]), str(s[1])]),
    "lulesh_proxy": dict(title="(c) C++ accessor kernel (bench/lulesh_proxy.cpp)", mpi=False,
                         openmp=False, target=1.10, expect=lulesh_proxy_expect,
                         size=(30, 120), quick=(8, 10),
                         argv=lambda s: ["-s", str(s[0]), "-i", str(s[1])]),
    "lulesh_mpi": dict(title="(d) LULESH-like proxy, MPI + OpenMP (bench/lulesh_mpi.cpp)", mpi=True,
                       openmp=True, target=1.10, expect=None, size=(30, 100), quick=(8, 10),
                       argv=lambda s: ["-s", str(s[0]), "-i", str(s[1])]),
    "fem_proxy": dict(title="(d) finite-element proxy, MPI (bench/fem_proxy.cpp)", mpi=True,
                      openmp=False, target=1.15, expect=None, size=(160, 8), quick=(30, 2),
                      argv=lambda s: ["-s", str(s[0]), "-i", str(s[1])]),
}


# --- Reading a profile ---------------------------------------------------------

# GCC's clones: docs/plugin.md says they record as the function itself.
CLONE = re.compile(r" \[clone \.(?:isra|constprop|part|cold)[^\]]*\]")


class Profile:
    """The stacks of a JSON profile (format 2), each with its path of names;
    a clone's name (" [clone .isra.0]") is taken as its function's, and the
    names that had such a suffix are in .clones."""

    def __init__(self, doc):
        self.doc = doc
        raw_names = [f["name"] for f in doc["functions"]]
        self.clones = sorted({n for n in raw_names if CLONE.search(n)})
        names = [CLONE.sub("", n) for n in raw_names]
        self.stacks, paths, raws = [], [], []
        for s in doc["stacks"]:
            path = (paths[s["parent"]] if s["parent"] >= 0 else ()) + (names[s["function_index"]],)
            paths.append(path)
            raw = (raws[s["parent"]] if s["parent"] >= 0 else ()) + (raw_names[s["function_index"]],)
            raws.append(raw)
            self.stacks.append(dict(path=path, raw=raw, calls=s["calls"], inlined=bool(s.get("inlined")),
                                    throttled=bool(s.get("throttled")), time=s["time_incl_s"],
                                    excl=s["time_excl_s"]))
        self.calls = Counter()
        for s in self.stacks:
            self.calls[s["path"]] += s["calls"]
        # paths that record with hooks of their own: timed, or holding counted children
        self.parents = {s["path"][:-1] for s in self.stacks}
        self.hooked = {s["path"] for s in self.stacks if not s["inlined"] or s["path"] in self.parents}
        self.functions = {s["path"][-1] for s in self.stacks}
        un = doc.get("uninstrumented") or {}
        self.left_out = set(un.get("names", []))

    def by_base(self, base_path):
        """Calls of the stacks whose path's base names are base_path."""
        return sum(s["calls"] for s in self.stacks
                   if len(s["path"]) == len(base_path) and all(
                       base_name(a) == b for a, b in zip(s["path"], base_path)))


def check_expected(p, expect, size):
    """Problems with the paths and helper counts the shape's source fixes."""
    tree, helpers = expect(size)
    bad = []
    for path, calls in tree.items():
        got = p.by_base(path)
        if got != calls:
            bad.append("%s: %d calls, expected %d" % (";".join(path), got, calls))
    for helper, kernel, calls in helpers:
        mine = [s for s in p.stacks if base_name(s["path"][-1]) == helper]
        total = sum(s["calls"] for s in mine)
        if total != calls:
            bad.append("%s: %d calls over its stacks, expected %d" % (helper, total, calls))
        for s in mine:
            # under the kernel, or under the kernel's OpenMP region
            parent = base_name(s["path"][-2]) if len(s["path"]) > 1 else ""
            if not (parent == kernel or parent.startswith(kernel + "._omp_fn")
                    or (s["path"][-2].startswith(kernel) and "omp" in s["path"][-2])):
                bad.append("%s under %s, not %s" % (helper, short_path(s["path"][:-1]), kernel))
            if not s["inlined"] or s["time"] or s["excl"]:
                bad.append("%s at %s: not counted (inlined %s, time %g)" % (
                    helper, short_path(s["path"][:-1]), s["inlined"], s["time"]))
    return bad


def projected(ref, p):
    """The reference's calls keyed by (the longest part of the caller's path
    that p records with hooks, function)."""
    out = Counter()
    for s in ref.stacks:
        caller = s["path"][:-1]
        while caller and caller not in p.hooked:
            caller = caller[:-1]
        out[(caller, s["path"][-1])] += s["calls"]
    return out


def check_full_tree(ref, p):
    """Problems of p against the reference (every call recorded); and the
    reference's functions p does not show."""
    mine = Counter()
    for s in p.stacks:
        mine[(s["path"][:-1], s["path"][-1])] += s["calls"]
    theirs = projected(ref, p)
    bad = []
    for key in sorted(set(mine) | set(theirs)):
        if mine[key] != theirs[key]:
            bad.append("%s: %d calls, reference %d" % (short_path(key[0] + (key[1],)), mine[key],
                                                        theirs[key]))
    missing = sorted(short_name(f) for f in ref.functions - p.functions)
    return bad, missing


def check_structure(p):
    """Problems any profile of the default rule must not have."""
    bad = ["path twice: %s" % short_path(path)
           for path, n in Counter(st["raw"] for st in p.stacks).items() if n > 1]
    bad += ["path twice, once as a clone: %s" % short_path(path)
            for path, n in Counter(st["path"] for st in p.stacks).items() if n > 1
            and len({st["raw"] for st in p.stacks if st["path"] == path}) > 1]
    bad += ["counted with time: %s" % short_path(st["path"]) for st in p.stacks
            if st["inlined"] and st["path"] not in p.parents and st["time"]]
    return bad


def throttled(p):
    """The functions p's run throttled (short names)."""
    return sorted({short_name(st["path"][-1]) for st in p.stacks if st["throttled"]})


def check_runs(docs, shape, size, ref):
    """Checks the profiles of one build's runs: {"paths": [problems per
    run], "tree": [...], "throttled": [...]}, problems per run as lists."""
    out = {"paths": [], "tree": [], "throttled": []}
    for doc in docs:
        if not doc:
            for k in out:
                out[k].append(["no JSON profile read"])
            continue
        p = Profile(doc)
        out["paths"].append(check_expected(p, shape["expect"], size) if shape["expect"] else [])
        tree = check_structure(p)
        if ref is not None:
            bad, missing = check_full_tree(ref, p)
            tree += bad + ["missing: %s" % f for f in missing]
        out["tree"].append(tree)
        out["throttled"].append(throttled(p))
    return out


# --- Building and running --------------------------------------------------------

def build(prog, shape, args, outdir):
    """plain, default, keep-loops and the reference (keep) builds: {name: path}."""
    src = os.path.join(SRCDIR, prog + ".cpp")
    cxx = args.mpicxx if shape["mpi"] else args.cxx
    flags = ["-O2", "-g"] + (["-fopenmp"] if shape["openmp"] else [])
    exes = {}
    for name, cmd in [("plain", [cxx]), ("leaf", [args.hooktrace, cxx]),
                      ("keep-loops", [args.hooktrace, cxx, MODE_ARG + "keep-loops"]),
                      ("keep", [args.hooktrace, cxx, MODE_ARG + "keep"])]:
        exe = os.path.join(outdir, "%s_%s" % (prog, name))
        sh(cmd + flags + [src, "-o", exe])
        exes[name] = exe
    return exes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hooktrace", required=True,
                    help="the hooktrace driver of an installed (or DESTDIR-staged) hooktrace")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--mpicxx", default="mpicxx")
    ap.add_argument("--mpiexec", default=os.environ.get("HT_MPIEXEC", "mpirun"))
    ap.add_argument("--mpi", default=os.environ.get("HT_MPI_NAME", "ompi-c"),
                    help="MPI library (ompi-c or mpich): picks the launch options")
    ap.add_argument("--threads", type=int, default=2, help="OMP_NUM_THREADS of the OpenMP shapes")
    ap.add_argument("--omp-wait-policy", default="passive", choices=["passive", "active", "unset"],
                    help="OMP_WAIT_POLICY of the OpenMP shapes, every build alike (default passive: "
                         "with libgomp's spinning threads a shared 2-core machine gives single runs "
                         "1x-3x apart; unset: libgomp's own default)")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per run")
    ap.add_argument("--only", default=",".join(SHAPES), help="comma-separated subset of " + ", ".join(SHAPES))
    ap.add_argument("--quick", action="store_true", help="smoke run: 1 round, small problems")
    ap.add_argument("--save-profiles", metavar="DIR",
                    help="write each shape's reference profile and the first profile of each "
                         "build there (SHAPE_reference.json, SHAPE_leaf.json, ...)")
    args = ap.parse_args()
    if args.quick:
        args.rounds, args.timeout = 1, 60.0
    args.hooktrace = os.path.abspath(args.hooktrace)
    library_dir(args.hooktrace)  # an installed library, or a clear error
    only = [s for s in args.only.split(",") if s]
    for s in only:
        if s not in SHAPES:
            sys.exit("asbuilt_cost: unknown shape %s (known: %s)" % (s, ", ".join(SHAPES)))

    def launch(ranks):
        if args.mpi == "mpich":
            return shlex.split(args.mpiexec) + ["-n", str(ranks)]
        # No binding: with 1 rank Open MPI would bind it, and its threads, to one core.
        return shlex.split(args.mpiexec) + ["-np", str(ranks), "--oversubscribe", "--bind-to", "none"]

    commit = subprocess.run(["git", "-C", SRCDIR, "describe", "--always", "--dirty"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    benchlib.header("The program as written (issue 35)", "bench/asbuilt_cost.py", [
        "MPI: %s; compiler: %s; hooktrace: %s" % (
            benchlib.mpi_version(shlex.split(args.mpiexec)[0]), compiler_version(args.cxx),
            args.hooktrace),
        "commit: %s; uptime at the start: %s" % (
            commit, subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())])

    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-asbuilt-")
    rows = []
    try:
        for prog in only:
            shape = SHAPES[prog]
            size = shape["quick"] if args.quick else shape["size"]
            exes = build(prog, shape, args, scratch)
            env = {"OMP_NUM_THREADS": str(args.threads)} if shape["openmp"] else {}
            if shape["openmp"] and args.omp_wait_policy != "unset":
                env["OMP_WAIT_POLICY"] = args.omp_wait_policy.upper()

            def cmd_of(label, exes=exes, shape=shape, size=size):
                return (launch(1) if shape["mpi"] else []) + [exes[BUILDS[label]]] + shape["argv"](size)

            # The reference: every call recorded, throttling off.
            ref_run = run_program("asbuilt_cost", cmd_of(REFERENCE), NO_THROTTLE, env, scratch,
                                  args.timeout * 10)
            ref = Profile(ref_run.profile) if ref_run.error is None and ref_run.profile else None
            load = benchlib.loadavg()
            res = benchlib.alternate_programs(
                "asbuilt_cost", prog, LABELS, cmd_of, env, args.rounds, args.timeout, scratch,
                config=lambda label: NO_THROTTLE if label == NOTHROTTLE else None)
            rows.append(report(prog, shape, size, args, res, ref, ref_run, load, cmd_of, scratch))
            if args.save_profiles:
                save_profiles(args.save_profiles, prog, ref_run, res)
            sys.stdout.flush()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("### Summary")
    print()
    print("| shape | target | plain s | hooktrace s | ratio (median, min..max) | tree exact "
          "| throttling off: ratio | keep-loops: ratio | keep-loops: functions lost (the program's) |")
    print("|---|---:|---:|---:|---|---|---:|---:|---|")
    for row in rows:
        print(row)
    print()
    print("Load average at the end: %s." % benchlib.loadavg())


def save_profiles(where, prog, ref_run, res):
    os.makedirs(where, exist_ok=True)
    firsts = [("reference", ref_run)] + [(BUILDS[label] + ("_nothrottle" if label == NOTHROTTLE else ""),
                                          next((o for o in res[label] if o.profile), None))
                                         for label in LABELS if label != PLAIN]
    for name, o in firsts:
        if o is not None and o.profile:
            with open(os.path.join(where, "%s_%s.json" % (prog, name)), "w") as f:
                json.dump(o.profile, f)


def med(xs):
    """The median, or NaN (printed "nan") where no run completed."""
    return median(xs) if xs else float("nan")


def runs_line(what, per_run, limit=30, note=""):
    """"exact in k of n runs" and each problem once (at most limit of them),
    for a list of problem lists (one per run)."""
    good = sum(1 for pb in per_run if not pb)
    seen = []
    for pb in per_run:
        seen += [line for line in pb if line not in seen]
    print("%s: %sexact in %d of %d runs%s." % (what, "" if per_run and not seen else "**not exact**: ",
                                            good, len(per_run), note if seen else ""))
    for line in seen[:limit]:
        print("  - %s" % line)
    if len(seen) > limit:
        print("  - ... %d more" % (len(seen) - limit))
    return bool(per_run) and not seen


def report(prog, shape, size, args, res, ref, ref_run, load, cmd_of, scratch):
    """Prints one shape's section; returns its summary table row."""
    print("### %s" % shape["title"])
    print()
    cmd = " ".join(os.path.basename(c) if c.startswith(scratch) else c for c in cmd_of(PLAIN))
    print("`%s`%s; %d round%s alternated; load average %s before, %s after." % (
        cmd, ", OMP_NUM_THREADS=%d%s" % (args.threads, "" if args.omp_wait_policy == "unset" else
                                          " OMP_WAIT_POLICY=" + args.omp_wait_policy.upper())
        if shape["openmp"] else "", args.rounds,
        "" if args.rounds == 1 else "s", load, benchlib.loadavg()))
    print()
    ok = {label: [o for o in res[label] if o.error is None] for label in LABELS}
    benchlib.ratio_table(LABELS, res, PLAIN, [Measure("wall", "wall s"), Measure("loop", "loop s")],
                         label_title="build")
    # For the summary row: median wall and the wall ratio's median and range.
    cells = {}
    for label in LABELS:
        rw = ratios(res[label], res[PLAIN])
        cells[label] = (med(values(res[label], "wall")), med(rw), min(rw, default=float("nan")),
                        max(rw, default=float("nan")))
    benchlib.checksums(LABELS, res, PLAIN)
    print("Reference (inlined-hooks=keep, throttling off): %s." % (
        "%d stacks, %d functions" % (len(ref.stacks), len(ref.functions)) if ref
        else "none (%s)" % (ref_run.error or "no JSON profile")))
    checks = {label: check_runs([o.profile for o in ok[label]], shape, size, ref)
              for label in (DEFAULT, NOTHROTTLE, KEEP_LOOPS)}
    exact = {}
    for label in (NOTHROTTLE, DEFAULT):
        c = checks[label]
        if shape["expect"]:
            tree, helpers = shape["expect"](size)
            exact[label, "paths"] = runs_line("%s: the %d paths and %d helper counts the source fixes"
                                              % (label, len(tree), len(helpers)), c["paths"])
        names = sorted({f for run in c["throttled"] for f in run})
        # With throttling off the same binary's tree is the plugin's: where
        # that is exact, the default config's differences are throttling's
        # (a throttled stack stops counting; what it calls, and the counts of
        # copies inlined into it, go to its caller from then on).
        by_throttling = label == DEFAULT and names and exact.get((NOTHROTTLE, "tree"))
        exact[label, "tree"] = runs_line(
            "%s: the full tree against the reference" % label, c["tree"], limit=4 if by_throttling else 30,
            note=", only where throttling stopped counting (exact with throttling off); e.g." if by_throttling else "")
        if names:
            print("%s: functions throttled: %s." % (label, ", ".join("`%s`" % f for f in names)))
    profiles = [o.profile for o in ok[DEFAULT] if o.profile]
    if profiles:
        p = Profile(profiles[0])
        counted = sorted({st["path"][-1] for st in p.stacks if st["inlined"]})
        print("Default build: %d stacks, %d functions, %d of them counted (inlined); %d tiny "
              "functions left out (first rule)." % (len(p.stacks), len(p.functions), len(counted),
                                                    len(p.left_out)))
        if p.clones:
            print("Named as GCC's clones (compared as the function itself): %s." % ", ".join(
                "`%s`" % short_name(n) for n in p.clones))
    # What the old default lost.
    lost = []
    old_docs = [o.profile for o in ok[KEEP_LOOPS] if o.profile]
    if old_docs and ref and profiles:
        old, new = Profile(old_docs[0]), Profile(profiles[0])
        lost = sorted(f for f in ref.functions - old.functions if f in new.functions)
        own = sorted({short_name(f) for f in lost if not is_library(f)})
        print("keep-loops (the old default) lost %d function%s that the default shows: %d of the "
              "program's%s, %d of the C++ library's." % (
                  len(lost), "" if len(lost) == 1 else "s", len(own),
                  " (" + ", ".join("`%s`" % f for f in own) + ")" if own else "",
                  len(lost) - len(own)))
        c = checks[KEEP_LOOPS]
        if shape["expect"]:
            runs_line("keep-loops: the paths and helper counts the source fixes", c["paths"][:1],
                      limit=20)
    print()
    w = cells[DEFAULT]
    if exact.get((DEFAULT, "tree")) and exact.get((DEFAULT, "paths"), True):
        verdict = "yes"
    elif exact.get((NOTHROTTLE, "tree")) and exact.get((NOTHROTTLE, "paths"), True):
        n = len({f for run in checks[DEFAULT]["throttled"] for f in run})
        verdict = "throttling off: yes; default config: %d function%s throttled" % (n, "" if n == 1 else "s")
        if exact.get((DEFAULT, "paths")):
            verdict += " (the source's paths exact)"
    else:
        verdict = "**no**"
    return "| %s | ≤ %.2f | %.2f | %.2f | %.2f (%.2f..%.2f) | %s | %.2f | %.2f | %d (%d) |" % (
        prog, shape["target"], cells[PLAIN][0], w[0], w[1], w[2], w[3], verdict,
        cells[NOTHROTTLE][1], cells[KEEP_LOOPS][1], len(lost),
        len({f for f in lost if not is_library(f)}))


if __name__ == "__main__":
    main()
