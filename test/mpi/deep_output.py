"""Bounded output in an MPI run (docs/output.md, "Bounded output"): 2 ranks
each recursing 100,000 levels deep (max_stack_depth 120000).  The merge
sends paths as trees of (parent, function) nodes, and the summary and each
rank's own files stay O(stacks) in bytes, with exact figures.  Before, a
rank's logfile and folded file grew with the square of the depth.

The bounds follow from the structure, never from the machine's speed: a
folded line is written for a stack of 0.5 us or more, so the folded file
(51 to 61 MB of the summary on a slow machine, 4 MB on a fast one) is
checked line by line against the JSON and bounded by every stack's cut
line (htlib.check_folded); the logfile and JSON by bytes per stack."""
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


def check_profile(suffix, calls, json_bytes, what):
    size = sizes(suffix)
    check(size[".log"] < 256 << 10, what + ": logfile %d bytes, under 256 KiB" % size[".log"])
    check(size[".json"] < json_bytes * (DEPTH + 2), what + ": JSON %d bytes, under %d a stack"
          % (size[".json"], json_bytes))
    with open(r.path(suffix + ".json")) as f:
        doc = json.load(f)  # not MpiProfile: its paths would take depth^2
    with open(r.path(suffix + ".folded")) as f:
        got, bound = check_folded(f.read(), doc, what + ": folded")
    check(got <= bound < 1100 * (DEPTH + 2), what + ": folded %d bytes, at most %d, every"
          " stack's cut line, under 1100 bytes a stack" % (got, bound))
    print("note: %s: %r bytes; the folded bound %d" % (what, size, bound))
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
    # A path of up to 131 frames is whole; a deeper one is cut to 64 + 1 + 64.
    frames = [len(l.rsplit(" ", 1)[0].split(";")) for l in folded]
    check(max(frames) <= 131, what + ": folded lines of at most 131 frames")
    cut = [n for l, n in zip(folded, frames) if "[..." in l]
    check(all(n == 129 for n in cut), what + ": %d cut lines, each of 64 + 1 + 64 frames"
          % len(cut))


check_profile("", N * DEPTH, 512, "summary")
for rank in range(N):
    check_profile("_%d" % rank, DEPTH, 256, "rank %d" % rank)
finish()
