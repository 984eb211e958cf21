"""Reading the speedscope and Hatchet files back (test/integration/
other_formats.py, test/mpi/other_formats.py): their figures as the JSON
profile's, to compare exactly."""
from htlib import check, check_close, check_eq

SCHEMA = "https://www.speedscope.app/file-format-schema.json"


def speedscope_samples(doc, what):
    """{profile name: {path: weight}}, checking the file's essentials."""
    check_eq(doc["$schema"], SCHEMA, what + "$schema")
    frames = doc["shared"]["frames"]
    check(all(isinstance(f["name"], str) for f in frames), what + "every frame has a name")
    check_eq(frames[-1], {"name": "[...]"}, what + "the last frame stands for cut paths")
    result = {}
    for prof in doc["profiles"]:
        check_eq(prof["type"], "sampled", what + "profile type")
        check_eq(prof["unit"], "seconds", what + "unit")
        check_eq(len(prof["samples"]), len(prof["weights"]), what + "a weight per sample")
        check(all(0 <= i < len(frames) for s in prof["samples"] for i in s),
              what + "every sample's frames exist")
        check_close(prof["endValue"], sum(prof["weights"]), what + "endValue is the total")
        paths = {}
        for s, w in zip(prof["samples"], prof["weights"]):
            path = ";".join(frames[i]["name"] for i in s)
            check(path not in paths, what + "one sample per stack: " + path)
            paths[path] = w
        result[prof["name"]] = paths
    return result


def expected_samples(p):
    """From the JSON profile: {thread index: {path: exclusive time}}; a stack
    of counted inlined copies with calls and no time on a thread is there
    with weight 0, its last frame "NAME [inlined]"."""
    result = {t: {} for t in range(p.doc["threads"])}
    for s in p.doc["stacks"]:
        for th in p.threads_of(s):
            if th["time_excl_s"] > 0:
                result[th["thread"]][";".join(s["path"])] = th["time_excl_s"]
            elif s.get("inlined") and th["calls"] > 0:
                result[th["thread"]][";".join(s["path"]) + " [inlined]"] = 0
    return result


def hatchet_nodes(doc, what, ranks=None):
    """{path: (calls, time (inc), time)} of Hatchet's JSON (GraphFrame.to_json's
    form), checking its essentials, without recursion; and the deepest path.
    With ranks (an MPI summary), the frame must be indexed by (node, rank)
    with a row for every node and every rank below ranks, and the figures
    returned are sums over the ranks (hatchet_rank_rows has each row)."""
    check_eq([k for k in doc if k != "metadata"],
             ["graph", "dataframe_indices", "dataframe", "inclusive_metrics",
              "exclusive_metrics"], what + "top-level keys")
    check_eq(doc["dataframe_indices"], ["node"] if ranks is None else ["node", "rank"],
             what + "the frame's index")
    check_eq(doc["inclusive_metrics"], ["time (inc)"], what + "inclusive metrics")
    check_eq(doc["exclusive_metrics"], ["time", "calls"], what + "exclusive metrics")
    rows = {}
    for row in doc["dataframe"]:
        key = row["node"] if ranks is None else (row["node"], row["rank"])
        check(key not in rows, what + "one row per index: %s" % (key,))
        rows[key] = row
    if ranks is not None:
        check_eq(sorted(set(k[1] for k in rows)), list(range(ranks)), what + "the ranks")
        by_node = {}
        for (node, rank), row in sorted(rows.items()):
            sums = by_node.setdefault(node, dict(row, calls=0, **{"time (inc)": 0, "time": 0}))
            for key in ("calls", "time (inc)", "time"):
                sums[key] += row[key]
            check_eq(row["name"], sums["name"], what + "one name per node")
        check_eq(len(rows), len(by_node) * ranks, what + "a row per node and rank")
        rows = by_node
    nodes, deepest = {}, 0
    for graph in doc["graph"]:
        children = set(c for n in graph.values() for c in n["children"])
        roots = [int(k) for k in graph if int(k) not in children]
        check_eq(len(roots), 1, what + "one root per graph")
        todo = [(r, "", 1) for r in roots]
        while todo:
            nid, prefix, depth = todo.pop()
            deepest = max(deepest, depth)
            node = graph[str(nid)]
            check_eq(set(node), {"data", "children"}, what + "node keys")
            check_eq(node["data"]["type"], "function", what + "frame type")
            path = prefix + node["data"]["name"]
            check(path not in nodes, what + "each path once: " + path)
            row = rows.get(nid, {})
            check_eq(row.get("name"), node["data"]["name"], what + "the row names the node")
            nodes[path] = (row.get("calls"), row.get("time (inc)"), row.get("time"))
            todo.extend((c, path + ";", depth + 1) for c in node["children"])
    check_eq(len(rows), len(nodes), what + "a row per node of the graph")
    return nodes, deepest


def hatchet_rank_rows(doc, paths):
    """{(path, rank): (calls, time (inc), time)} of a (node, rank) frame;
    paths: {node ID: path} (the summary's stacks)."""
    return {(paths[row["node"]], row["rank"]): (row["calls"], row["time (inc)"], row["time"])
            for row in doc["dataframe"]}


def near_nodes(got, expected, what):
    """Checks {path: (calls, incl, excl)} against the expected: the paths and
    calls exactly, times as sums over ranks of printed figures may differ
    (check_close)."""
    check_eq(sorted(got), sorted(expected), what + ": the paths")
    for path, (calls, incl, excl) in expected.items():
        g = got.get(path, (None, 0, 0))
        check_eq(g[0], calls, what + ": calls of " + path)
        check_close(g[1], incl, what + ": inclusive time of " + path)
        check_close(g[2], excl, what + ": exclusive time of " + path)


def expected_nodes(p):
    """From the JSON profile (a Profile): {path: (calls, incl, excl)}."""
    return {";".join(s["path"]): (s["calls"], s["time_incl_s"], s["time_excl_s"])
            for s in p.doc["stacks"]}


def thread_names(p):
    """The speedscope profiles' names: a summary over ranks says so, one
    process's profile gives the tids."""
    if "ranks" in p.doc and "rank" not in p.doc:
        return ["thread %d, summed over %d ranks" % (t, p.doc["ranks"])
                for t in range(p.doc["threads"])]
    return ["thread %d (tid %d)" % (t, tid) if tid else "thread %d" % t
            for t, tid in enumerate(p.doc["thread_tids"])]
