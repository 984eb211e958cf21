"""The speedscope and Hatchet files of an MPI run (test/mpi/control.c on 2
ranks, rank 1 also writing its own files): the summary's hold the whole
run's figures, one speedscope profile per thread index summed over ranks;
rank 1's files hold rank 1's figures; each exactly as the JSON profile
beside it."""
import json

from mpilib import *
from formats_lib import *

require_launcher()
N = 2
r = mpirun(mpi_program("control"), N, config={"outputs": {"speedscope": True, "hatchet": True},
                                              "mpi": {"rank_files": [1]}})
check_status(r, 0, "control")
check_eq(sorted(f for f in r.files() if f.endswith((".speedscope.json", ".hatchet.json"))),
         ["control.hatchet.json", "control.speedscope.json",
          "control_1.hatchet.json", "control_1.speedscope.json"], "the files written")

for what, p, prefix in (("summary", r.summary(), ""), ("rank 1", r.rank_profile(1), "_1")):
    if p is None:
        continue
    samples = speedscope_samples(json.loads(r.text(prefix + ".speedscope.json")), what + ": ")
    names = thread_names(p)
    check_eq(list(samples), names, what + ": one speedscope profile per thread")
    expected = expected_samples(p)
    for t, name in enumerate(names):
        check_eq(samples.get(name), expected[t], what + ": thread %d's samples" % t)
    nodes, _ = hatchet_nodes(json.loads(r.text(prefix + ".hatchet.json")), what + " hatchet: ")
    check_eq(nodes, expected_nodes(p), what + ": Hatchet nodes are the JSON's stacks")
    calls = N if not prefix else 1
    check_eq(nodes.get("main", (0,))[0], calls, what + ": main's calls")
    check_eq(nodes.get("main;MPI_Finalize", (0,))[0], calls, what + ": MPI_Finalize calls")

finish()
