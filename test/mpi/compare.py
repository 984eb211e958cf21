#!/usr/bin/env python3
"""hooktrace-report --compare and --scaling on MPI summaries
(docs/compare.md): test/mpi/report_mpi.c's halo exchange on 2 and on 4
ranks.  The comparison warns that the rank counts differ (exit 4 with
--fail-above) and carries each summary's per-stack figures (sums over
ranks) exactly, with the exact call and message counts of both runs;
--scaling reads the rank counts from the summaries and gives time per rank
and efficiency by the documented formula; the compare page, in headless
chromium (when installed), shows the JSON's figures."""
import json
import os

from mpilib import *
from comparelib import check_matches, check_page, paths_of, table, tool

require_launcher()
ITERATIONS = 3
runs = {}
for n in (2, 4):
    r = mpirun(mpi_program("report_mpi"), n)
    check_status(r, 0, "report_mpi on %d ranks" % n)
    if not r.exists(".json"):
        finish()
    runs[n] = r
docs = {n: json.load(open(runs[n].path(".json"))) for n in runs}
check_eq((docs[2]["ranks"], docs[4]["ranks"]), (2, 4), "the summaries' ranks")

d = runs[4].directory
cj, ch = os.path.join(d, "cmp.json"), os.path.join(d, "cmp.html")
code, out, err = tool("--compare", runs[2].path(".json"), runs[4].path(".json"), "--json", cj,
                      "-o", ch)
warning = ("hooktrace-report: warning: the rank counts differ: %s has 2 ranks (an MPI summary: "
           "sums over them), %s has 4 ranks (an MPI summary: sums over them); the figures are "
           "sums over ranks and change with their number (--scaling compares rank counts)\n"
           % (runs[2].path(".json"), runs[4].path(".json")))
check_eq((code, err), (0, warning), "--compare of the summaries: the rank counts differ")
cmp = json.load(open(cj))
check_eq((out, cmp["ranks_differ"]), (table(cmp), True), "the table; ranks_differ")
code, out, err = tool("--compare", runs[2].path(".json"), runs[4].path(".json"), "--json", cj,
                      "--fail-above", "1.5")
check_eq((code, err.split(";")[0]), (4, warning.split(";")[0].replace(": warning", "")),
         "--fail-above on 2 against 4 ranks: exit status 4")
check_eq([(cmp[k]["ranks"], cmp[k]["merged"]) for k in ("base", "new")], [(2, True), (4, True)],
         "both runs are summaries")
check_matches(cmp, docs[2], docs[4], "report_mpi 2 vs 4 ranks")
by_path = {tuple(s["path"]): s for s in cmp["stacks"]}
halo = ("main", "halo_exchange")
check_eq(by_path.get(halo, {}).get("calls"), [2 * ITERATIONS, 4 * ITERATIONS],
         "halo_exchange's calls, summed over ranks")
sendrecv = halo + ("MPI_Sendrecv",)
# Each rank's two MPI_Sendrecv per iteration send one message and receive
# one each: 4 messages per rank and iteration on this path.
check_eq(by_path.get(sendrecv, {}).get("messages"), [4 * 2 * ITERATIONS, 4 * 4 * ITERATIONS],
         "MPI_Sendrecv's messages (sent + received, summed over ranks)")
# Bytes sent by rank r per iteration: 24 (r + 1) ints; received: the same
# sum over the ring.
check_eq(by_path.get(sendrecv, {}).get("bytes"),
         [2 * ITERATIONS * 24 * INT * sum(r + 1 for r in range(n)) for n in (2, 4)],
         "MPI_Sendrecv's bytes")
check_eq([s["status"] for s in cmp["stacks"]].count("changed"), len(cmp["stacks"]),
         "the same paths on 2 and 4 ranks")
check_page(ch, cmp, "report_mpi cmp.html")

sj = os.path.join(d, "scale.json")
check_eq(tool("--scaling", runs[4].path(".json"), runs[2].path(".json"), "--json", sj, "--top",
              "4"), (0, "", ""), "--scaling of the summaries")
sc = json.load(open(sj))
check_eq(sc["ranks"], [2, 4], "--scaling: rank counts from the profiles")
check_eq(len(sc["stacks"]), 4, "--top 4")
for s in sc["stacks"]:
    incl = [paths_of(docs[n]).get(tuple(s["path"]), {}).get("time_incl_s") for n in (2, 4)]
    t = [None if v is None else v / n for v, n in zip(incl, (2, 4))]
    eff = [None if t[0] is None or v is None or v == 0 else t[0] * 2 / (v * n)
           for v, n in zip(t, (2, 4))]
    check_eq((s["time_incl_s"], s["time_s"], s["efficiency"]), (incl, t, eff),
             "scaling of %s" % s["path"])
finish()
