"""The speedscope and Hatchet files of an MPI run (test/mpi/control.c on 2
ranks, each also writing its own files): the summary's hold the whole
run's figures, one speedscope profile per thread index summed over ranks
and named so; each rank's files hold its own figures; each exactly as the
JSON profile beside it.  The summary's Hatchet frame is indexed by (node,
rank): a row for every stack and rank, equal to each rank's own JSON (0
where the rank never entered the stack), summing to the summary's figures;
also when the JSON lists no rank's profile (mpi.rank_profiles_all 0).

Counted inlined copies through the merge (with hooktrace's GCC plugin:
test/plugin/inlined_O2, 2 ranks): the summary's and each rank's stacks of
the three helpers the plugin counts are "inlined", with their exact calls
(the summary's summed over ranks) and no time, and so are their
speedscope samples (weight 0, frame "[inlined]"), Hatchet rows ("inlined"
column) and rank_profiles rows."""
import json
import os

from mpilib import *
from formats_lib import *

require_launcher()
N = 2
r = mpirun(mpi_program("control"), N, config={"outputs": {"speedscope": True, "hatchet": True},
                                              "mpi": {"rank_files": "all"}})
check_status(r, 0, "control")
check_eq(sorted(f for f in r.files() if f.endswith((".speedscope.json", ".hatchet.json"))),
         ["control.hatchet.json", "control.speedscope.json",
          "control_0.hatchet.json", "control_0.speedscope.json",
          "control_1.hatchet.json", "control_1.speedscope.json"], "the files written")

for what, p, prefix in (("summary", r.summary(), ""), ("rank 0", r.rank_profile(0), "_0"),
                        ("rank 1", r.rank_profile(1), "_1")):
    if p is None:
        continue
    scope = json.loads(r.text(prefix + ".speedscope.json"))
    samples = speedscope_samples(scope, what + ": ")
    check_eq(scope["name"], p.doc["command"] + (" (%d ranks, summed)" % N if not prefix else ""),
             what + ": the file's name says whether it is a sum over ranks")
    names = thread_names(p)
    check_eq(list(samples), names, what + ": one speedscope profile per thread")
    expected = expected_samples(p)
    for t, name in enumerate(names):
        check_eq(samples.get(name), expected[t], what + ": thread %d's samples" % t)
    nodes, _ = hatchet_nodes(json.loads(r.text(prefix + ".hatchet.json")), what + " hatchet: ",
                             ranks=N if not prefix else None)
    if prefix:
        check_eq(nodes, expected_nodes(p), what + ": Hatchet nodes are the JSON's stacks")
    else:
        near_nodes(nodes, expected_nodes(p), what + ": Hatchet nodes summed over ranks")
    calls = N if not prefix else 1
    check_eq(nodes.get("main", (0,))[0], calls, what + ": main's calls")
    check_eq(nodes.get("main;MPI_Finalize", (0,))[0], calls, what + ": MPI_Finalize calls")


# Per rank: each (node, rank) row of the summary's frame against each rank's
# own JSON, to the digit: every stack on every rank, 0 where it never ran.
def check_rank_rows(r, what):
    summary, ranks = r.summary(), [r.rank_profile(k) for k in range(N)]
    if summary is None or not all(ranks):
        return
    paths = {s["id"]: ";".join(s["path"]) for s in summary.doc["stacks"]}
    got = hatchet_rank_rows(json.loads(r.text(".hatchet.json")), paths)
    own = [{";".join(s["path"]): s for s in p.doc["stacks"]} for p in ranks]
    expected = {}
    for path in paths.values():
        for k in range(N):
            s = own[k].get(path, {"calls": 0, "time_incl_s": 0, "time_excl_s": 0})
            expected[(path, k)] = (s["calls"], s["time_incl_s"], s["time_excl_s"])
    check_eq(got, expected, what + ": each (node, rank) row is that rank's own figures")
    check(any(e[0] == 0 for e in expected.values()) or N == 1,
          what + ": some stack ran on one rank only (rows of 0 are written)")
    return summary


check_rank_rows(r, "control")
# The JSON lists no rank's profile; the Hatchet file still has every rank.
r = mpirun(mpi_program("control"), N, config={"outputs": {"hatchet": True},
                                              "mpi": {"rank_files": "all", "rank_profiles_all": 0}})
check_status(r, 0, "control, rank_profiles_all 0")
summary = check_rank_rows(r, "rank_profiles_all 0")
if summary is not None:
    check("rank_profiles" not in summary.doc, "rank_profiles_all 0: no rank_profiles in the JSON")

