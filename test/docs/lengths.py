"""The documentation stays a size a reader can take in (issue 39): no page
of docs/ over 600 lines, README.md at most 320, the README's two commands
(scripts/demo.sh and scripts/test.sh, each on a line of its own in a code
block) within its first 40 lines, and every page of docs/ listed in the
index, docs/README.md, so that a reader finds it by task.  BENCHMARKS.md
keeps its own limit."""

import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
import htlib  # noqa: E402

PAGE_LINES = 600
README_LINES = 320
COMMANDS = ("scripts/demo.sh", "scripts/test.sh")
COMMANDS_WITHIN = 40
FENCE = re.compile(r"^\s*(```|~~~)")


def lines_of(path):
    """The file's lines, counted as wc -l counts them (and a last line
    without a newline)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def main():
    top = os.path.abspath(htlib.SRCDIR)
    pages = sorted(glob.glob(os.path.join(top, "docs", "*.md")))
    htlib.check(len(pages) >= 20, "docs/ has %d pages, expected at least 20" % len(pages))
    for page in pages:
        n = len(lines_of(page))
        htlib.check(n <= PAGE_LINES, "%s has %d lines: at most %d; split it by task, or move "
                    "a reference table to a page of its own (docs/README.md lists them)"
                    % (os.path.relpath(page, top), n, PAGE_LINES))

    readme = lines_of(os.path.join(top, "README.md"))
    htlib.check(len(readme) <= README_LINES, "README.md has %d lines: at most %d; move the detail to docs/"
                % (len(readme), README_LINES))
    inside, found = False, {}
    for number, line in enumerate(readme, 1):
        if FENCE.match(line):
            inside = not inside
            continue
        for command in COMMANDS:
            if inside and line.split("#")[0].split() == [command] and command not in found:
                found[command] = number
    for command in COMMANDS:
        htlib.check(command in found and found[command] <= COMMANDS_WITHIN,
                    "README.md: the command %s is not on a line of its own in a code block within its "
                    "first %d lines (found at line %s)" % (command, COMMANDS_WITHIN, found.get(command)))

    index_path = os.path.join(top, "docs", "README.md")
    if htlib.check(os.path.exists(index_path), "docs/README.md, the index of docs/, is missing"):
        with open(index_path, encoding="utf-8") as f:
            linked = set(re.findall(r"\]\(([a-z0-9_]+\.md)(?:#[^)]*)?\)", f.read()))
        for page in pages:
            name = os.path.basename(page)
            if name != "README.md":
                htlib.check(name in linked, "docs/%s is not listed in docs/README.md" % name)
    print("pages checked: %d, README.md: %d lines, its commands at lines %s"
          % (len(pages), len(readme), ", ".join(str(found.get(c)) for c in COMMANDS)))
    htlib.finish()


main()
