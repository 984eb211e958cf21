"""The speedscope file and Hatchet's literal tree (outputs.speedscope,
outputs.hatchet) hold exactly the JSON profile's figures: every sample of
the speedscope file is a stack of the JSON with that thread's exclusive
time as its weight, one profile per thread; every node of the Hatchet tree
is a stack of the JSON with its calls and inclusive and exclusive times.
Off by default.  A recursion 100,000 deep gives files that Python's json
module loads, the Hatchet tree cut at depth 256 with the time below kept."""
import json
import os

from htlib import *
from formats_lib import *

BOTH = {"outputs": {"speedscope": True, "hatchet": True}}

# Off by default.
r = run(program("basic"))
check_eq(r.returncode, 0, "default: exit status")
for ext in (".speedscope.json", ".hatchet.json"):
    check(not os.path.exists(r.path(ext)), "default: no " + ext)

# basic: one thread, 8 stacks.
r = run(program("basic"), config=BOTH)
check_eq(r.returncode, 0, "basic: exit status")
p = r.profile()
samples = speedscope_samples(json.loads(r.text(".speedscope.json")), "basic speedscope: ")
check_eq(list(samples), ["thread 0 (tid %d)" % p.doc["thread_tids"][0]], "basic: one profile")
expected = expected_samples(p)
check_eq(samples.get(thread_names(p)[0]), expected[0],
         "basic: samples are the JSON's stacks with their exclusive times")
check_eq(len(expected[0]), 8, "basic: 8 stacks with time")
total = sum(s["time_excl_s"] for s in p.doc["stacks"])
check_close(sum(expected[0].values()), total, "basic: weights sum to the exclusive times")

nodes, deepest = hatchet_nodes(json.loads(r.text(".hatchet.json")), "basic hatchet: ")
check_eq(nodes, {";".join(s["path"]): (s["calls"], s["time_incl_s"], s["time_excl_s"])
                 for s in p.doc["stacks"]}, "basic: Hatchet nodes are the JSON's stacks")
check_eq(nodes.get("main;compute;leaf", (0,))[0], 1000, "basic: main;compute;leaf calls")
check_eq(deepest, 4, "basic: Hatchet tree depth")

# threads: the main thread and four pthreads, a profile each.
r = run(program("threads"), config=BOTH)
check_eq(r.returncode, 0, "threads: exit status")
p = r.profile()
samples = speedscope_samples(json.loads(r.text(".speedscope.json")), "threads speedscope: ")
names = ["thread %d (tid %d)" % (t, tid) for t, tid in enumerate(p.doc["thread_tids"])]
check_eq(len(names), 5, "threads: 5 threads in the JSON")
check_eq(list(samples), names, "threads: one profile per thread, in thread order")
expected = expected_samples(p)
for t, name in enumerate(names):
    check_eq(samples.get(name), expected[t], "threads: thread %d's samples" % t)
nodes, _ = hatchet_nodes(json.loads(r.text(".hatchet.json")), "threads hatchet: ")
check_eq(nodes, {";".join(s["path"]): (s["calls"], s["time_incl_s"], s["time_excl_s"])
                 for s in p.doc["stacks"]}, "threads: Hatchet nodes are the JSON's stacks")

# 100,000 levels: no crash, bounded files, readable by Python's json.
depth = 100000
r = run(program("deep_recursion"), args=[str(depth)],
        config={"max_stack_depth": depth + 20000, "outputs": BOTH["outputs"]})
check_eq(r.returncode, 0, "deep: exit status")
check_eq(r.stdout, "deep_recursion: %d\n" % depth, "deep: the program computes the same")
size = os.path.getsize(r.path(".speedscope.json"))
check(size < 24 << 20, "deep: speedscope file %d bytes, under 24 MiB" % size)
doc = json.loads(r.text(".speedscope.json"))
lengths = [len(s) for prof in doc["profiles"] for s in prof["samples"]]
marker = len(doc["shared"]["frames"]) - 1
cut_lengths = [len(s) for prof in doc["profiles"] for s in prof["samples"] if marker in s]
whole_lengths = [len(s) for prof in doc["profiles"] for s in prof["samples"] if marker not in s]
# The JSON's stacks with their depths from the parent links (not Profile,
# whose whole paths would take O(depth^2) memory here).
jdoc = json.loads(r.text(".json"))
depths = []
for s in jdoc["stacks"]:
    depths.append(1 if s["parent"] < 0 else depths[s["parent"]] + 1)
timed = [d for s, d in zip(jdoc["stacks"], depths) if s["time_excl_s"] > 0]
check_eq(len(jdoc["stacks"]), depth + 1, "deep: main and 100,000 levels of descend")
check_eq(len(lengths), len(timed), "deep: a sample per stack with time")
check_eq(max(lengths), 32 + 32 + 3, "deep: a sample has at most 32 + 32 + 3 frames")
check_eq((len(cut_lengths), set(cut_lengths)), (sum(1 for d in timed if d > 67), {65}),
         "deep: the deeper paths are cut to 32 + [...] + 32 frames")
check_eq(sorted(whole_lengths), sorted(d for d in timed if d <= 67),
         "deep: the others are whole")
nodes, deepest = hatchet_nodes(json.loads(r.text(".hatchet.json")), "deep hatchet: ")
check_eq(deepest, 256, "deep: the Hatchet tree stops at depth 256")
check_eq(len(nodes), 256, "deep: 256 nodes")
below = sum(s["time_excl_s"] for s, d in zip(jdoc["stacks"], depths) if d >= 256)
cut = max(nodes.items(), key=lambda kv: kv[0].count(";"))[1]
check(abs(cut[2] - below) <= 1e-6 * below + 1e-9,
      "deep: the node at depth 256 has the exclusive time below it (%r vs %r)" % (cut[2], below))
total = sum(n[2] for n in nodes.values())
check_close(total, sum(s["time_excl_s"] for s in jdoc["stacks"]), "deep: no time lost")
check_eq(cut[0], 1, "deep: the node at depth 256 keeps its own calls")

finish()