# Past Hatchet's depth limit (256): each rank's row of the node at the limit
# has the exclusive time of that rank's whole subtree below it, and no row
# is deeper (test/mpi/deep_recursion_mpi.c, 300 levels).
DEPTH, LIMIT = 300, 256
r = mpirun(mpi_program("deep_recursion_mpi"), N, args=[str(DEPTH)],
           config={"outputs": {"hatchet": True}, "mpi": {"rank_files": "all"}})
check_status(r, 0, "deep_recursion_mpi")
summary, ranks = r.summary(), [r.rank_profile(k) for k in range(N)]
if summary is not None and all(ranks):
    paths = {s["id"]: tuple(s["path"]) for s in summary.doc["stacks"]}
    got = hatchet_rank_rows(json.loads(r.text(".hatchet.json")), paths)
    check_eq(max(len(p) for p in paths.values()) > LIMIT + 1, True, "deep: stacks past the limit")
    check_eq(sorted(k for k in got), sorted((p, q) for p in paths.values() if len(p) <= LIMIT
                                            for q in range(N)), "deep: a row per rank up to the limit")
    for q, own in enumerate(ranks):
        mine = {tuple(s["path"]): s for s in own.doc["stacks"]}
        for path in (p for p in paths.values() if len(p) == LIMIT):
            below = sum(s["time_excl_s"] for p2, s in mine.items() if p2[:LIMIT] == path)
            calls, incl, cut = got[(path, q)]
            check_eq((calls, incl), (mine[path]["calls"], mine[path]["time_incl_s"]),
                     "deep: rank %d's calls and inclusive time at the limit" % q)
            check_close(cut, below, "deep: rank %d's time at the limit, its subtree's" % q)

# Counted inlined copies, merged over ranks (built only with the plugin).
counted = os.path.join(BUILDDIR, "test", "plugin", "inlined_O2")
if os.path.exists(counted):
    ELEMENTS, STEPS = 64, 5  # test/plugin/inlined.cpp
    UPDATE = "main;update_elements(Element*, int, double)"
    HELPERS = [UPDATE + ";" + h for h in ("advance(Element&, double, double)",
                                          "corner_sum(Element const&)", "stress(Element const&, double)")
               if not (CHECKED_LOOPS and h.startswith("corner_sum"))]
    r = mpirun(counted, N, config={"outputs": {"speedscope": True, "hatchet": True},
                                   "mpi": {"rank_files": "all"}})
    check_status(r, 0, "inlined_O2")
    for what, p, prefix in (("inlined summary", r.summary(), ""), ("inlined rank 0", r.rank_profile(0), "_0"),
                            ("inlined rank 1", r.rank_profile(1), "_1")):
        if p is None:
            continue
        calls = ELEMENTS * STEPS * (N if not prefix else 1)
        check_eq({path: (s["calls"], s["time_incl_s"], s["time_excl_s"], s["inlined"])
                  for path, s in p.by_path.items() if "inlined" in s},
                 {path: (calls, 0, 0, True) for path in HELPERS},
                 what + ": the counted copies are inlined, their calls exact, no time")
        samples = speedscope_samples(json.loads(r.text(prefix + ".speedscope.json")), what + ": ")
        expected = expected_samples(p)
        check_eq(list(samples.values()), [expected[t] for t in range(len(samples))],
                 what + ": speedscope samples, the counted copies' of weight 0")
        check_eq(sorted(k for k, w in samples[thread_names(p)[0]].items() if "[inlined]" in k),
                 sorted(h + " [inlined]" for h in HELPERS), what + ": a sample [inlined] per copy")
        doc = json.loads(r.text(prefix + ".hatchet.json"))
        nodes, _ = hatchet_nodes(doc, what + " hatchet: ", ranks=N if not prefix else None)
        if prefix:
            check_eq(nodes, expected_nodes(p), what + ": Hatchet nodes are the JSON's stacks")
        else:
            near_nodes(nodes, expected_nodes(p), what + ": Hatchet nodes summed over ranks")
        ids = {p.by_path[h]["id"] for h in HELPERS}
        check_eq({row["node"]: row["inlined"] for row in doc["dataframe"]},
                 {s["id"]: s["id"] in ids for s in p.doc["stacks"]}, what + ": Hatchet's inlined column")
    summary = r.summary()
    if summary is not None:
        ids = {summary.by_path[h]["id"] for h in HELPERS}
        rows = [row for rp in summary.doc.get("rank_profiles", []) for row in rp["stacks"]
                if row[0] in ids]
        check_eq(sorted(rows), sorted([i, ELEMENTS * STEPS, 0, 0] for i in ids for _ in range(N)),
                 "inlined: rank_profiles rows of the counted copies, each rank's calls, no time")
finish()
