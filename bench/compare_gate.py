#!/usr/bin/env python3
"""make bench-gate: does `hooktrace-report --compare --fail-above` tell a
change from noise on a real MPI program (issue 38 point 4: three runs of
one build against three more pass --fail-above 1.2; a function made 2x
slower fails it with that function first)?

bench/gate_app.c (two computing kernels, a halo exchange whose waits swing
with the load, an MPI_Allreduce every tenth step) is built with
hooktrace's hooks and GCC plugin, and run on --ranks ranks (4 on 2 cores:
oversubscribed, so that waits and kernels both feel the machine's load)
in --experiments experiments.  Each experiment runs three programs three
times, alternated: "a" and "b" (the same build and arguments) and "slow"
(kernel_b given twice the work, -b 2).  Then, on the profiles each run
wrote (default settings, no config file):

  3 vs 3, one build   --compare a1,a2,a3 b1,b2,b3 --fail-above 1.2  (must pass)
  1 vs 1, one build   --compare ai bi --fail-above 1.2, i = 1..3    (the old way)
  3 vs 3, kernel_b x2 --compare a1,a2,a3 s1,s2,s3 --fail-above 1.2  (must fail,
                      kernel_b's stack first)

and for each the stacks it names slower, and the largest ratio of medians
among the counted stacks.  Stdlib only; every run in its own temporary
directory.

Usage (from the build directory; `make bench-gate` does this):
    python3 bench/compare_gate.py [--builddir DIR] [--mpiexec mpirun] [--mpicc mpicc]
                                  [--ranks 4] [--experiments 3] [--steps 400]"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gate_app.c")
R = "1.2"


def build(args, scratch):
    builddir = os.path.abspath(args.builddir)
    lib = os.path.join(builddir, ".libs")
    plugin = os.path.join(builddir, "hooktrace_gcc.so")
    exe = os.path.join(scratch, "gate_app")
    subprocess.run([args.mpicc, "-O2", "-g", SRC, "-o", exe, "-finstrument-functions"] +
                   (["-fplugin=" + plugin] if os.path.exists(plugin) else []) +
                   ["-L" + lib, "-Wl,-rpath," + lib, "-Wl,--push-state,--no-as-needed",
                    "-lhooktrace", "-Wl,--pop-state"], check=True)
    return exe


def keep_profile(dest):
    """A look() for benchlib.run: copies the run's JSON profile to dest."""
    def look(cwd):
        names = [n for n in os.listdir(cwd) if benchlib.is_profile_name(n)]
        if len(names) != 1:
            sys.exit("compare_gate: no JSON profile in a run's folder: %r" % sorted(os.listdir(cwd)))
        shutil.copy(os.path.join(cwd, names[0]), dest)
        return dest
    return look


def gate(report, base, new, scratch):
    """--compare of two lists of profiles with --fail-above R: (exit status,
    the stacks named slower, in order, as 'a > b > c', the largest ratio
    of medians over the counted stacks and its stack)."""
    out = os.path.join(scratch, "compare_%d.json" % len(os.listdir(scratch)))
    proc = subprocess.run([report, "--compare", ",".join(base), ",".join(new), "--fail-above", R,
                           "--json", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    if proc.returncode not in (0, 3):
        sys.exit("compare_gate: hooktrace-report failed (%d): %s" % (proc.returncode, proc.stderr))
    with open(out) as f:
        doc = json.load(f)
    slower = [" > ".join(p) for p in doc["gate"]["slower"]]
    counted = [s for s in doc["stacks"] if s.get("counted") and s.get("ratio") is not None]
    top = max(counted, key=lambda s: s["ratio"]) if counted else None
    return proc.returncode, slower, (top["ratio"], " > ".join(top["path"])) if top else (None, "")


def verdict(result):
    code, slower, (ratio, where) = result
    said = "pass" if code == 0 else "FAIL (%d stacks: %s)" % (len(slower), "; ".join(slower[:3]))
    return "%s; largest median ratio x%.2f (%s)" % (said, ratio, where) if ratio else said


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--mpiexec", default="mpirun")
    ap.add_argument("--mpicc", default="mpicc")
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--experiments", type=int, default=3)
    ap.add_argument("--steps", type=int, default=400)
    args = ap.parse_args()
    report = os.path.join(os.path.abspath(args.builddir), "hooktrace-report")
    scratch = tempfile.mkdtemp(prefix="hooktrace-gate-")
    try:
        exe = build(args, scratch)
        launch = [args.mpiexec, "-np", str(args.ranks)] + (
            ["--oversubscribe"] if "mpirun" in os.path.basename(args.mpiexec) else [])
        benchlib.header("hooktrace-report --compare --fail-above %s on gate_app (issue 38)" % R,
                        "bench/compare_gate.py",
                        ["%d ranks, %d steps; kernel_b x2 is -b 2" % (args.ranks, args.steps),
                         "MPI: %s" % benchlib.mpi_version(args.mpiexec)])
        rows, tally = [], {"same3": 0, "same1": 0, "slow3": 0, "slow_first": 0, "pairs": 0}
        for e in range(args.experiments):
            count = {"a": 0, "b": 0, "slow": 0}

            def run_one(label):
                count[label] += 1
                dest = os.path.join(scratch, "%d_%s%d.json" % (e, label, count[label]))
                cmd = launch + [exe, "-i", str(args.steps), "-b", "2" if label == "slow" else "1"]
                return benchlib.run(cmd, scratch=scratch, look=keep_profile(dest),
                                    tool="compare_gate").seen
            runs = benchlib.alternate(["a", "b", "slow"], 3, run_one, "experiment %d" % (e + 1))
            same3 = gate(report, runs["a"], runs["b"], scratch)
            pairs = [gate(report, [x], [y], scratch) for x, y in zip(runs["a"], runs["b"])]
            slow3 = gate(report, runs["a"], runs["slow"], scratch)
            first = slow3[1][0] if slow3[1] else ""
            tally["same3"] += same3[0] == 0
            tally["same1"] += sum(p[0] == 0 for p in pairs)
            tally["pairs"] += len(pairs)
            tally["slow3"] += slow3[0] == 3
            tally["slow_first"] += first.endswith("kernel_b")
            rows.append([str(e + 1), verdict(same3),
                         "%d of %d fail" % (sum(p[0] != 0 for p in pairs), len(pairs)) +
                         "".join("; %s" % "; ".join(p[1][:2]) for p in pairs if p[1]),
                         verdict(slow3), first or "-"])
        benchlib.table(["experiment", "3 vs 3, one build", "1 vs 1, one build (3 pairs)",
                        "3 vs 3, kernel_b x2", "first named"], rows)
        print()
        print("- 3 vs 3 of one build passed in %d of %d experiments; 1 vs 1 passed %d of %d pairs"
              % (tally["same3"], args.experiments, tally["same1"], tally["pairs"]))
        print("- kernel_b x2 failed in %d of %d experiments, kernel_b first in %d"
              % (tally["slow3"], args.experiments, tally["slow_first"]))
        ok = tally["same3"] == args.experiments and tally["slow_first"] == args.experiments
        return 0 if ok else 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
