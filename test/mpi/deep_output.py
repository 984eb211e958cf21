"""Bounded output in an MPI run (docs/output.md, "Bounded output"): 2 ranks
each recursing 100,000 levels deep (max_stack_depth 120000).  The merge
sends paths as trees of (parent, function) nodes, and the summary and each
rank's own files stay O(stacks) in bytes, with exact figures.  Before, a
rank's logfile and folded file grew with the square of the depth."""
import json
import os

from mpilib import *

require_launcher()
N, DEPTH = 2, 100000
r = mpirun(mpi_program("deep_recursion_mpi"), N, args=[str(DEPTH)],
           config={"max_stack_depth": DEPTH + 20000, "mpi": {"rank_files": "all"}})
check_status(r, 0, "deep_recursion_mpi")
check_eq(r.stdout, "deep_recursion_mpi: %d\n" % (N * DEPTH), "the program's output")


def sizes(suffix):
    return {s: os.path.getsize(r.path(suffix + s)) for s in (".log", ".json", ".folded")}


def check_profile(suffix, calls, bound, what):
    size = sizes(suffix)
    check(sum(size.values()) < bound, what + ": outputs %r under %d bytes" % (size, bound))
    check(size[".log"] < 256 << 10, what + ": logfile under 256 KiB")
    with open(r.path(suffix + ".json")) as f:
        doc = json.load(f)  # not MpiProfile: its paths would take depth^2
    names = [f["name"] for f in doc["functions"]]
    depth = {}
    for s in doc["stacks"]:
        depth[s["id"]] = 1 if s["parent"] < 0 else depth[s["parent"]] + 1
    deep = [s for s in doc["stacks"] if names[s["function_index"]] == "descend"]
    check_eq(len(deep), DEPTH, what + ": a stack per level")
    check_eq(sum(s["calls"] for s in deep), calls, what + ": calls of descend")
    check_eq(max(depth[s["id"]] for s in deep), DEPTH + 1, what + ": the deepest stack")
    check_eq(doc["deepest_stack"], DEPTH + 1, what + ": the deepest stack, as reported")
    folded = open(r.path(suffix + ".folded")).read().splitlines()
    check(max(len(l.rsplit(" ", 1)[0].split(";")) for l in folded) <= 129,
          what + ": folded lines of at most 129 frames")


check_profile("", N * DEPTH, 48 << 20, "summary")
for rank in range(N):
    check_profile("_%d" % rank, DEPTH, 32 << 20, "rank %d" % rank)
finish()
