"""A hooktrace JSON profile's stacks by path ("main;step;MPI_Send"), for the
install checks' Python snippets: a stack names its function by index and
its caller by ID (docs/output.md)."""
import json


def load_stacks(filename):
    """(the document, {path: stack})"""
    with open(filename) as f:
        doc = json.load(f)
    paths = []
    for s in doc["stacks"]:
        name = doc["functions"][s["function_index"]]["name"]
        paths.append((paths[s["parent"]] + ";" if s["parent"] >= 0 else "") + name)
    return doc, {paths[s["id"]]: s for s in doc["stacks"]}
