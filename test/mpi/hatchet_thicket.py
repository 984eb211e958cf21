"""The summary's Hatchet file read by LLNL Hatchet and Thicket themselves
(docs/output.md): two runs of test/mpi/control.c on 2 ranks, each rank also
writing its own JSON.  Hatchet's GraphFrame.from_json gives a frame indexed
by (node, rank) whose calls and times are each rank's own JSON's; Thicket
reads both files as an ensemble (its reader_dispatch, with the reader
docs/output.md shows), indexed by (node, profile, rank), with a metadata
row per run carrying the file's metadata.

Hatchet and Thicket are no Debian packages: the test runs where an
interpreter can import them, and is skipped elsewhere.  HT_HATCHET_PYTHON
names the interpreter (default: the test's own, then /usr/bin/python3) and
HT_HATCHET_PYTHONPATH the folders holding their sources (with Hatchet's
Cython modules built in place) and textX, as docs/output.md says."""
import json
import os
import subprocess
import sys

from mpilib import *

# Run in the interpreter that has Hatchet and Thicket: reads the files given
# and prints what the test compares, as JSON.
READER = r'''
import json, sys
import hatchet as ht
import thicket as th

def read(path):
    text = open(path).read()
    gf = ht.GraphFrame.from_json(text)
    gf.metadata = json.loads(text)["metadata"]
    return gf

def path_of(node):
    return ";".join(n.frame["name"] for n in node.path())

out = {"graphframes": []}
for name in sys.argv[1:]:
    gf = read(name)
    df = gf.dataframe
    out["graphframes"].append({
        "index": list(df.index.names),
        "rows": sorted([path_of(node), int(rank), int(row["calls"]), row["time (inc)"], row["time"]]
                       for (node, rank), row in df.iterrows()),
    })
tk = th.Thicket.reader_dispatch(read, False, True, True, sys.argv[1:])
out["thicket_index"] = list(tk.dataframe.index.names)
out["thicket_rows"] = sorted([path_of(node), str(prof), int(rank), int(row["calls"])]
                             for (node, prof, rank), row in tk.dataframe.iterrows())
out["profiles"] = [str(p) for p in tk.profile]
out["mapping"] = {str(k): v for k, v in tk.profile_mapping.items()}
out["metadata_ranks"] = {str(k): int(v) for k, v in tk.metadata["ranks"].items()}
out["metadata_commands"] = {str(k): list(v) for k, v in tk.metadata["command"].items()}
print("RESULT " + json.dumps(out))
'''


def interpreter():
    """The interpreter that imports hatchet and thicket, its environment, or
    None."""
    env = dict(os.environ)
    extra = os.environ.get("HT_HATCHET_PYTHONPATH", "")
    if extra:
        env["PYTHONPATH"] = extra + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    named = os.environ.get("HT_HATCHET_PYTHON")
    for python in ([named] if named else [sys.executable, "/usr/bin/python3"]):
        try:
            p = subprocess.run([python, "-c", "import hatchet, thicket"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if p.returncode == 0:
            return python, env
    return None


found = interpreter()
if found is None:
    print("SKIP: no interpreter here imports hatchet and thicket (HT_HATCHET_PYTHON, "
          "HT_HATCHET_PYTHONPATH: see the test's docstring)")
    sys.exit(77)
require_launcher()
python, env = found
N = 2
runs = []
for k in range(2):
    r = mpirun(mpi_program("control"), N, config={"outputs": {"hatchet": True},
                                                  "mpi": {"rank_files": "all"}})
    check_status(r, 0, "control, run %d" % k)
    runs.append(r)
files = [r.path(".hatchet.json") for r in runs]
p = subprocess.run([python, "-c", READER] + files, env=env, stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE, universal_newlines=True, timeout=600)
check_eq(p.returncode, 0, "Hatchet and Thicket read the files; stderr: " + p.stderr[-2000:])
# Thicket prints notes of its own (no seaborn, ...) before the result line.
result = [line for line in p.stdout.splitlines() if line.startswith("RESULT ")]
got = json.loads(result[-1][len("RESULT "):]) if p.returncode == 0 and result else None

if got is not None:
    expected_rows = []
    for k, r in enumerate(runs):
        summary = r.summary()
        ranks = [r.rank_profile(q) for q in range(N)]
        if summary is None or not all(ranks):
            continue
        own = [{";".join(s["path"]): s for s in q.doc["stacks"]} for q in ranks]
        rows = sorted([";".join(s["path"]), q, own[q][";".join(s["path"])]["calls"],
                       own[q][";".join(s["path"])]["time_incl_s"],
                       own[q][";".join(s["path"])]["time_excl_s"]]
                      if ";".join(s["path"]) in own[q] else [";".join(s["path"]), q, 0, 0, 0]
                      for s in summary.doc["stacks"] for q in range(N))
        gf = got["graphframes"][k]
        check_eq(gf["index"], ["node", "rank"], "run %d: Hatchet's frame is indexed by (node, rank)" % k)
        check_eq(gf["rows"], rows, "run %d: Hatchet's rows are each rank's own figures" % k)
        check_eq(sum(1 for row in gf["rows"] if row[0] == "main"), N, "run %d: main on every rank" % k)
        expected_rows.append(rows)
    check_eq(got["thicket_index"], ["node", "profile", "rank"],
             "Thicket's frame is indexed by (node, profile, rank)")
    check_eq(len(got["profiles"]), 2, "Thicket: two profiles")
    by_file = {got["mapping"][prof]: prof for prof in got["profiles"]}
    check_eq(sorted(by_file), sorted(files), "Thicket: a profile per file")
    expected = sorted([path, by_file[files[k]], rank, calls]
                      for k, rows in enumerate(expected_rows) for path, rank, calls, _, _ in rows)
    check_eq(got["thicket_rows"], expected, "Thicket: every (node, profile, rank) row's calls")
    check_eq(got["metadata_ranks"], {prof: N for prof in got["profiles"]},
             "Thicket's metadata: each run's ranks")
    check_eq(sorted(got["metadata_commands"].values()), [[mpi_program("control")]] * 2,
             "Thicket's metadata: each run's command")
finish()
