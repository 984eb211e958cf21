#!/usr/bin/env python3
"""The profile of test/install/prefix's ring (2 ranks, 10 steps, one 4-byte
MPI_Sendrecv each way per step) against its exact figures: calls,
messages and bytes per stack, the communication matrix, the rank count.
Used by check_prefix.sh, check_idioms.sh and check_deb.sh.
Usage: ring_profile.py RING.json KIND LABEL
KIND: instrumented (main;exchange;MPI_Sendrecv), excluded (exchange left
out by a filter: main;MPI_Sendrecv), mpi-only (an uninstrumented
program: MPI_Sendrecv at the root, no nested stacks), or at:STACK (the
messages on that stack alone, whatever the rest of the tree).  Prints
"LABEL: ok" or "LABEL: FAIL ..." and exits 0 or 1."""
import json
import os
import sys

path, kind, label = sys.argv[1:]
if not os.path.exists(path):
    sys.exit("%s: FAIL no profile %s" % (label, path))
doc = json.load(open(path))
paths = []
for s in doc["stacks"]:
    name = doc["functions"][s["function_index"]]["name"]
    paths.append((paths[s["parent"]] + ";" if s["parent"] >= 0 else "") + name)
st = {paths[s["id"]]: s for s in doc["stacks"]}


def fields(p):
    s = st.get(p, {})
    return tuple(s.get(k) for k in ("calls", "messages_sent", "messages_received", "bytes_sent", "bytes_received"))


# 10 steps on each of 2 ranks: one 4-byte message each way per step.
sendrecv = (20, 20, 20, 80, 80)
bad = {}
if kind.startswith("at:"):
    got = {p: fields(p) for p in paths if st[p].get("messages_sent")}
    if got != {kind[3:]: sendrecv}:
        bad["stacks with messages"] = got
else:
    if kind == "instrumented":
        expected = {"main": (2, None, None, None, None), "main;exchange": (20, None, None, None, None),
                    "main;exchange;MPI_Sendrecv": sendrecv}
    elif kind == "excluded":
        expected = {"main": (2, None, None, None, None), "main;MPI_Sendrecv": sendrecv}
        if "main;exchange" in st:
            bad["(exchange excluded)"] = "main;exchange"
    else:
        expected = {"MPI_Sendrecv": sendrecv}
        extra = [p for p in paths if ";" in p]
        if extra:
            bad["(no nested stacks)"] = extra
    bad.update({p: (fields(p), e) for p, e in expected.items() if fields(p) != e})
comm = {(c["sender"], c["receiver"]): (c["messages"], c["bytes"]) for c in doc.get("comm_matrix", [])}
if comm != {(0, 1): (10, 40), (1, 0): (10, 40)}:
    bad["comm_matrix"] = comm
if doc.get("ranks") != 2:
    bad["ranks"] = doc.get("ranks")
print("%s: %s" % (label, "ok" if not bad else "FAIL %r" % bad))
sys.exit(1 if bad else 0)
