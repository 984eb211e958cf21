#!/usr/bin/env python3
"""Check the layering of src/ (docs/architecture.md, "Layers").

Two kinds of dependency between folders are read:

* includes: `#include "folder/file.h"` in any file under src/;
* calls: a symbol an object file under src/<folder>/ uses and an object file
  of another folder defines (from `nm` on a build tree's objects, so calls
  hidden behind a forward declaration are seen too).

It reports every edge that runs up a floor or sideways between services that
are not ordered, every circle of two or more folders, and every file under
src/ longer than the limit.  Exit status 1 if any is found.

    scripts/layers.py [--build _build/test] [--max-lines 600] [--graph]
"""
import argparse
import os
import re
import subprocess
import sys

# Floors, top to bottom.  A folder may depend on folders of a lower floor,
# and on folders of its own floor listed before it (services are ordered:
# output may use merge, mpit and trace; merge may use mpit; and so on).
FLOORS = [
    ("entry", ["fortran", "hooks", "mpi"]),
    ("runtime", ["runtime"]),
    ("services", ["merge", "output", "mpit", "trace", "counters", "throttle", "callstack"]),
    ("ground", ["symbols", "config", "common"]),
]
# Along the entry floor: fortran translates to the mpi core and uses the
# hooks' helpers; the hooks poll the mpi layer's open requests.
APART = {"analyze", "plugin", "report"}  # programs of their own (the plugin runs in GCC): size only
# C library functions that src/hooks interposes (longjmp.c): a call to one
# of them is a call into the C library, not up into the hooks.  dlclose is
# not among them: hooktrace's own code closes libraries through
# ht_library_close (src/common/library_close.h), never through the
# interposer's symbol.
INTERPOSED = {"longjmp", "_longjmp", "siglongjmp", "__longjmp_chk"}
SRC = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))


def rank_of():
    rank = {}
    position = 0
    for _, folders in FLOORS:
        for folder in folders:
            rank[folder] = position
            position += 1
    return rank


def floor_of():
    return {f: name for name, folders in FLOORS for f in folders}


def folder_of(path):
    parts = path.split(os.sep)
    if "src" in parts:
        i = parts.index("src")
        if i + 1 < len(parts) - 1:
            return parts[i + 1]
    return None


def include_folders(src):
    """Headers a file reaches through the include path (`#include <mpi.h>`),
    by name: those of a folder under src/ that holds headers and no C file
    (src/common/weak_mpi), which the build puts in the path with -I."""
    found = {}
    for root, _, files in os.walk(src):
        if any(n.endswith(".c") for n in files):
            continue
        for name in files:
            if name.endswith(".h"):
                found[name] = folder_of(os.path.relpath(os.path.join(root, name), os.path.dirname(src)))
    return found


def include_edges(src):
    edges = {}
    quoted = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    angled = re.compile(r'^\s*#\s*include\s+<([^>]+)>')
    by_path = include_folders(src)
    for root, _, files in os.walk(src):
        for name in files:
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            here = folder_of(os.path.relpath(path, os.path.dirname(src)))
            with open(path, encoding="utf-8") as f:
                for line in f:
                    there = None
                    m = quoted.match(line)
                    if m and "/" in m.group(1):
                        there = m.group(1).split("/")[0]
                    elif not m:
                        m = angled.match(line)
                        there = by_path.get(m.group(1)) if m else None
                    if there and there != here and os.path.isdir(os.path.join(src, there)):
                        edges.setdefault((here, there), set()).add(
                            "%s includes %s" % (os.path.relpath(path, os.path.dirname(src)), m.group(1)))
    return edges


def nm_symbols(obj, defined):
    args = ["nm", "-P", "--defined-only" if defined else "--undefined-only", obj]
    out = subprocess.run(args, capture_output=True, text=True, check=False).stdout
    symbols = set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 2 and (not defined or fields[1] in "TtDdBbRrVvWwGgSs"):
            if defined and fields[1].islower() and fields[1] not in "vw":
                continue  # local symbol: not reachable from another file
            symbols.add(fields[0])
    return symbols


def call_edges(build):
    objects = []
    for root, _, files in os.walk(os.path.join(build, "src")):
        for name in files:
            if not name.endswith(".o"):
                continue
            # libht_x_la-file.o: skip objects whose source moved or went away
            source = name.split("-", 1)[-1][:-2] + ".c"
            folder = folder_of(os.path.relpath(os.path.join(root, name), build))
            if folder and not os.path.exists(os.path.join(SRC, folder, source)) and \
                    not os.path.exists(os.path.join(root, source)):
                continue
            objects.append(os.path.join(root, name))
    defined_in = {}
    for obj in objects:
        folder = folder_of(os.path.relpath(obj, build))
        for sym in nm_symbols(obj, True):
            defined_in.setdefault(sym, set()).add(folder)
    edges = {}
    for obj in objects:
        here = folder_of(os.path.relpath(obj, build))
        for sym in nm_symbols(obj, False) - INTERPOSED:
            for there in defined_in.get(sym, ()):
                if there != here:
                    edges.setdefault((here, there), set()).add(
                        "%s uses %s" % (os.path.basename(obj), sym))
    return edges


def circles(nodes, edges):
    """Strongly connected components with more than one folder (Tarjan)."""
    graph = {n: sorted({b for (a, b) in edges if a == n}) for n in nodes}
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for n in sorted(nodes):
        if n not in index:
            visit(n)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", default=SRC)
    ap.add_argument("--build", help="a build tree whose object files give the calls")
    ap.add_argument("--max-lines", type=int, default=600)
    ap.add_argument("--graph", action="store_true", help="print every edge")
    args = ap.parse_args()
    src = os.path.normpath(args.src)

    edges = include_edges(src)
    if args.build:
        for key, why in call_edges(args.build).items():
            edges.setdefault(key, set()).update(why)
    edges = {k: v for k, v in edges.items() if k[0] not in APART and k[1] not in APART}

    rank = rank_of()
    floors = floor_of()
    problems = 0
    for (a, b), why in sorted(edges.items()):
        if a not in rank or b not in rank:
            print("unknown folder in %s -> %s (add it to FLOORS)" % (a, b))
            problems += 1
            continue
        upward = rank[b] <= rank[a] and not (floors[a] == "entry" and floors[b] == "entry" and rank[b] > rank[a])
        if args.graph or upward:
            label = "UP  " if upward else "    "
            print("%s%s -> %s (%s -> %s): %s" % (label, a, b, floors[a], floors[b], "; ".join(sorted(why)[:3])))
        if upward:
            problems += 1

    nodes = {a for a, _ in edges} | {b for _, b in edges}
    for comp in circles(nodes, edges):
        print("circle: " + " <-> ".join(comp))
        problems += 1

    for root, _, files in os.walk(src):
        for name in files:
            if name.endswith((".c", ".h", ".cc", ".py")):
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as f:
                    n = sum(1 for _ in f)
                if n > args.max_lines:
                    print("long file: %s has %d lines (limit %d)" % (os.path.relpath(path, os.path.dirname(src)), n, args.max_lines))
                    problems += 1

    print("layers: %d problem(s)" % problems)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
