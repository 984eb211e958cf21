"""Every relative link in README.md, docs/*.md and BENCHMARKS.md points to a
file of the source tree, and every #anchor to a heading (or an explicit
<a id>/<a name>) of the Markdown file it names, with the anchors GitHub
makes from headings.  A reader who follows a link must land somewhere."""

import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
import htlib  # noqa: E402

FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose_lines(path):
    """(line number, text) outside fenced code blocks, inline code removed."""
    inside = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                inside = not inside
                continue
            if not inside:
                yield number, re.sub(r"`[^`]*`", "", line)


def slug(heading):
    """GitHub's anchor for a heading: the text without Markdown, lower case,
    punctuation dropped (but - and _), spaces turned into hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").strip().lower()
    return "".join(c if (c.isalnum() or c in "-_") else "-" if c == " " else "" for c in text)


def anchors(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        inside = False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if FENCE.match(line):
                    inside = not inside
                    continue
                if inside:
                    continue
                found.update(HTML_ANCHOR.findall(line))
                m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
                if m:
                    base = slug(m.group(1))
                    n = seen.get(base, 0)
                    seen[base] = n + 1
                    found.add(base if n == 0 else "%s-%d" % (base, n))
        cache[path] = found
    return cache[path]


def main():
    top = os.path.abspath(htlib.SRCDIR)
    files = [os.path.join(top, "README.md"), os.path.join(top, "BENCHMARKS.md")]
    files += sorted(glob.glob(os.path.join(top, "docs", "*.md")))
    links = 0
    for doc in files:
        if not os.path.exists(doc):
            htlib.check(False, "%s is missing" % os.path.relpath(doc, top))
            continue
        for number, line in prose_lines(doc):
            for target in LINK.findall(line):
                if EXTERNAL.match(target):
                    continue
                links += 1
                where = "%s:%d: %s" % (os.path.relpath(doc, top), number, target)
                name, _, anchor = target.partition("#")
                dest = doc if name == "" else os.path.normpath(os.path.join(os.path.dirname(doc), name))
                if not htlib.check(os.path.exists(dest), where + ": no such file"):
                    continue
                if not htlib.check(os.path.commonpath([dest, top]) == top, where + ": outside the source tree"):
                    continue
                if anchor and dest.endswith(".md"):
                    htlib.check(anchor in anchors(dest), where + ": no heading with this anchor")
    # The test must have seen the documentation's links, not an empty tree.
    htlib.check(links >= 100, "links checked: %d, expected at least 100" % links)
    print("relative links checked: %d in %d files" % (links, len(files)))
    htlib.finish()


main()
