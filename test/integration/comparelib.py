"""Checking hooktrace-report --compare's outputs against the two profiles
(test/integration/compare.py, test/mpi/compare.py; docs/compare.md): every
figure of the comparison JSON equal to the profiles' own, and the page's
rows equal to the JSON.  Standard library only."""
import json
import os
import shutil
import subprocess

from htlib import BUILDDIR, check, check_eq

TOOL = os.path.join(BUILDDIR, "hooktrace-report")
HAVE_CHROMIUM = any(shutil.which(n) for n in ("chromium", "chromium-browser"))
if HAVE_CHROMIUM:
    import browser


def tool(*args):
    proc = subprocess.run([TOOL] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    return proc.returncode, proc.stdout, proc.stderr


def paths_of(doc):
    """{path tuple: stack} of a profile (whose paths of names are distinct)."""
    names = [doc["functions"][s["function_index"]]["name"] for s in doc["stacks"]]
    paths, out = [], {}
    for s in doc["stacks"]:
        paths.append((paths[s["parent"]] if s["parent"] >= 0 else ()) + (names[s["id"]],))
        out[paths[-1]] = s
    return out


def fig(s, name):
    if s is None:
        return None
    if name == "messages":
        return s.get("messages_sent", 0) + s.get("messages_received", 0)
    if name == "bytes":
        return s.get("bytes_sent", 0) + s.get("bytes_received", 0)
    return s[name]


def write_profile(directory, name, stacks, ranks=None, rank=None, metadata=None):
    """A profile file from [(path, calls, incl, excl, extra fields)]."""
    functions, index, out = [], {}, []
    ids = {}
    for path, calls, incl, excl, extra in stacks:
        if path[-1] not in index:
            index[path[-1]] = len(functions)
            functions.append({"name": path[-1], "file": None, "line": 0})
        ids[tuple(path)] = len(out)
        s = {"id": len(out), "parent": ids[tuple(path[:-1])] if len(path) > 1 else -1,
             "function_index": index[path[-1]], "calls": calls, "time_incl_s": incl,
             "time_excl_s": excl, "threads": []}
        s.update(extra)
        out.append(s)
    doc = {"hooktrace_version": "test", "format": 2, "command": name, "start_time":
           "2026-11-27T00:00:00Z", "wall_time_s": 2.0, "functions": functions, "stacks": out}
    if ranks is not None:
        doc["ranks"] = ranks
    if rank is not None:
        doc["rank"] = rank
    if metadata is not None:
        doc["metadata"] = metadata
    path = os.path.join(directory, name + ".json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def check_matches(cmp, base_doc, new_doc, what):
    """Every stack of the comparison carries the two profiles' figures."""
    base, new = paths_of(base_doc), paths_of(new_doc)
    check_eq(sorted(tuple(s["path"]) for s in cmp["stacks"]), sorted(set(base) | set(new)),
             what + ": one entry per path of either run")
    for s in cmp["stacks"]:
        p = tuple(s["path"])
        b, n = base.get(p), new.get(p)
        status = "changed" if b and n else "new" if n else "vanished"
        check_eq(s["status"], status, "%s %s: status" % (what, p))
        for f in ("time_incl_s", "time_excl_s", "calls", "messages", "bytes"):
            check_eq(s[f], [fig(b, f), fig(n, f)], "%s %s: %s" % (what, p, f))
        ratio = n["time_incl_s"] / b["time_incl_s"] if b and n and b["time_incl_s"] > 0 else None
        check_eq(s["ratio"], ratio, "%s %s: ratio" % (what, p))
    changes = [abs((s["time_incl_s"][1] or 0) - (s["time_incl_s"][0] or 0)) for s in cmp["stacks"]]
    check_eq(changes, sorted(changes, reverse=True), what + ": sorted by change, largest first")


def check_page(page_path, cmp, what):
    """The page's rows carry the JSON's figures exactly."""
    if not HAVE_CHROMIUM:
        return
    page, errors, page_errors = browser.load(page_path)
    if page is None:
        return
    browser.expect_no_errors(errors, page_errors, what)
    rows = {}
    for tr in page.find_all("tr", data_path=None):
        rows[tuple(json.loads(tr.get("data-path")))] = tr
    check_eq(len(rows), len(cmp["stacks"]), what + ": a row per stack")
    for s in cmp["stacks"]:
        tr = rows.get(tuple(s["path"]))
        if not check(tr is not None, "%s: a row for %s" % (what, s["path"])):
            continue
        check_eq(tr.get("data-status"), s["status"], "%s %s: status" % (what, s["path"]))
        for f in ("time_incl_s", "time_excl_s", "calls", "messages", "bytes"):
            shown = [None if v is None else float(v) if "time" in f else int(v)
                     for v in json.loads(tr.get("data-" + f.replace("_", "-")))]
            check_eq(shown, s[f], "%s %s: %s on the page" % (what, s["path"], f))
        shown = tr.get("data-ratio")
        check_eq(None if shown == "null" else float(shown), s["ratio"],
                 "%s %s: ratio on the page" % (what, s["path"]))
    for status, ident in (("changed", "ht-changed"), ("new", "ht-new"), ("vanished", "ht-vanished")):
        table = page.by_id(ident)
        n = sum(1 for s in cmp["stacks"] if s["status"] == status)
        got = len(table.find_all("tr", data_path=None)) if table is not None else -1
        check_eq(got, n, "%s: rows of %s" % (what, ident))
    return page


