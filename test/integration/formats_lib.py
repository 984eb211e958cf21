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
    """From the JSON profile: {thread index: {path: exclusive time}}."""
    result = {t: {} for t in range(p.doc["threads"])}
    for s in p.doc["stacks"]:
        for th in s["threads"]:
            if th["time_excl_s"] > 0:
                result[th["thread"]][";".join(s["path"])] = th["time_excl_s"]
    return result


def hatchet_nodes(roots, what):
    """{path: (calls, time (inc), time)} of the tree, without recursion."""
    nodes, todo, deepest = {}, [(n, "", 1) for n in roots], 0
    while todo:
        node, prefix, depth = todo.pop()
        deepest = max(deepest, depth)
        check_eq(set(node), {"frame", "metrics", "children"}, what + "node keys")
        check_eq(node["frame"]["type"], "function", what + "frame type")
        path = prefix + node["frame"]["name"]
        check(path not in nodes, what + "each path once: " + path)
        m = node["metrics"]
        nodes[path] = (m["calls"], m["time (inc)"], m["time"])
        todo.extend((c, path + ";", depth + 1) for c in node["children"])
    return nodes, deepest


def expected_nodes(p):
    """From the JSON profile (a Profile): {path: (calls, incl, excl)}."""
    return {";".join(s["path"]): (s["calls"], s["time_incl_s"], s["time_excl_s"])
            for s in p.doc["stacks"]}


def thread_names(p):
    """The speedscope profiles' names (a summary over ranks has no tids)."""
    return ["thread %d (tid %d)" % (t, tid) if tid else "thread %d" % t
            for t, tid in enumerate(p.doc["thread_tids"])]
