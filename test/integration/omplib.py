"""What the OpenMP tests (openmp.py under libgomp, clang_openmp.py under
libomp) read from a profile: the outlined function of a construct, found by
its pragma's line, and calls per thread."""
import re

from htlib import check


def pragma_lines(source):
    """{NAME: line} of every pragma marked "construct:NAME" in source."""
    lines = {}
    with open(source) as f:
        for number, text in enumerate(f, 1):
            m = re.search(r"construct:(\w+)", text)
            if m:
                lines[m.group(1)] = number
    return lines


def construct(p, source, lines, name, outlined):
    """The name of the outlined function of construct `name`: the one
    function the profile places at its pragma's file:line; outlined(name)
    says whether a function name is the compiler's outlined kind."""
    base = source.rsplit("/", 1)[-1]
    found = sorted({f["name"] for f in p.doc["functions"]
                    if (f["file"] or "").endswith(base) and f["line"] == lines[name]})
    check(len(found) == 1 and outlined(found[0]),
          "construct %s: one outlined function at line %d, got %r" % (name, lines[name], found))
    return found[0] if found else "?"


def per_thread(p, path):
    return p.thread_calls(path) if p.has(path) else {}


def roots(p):
    """{thread: set of root functions}."""
    result = {}
    for s in p.doc["stacks"]:
        if s["parent"] == -1:
            for t in p.threads_of(s):
                result.setdefault(t["thread"], set()).add(s["function"])
    return result


def calls_by_thread(p, function, parent_function=None):
    """{thread: calls} summed over the stacks of `function` (whose caller is
    parent_function, if given)."""
    result = {}
    for s in p.doc["stacks"]:
        if s["function"] != function:
            continue
        if parent_function is not None and (len(s["path"]) < 2 or s["path"][-2] != parent_function):
            continue
        for t in p.threads_of(s):
            result[t["thread"]] = result.get(t["thread"], 0) + t["calls"]
    return result
