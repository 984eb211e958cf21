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


def median(values):
    """docs/compare.md: the middle value, the mean of the two middle ones for
    an even count (computed as hooktrace-report does, so equal exactly)."""
    v, n = sorted(values), len(values)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def low_median(values):
    """The lower middle value: a count one run had."""
    return sorted(values)[(len(values) - 1) // 2]


def side_figures(docs, path):
    """A path's figures over one side's profiles (a run without it: 0), as
    docs/compare.md defines them; None when no run has it."""
    stacks = [paths_of(d).get(path) for d in docs]
    if not any(stacks):
        return None
    out = {"runs": sum(1 for s in stacks if s)}
    for f in ("time_incl_s", "time_excl_s"):
        values = [s[f] if s else 0.0 for s in stacks]
        out[f] = median(values)
        out[f.replace("_s", "_range_s")] = [min(values), max(values)]
    for f in ("calls", "messages", "bytes"):
        out[f] = low_median([fig(s, f) if s else 0 for s in stacks])
    return out


def noise_of(b, n, runs, f):
    """"slower" or "faster" when the new runs' range lies wholly above or
    below the base runs', "within" when they overlap; None with one run a
    side or a side without the path."""
    if b is None or n is None or runs == (1, 1):
        return None
    br, nr = b[f.replace("_s", "_range_s")], n[f.replace("_s", "_range_s")]
    return "slower" if nr[0] > br[1] else "faster" if nr[1] < br[0] else "within"


def check_matches(cmp, base_docs, new_docs, what):
    """Every stack of the comparison carries the profiles' figures: a
    profile a side (base_docs, new_docs: a profile or a list of them) as
    they are, several as their medians and ranges."""
    base_docs = base_docs if isinstance(base_docs, list) else [base_docs]
    new_docs = new_docs if isinstance(new_docs, list) else [new_docs]
    runs = (len(base_docs), len(new_docs))
    check_eq((len(cmp["base"]["runs"]), len(cmp["new"]["runs"])), runs, what + ": runs a side")
    paths = set()
    for d in base_docs + new_docs:
        paths |= set(paths_of(d))
    check_eq(sorted(tuple(s["path"]) for s in cmp["stacks"]), sorted(paths),
             what + ": one entry per path of any run")
    for s in cmp["stacks"]:
        p = tuple(s["path"])
        b, n = side_figures(base_docs, p), side_figures(new_docs, p)
        status = "changed" if b and n else "new" if n else "vanished"
        check_eq(s["status"], status, "%s %s: status" % (what, p))
        check_eq(s["runs"], [b["runs"] if b else 0, n["runs"] if n else 0], "%s %s: runs" % (what, p))
        for f in ("time_incl_s", "time_excl_s", "time_incl_range_s", "time_excl_range_s", "calls",
                  "messages", "bytes"):
            check_eq(s[f], [b[f] if b else None, n[f] if n else None], "%s %s: %s" % (what, p, f))
        for key, f in (("ratio", "time_incl_s"), ("ratio_excl", "time_excl_s")):
            ratio = n[f] / b[f] if b and n and b[f] > 0 else None
            check_eq(s[key], ratio, "%s %s: %s" % (what, p, key))
        check_eq((s["noise"], s["noise_excl"]),
                 (noise_of(b, n, runs, "time_incl_s"), noise_of(b, n, runs, "time_excl_s")),
                 "%s %s: noise" % (what, p))
        gate = cmp["gate"]
        counted = bool(b and n and b["time_incl_s"] > 0 and b["time_incl_s"] >= gate["threshold_s"])
        check_eq(s["counted"], counted, "%s %s: counted" % (what, p))
        slower = (gate["fail_above"] is not None and counted and s["ratio"] > gate["fail_above"]
                  and s["noise"] in (None, "slower"))
        check_eq(s["slower"], slower, "%s %s: slower" % (what, p))
        check_eq(s["slower"], s["path"] in gate["slower"], "%s %s: in gate.slower" % (what, p))
    changes = [abs((s["time_incl_s"][1] or 0) - (s["time_incl_s"][0] or 0)) for s in cmp["stacks"]]
    check_eq(changes, sorted(changes, reverse=True), what + ": sorted by change, largest first")
    order = [s["path"] for s in sorted(
        (s for s in cmp["stacks"] if s["slower"]),
        key=lambda s: (s["path"][-1].upper().startswith("MPI_"),
                       -(s["time_excl_s"][1] - s["time_excl_s"][0]),
                       -abs(s["time_incl_s"][1] - s["time_incl_s"][0]),
                       json.dumps(s["path"], separators=(",", ":"))))]
    check_eq(gate["slower"], order, what + ": gate.slower by the growth of exclusive time, "
             "MPI calls last")


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
        for f in ("time_incl_s", "time_excl_s", "calls", "messages", "bytes", "time_incl_range_s",
                  "time_excl_range_s"):
            shown = [None if v is None else [float(x) for x in v] if isinstance(v, list)
                     else float(v) if "time" in f else int(v)
                     for v in json.loads(tr.get("data-" + f.replace("_", "-")))]
            check_eq(shown, s[f], "%s %s: %s on the page" % (what, s["path"], f))
        for key in ("ratio", "ratio_excl"):
            shown = tr.get("data-" + key.replace("_", "-"))
            check_eq(None if shown == "null" else float(shown), s[key],
                     "%s %s: %s on the page" % (what, s["path"], key))
        for key in ("noise", "noise_excl"):
            shown = tr.get("data-" + key.replace("_", "-"))
            check_eq(None if shown == "null" else shown, s[key],
                     "%s %s: %s on the page" % (what, s["path"], key))
        check_eq((json.loads(tr.get("data-runs")), tr.get("data-slower") == "1",
                  "slower" in (tr.get("class") or "").split()), (s["runs"], s["slower"], s["slower"]),
                 "%s %s: runs and slower on the page" % (what, s["path"]))
    for status, ident in (("changed", "ht-changed"), ("new", "ht-new"), ("vanished", "ht-vanished")):
        table = page.by_id(ident)
        n = sum(1 for s in cmp["stacks"] if s["status"] == status)
        got = len(table.find_all("tr", data_path=None)) if table is not None else -1
        check_eq(got, n, "%s: rows of %s" % (what, ident))
    return page




def seconds_text(v):
    """A time as the table (and the page) shows it."""
    if v is None:
        return "-"
    if v == 0:
        return "0 s"
    if v >= 1:
        return "%.3f s" % v
    if v >= 1e-3:
        return "%.3f ms" % (v * 1e3)
    return "%.3f us" % (v * 1e6)


def table(cmp, top=20):
    """The terminal table hooktrace-report prints for this comparison
    (docs/compare.md, "The table"), line for line."""
    runs = (len(cmp["base"]["runs"]), len(cmp["new"]["runs"]))
    several, gate = runs != (1, 1), cmp["gate"]["fail_above"] is not None
    if top == 0:
        return ""
    rows = cmp["stacks"][:top]
    out = ["%d run%s against %d%s; the %d most changed of %d stacks"
           % (runs[0], "" if runs[0] == 1 else "s", runs[1],
              " (medians; noise: the new runs' range against the base runs')" if several else "",
              len(rows), len(cmp["stacks"]))]
    if rows:
        out.append("%12s %12s %8s %12s %12s %8s %-7s%s call path"
                   % ("incl base", "incl new", "ratio", "excl base", "excl new", "ratio", "noise",
                      " gate" if gate else ""))
    for s in rows:
        mark = " %-4s" % ("FAIL" if s["slower"] else "ok" if s["counted"] else "-") if gate else ""
        prefix = {"changed": "", "new": "(new) ", "vanished": "(vanished) "}[s["status"]]
        out.append("%12s %12s %8s %12s %12s %8s %-7s%s %s%s" % (
            seconds_text(s["time_incl_s"][0]), seconds_text(s["time_incl_s"][1]),
            "-" if s["ratio"] is None else "x%.3f" % s["ratio"],
            seconds_text(s["time_excl_s"][0]), seconds_text(s["time_excl_s"][1]),
            "-" if s["ratio_excl"] is None else "x%.3f" % s["ratio_excl"],
            s["noise"] or "-", mark, prefix, " > ".join(s["path"])))
    if gate:
        n, r = len(cmp["gate"]["slower"]), cmp["gate"]["fail_above"]
        out.append("--fail-above %g: %s: %d counted stack%s slower than x%g%s"
                   % (r, "FAIL" if n else "pass", n, "" if n == 1 else "s", r,
                      " beyond the runs' spread" if several else ""))
    return "\n".join(out) + "\n"
