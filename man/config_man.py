#!/usr/bin/env python3
"""hooktrace-config(5) from docs/config.md, the one description of every
option: man/hooktrace-config.5.in with @OPTIONS@ (each option, its type,
default and meaning, from the tables of docs/config.md's "Options") and
@ENVIRONMENT@ (its "Environment variables" table) filled in, as mdoc.

    config_man.py TEMPLATE CONFIG.md DOCDIR VERSION > hooktrace-config.5
"""
import re
import sys


def inline(text):
    """Markdown table text as roff text: links as their words, code bold."""
    text = text.replace("\\", "\\e")
    text = re.sub(r"\[([^]]*\.md)\]\([^)]*\)", r"docs/\1", text)
    text = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\*\*([^*]*)\*\*", r"\1", text)
    text = re.sub(r"`([^`]*)`", r"\\fB\1\\fP", text)
    return text


def line(text):
    """One input line of running text (a leading . or ' would be a request)."""
    return "\\&" + text if text[:1] in (".", "'") else text


def rows(lines, i):
    """The data rows of the table whose header is lines[i], as cell lists."""
    out = []
    for ln in lines[i + 2:]:
        if not ln.startswith("|"):
            break
        out.append([c.strip() for c in ln.strip().strip("|").split(" | ")])
    return out


def options(lines):
    out = []
    start = lines.index("## Options")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("## "))
    i = start
    while i < end:
        m = re.match(r"^### `([a-z_.]+)`$", lines[i])
        if not m:
            i += 1
            continue
        name = m.group(1)
        j = i + 1
        while j < end and not lines[j].startswith("#"):
            if lines[j] == "| type | default |":
                ty, default = rows(lines, j)[0]
                out += [".It Cm " + name, line("Type: " + inline(ty) + "."),
                        line("Default: " + inline(default) + ".")]
            elif lines[j] in ("| key | type | default | meaning |", "| key | file |"):
                for r in rows(lines, j):
                    key = r[0].strip("`")
                    out.append(".It Cm " + key)
                    if len(r) == 4:
                        out += [line(inline(r[3]) + "."), line("Type: " + inline(r[1]) + "."),
                                line("Default: " + inline(r[2]) + ".")]
                    else:
                        out.append(line(inline(r[1]) + "."))
            j += 1
        i = j
    return out


def environment(lines):
    i = lines.index("| variable | effect |")
    out = []
    for var, effect in rows(lines, i):
        out += [".It Ev " + var.strip("`"), line(inline(effect))]
    return out


def main(template, config_md, docdir, version):
    lines = open(config_md, encoding="utf-8").read().split("\n")
    text = open(template, encoding="utf-8").read()
    for key, value in (("@OPTIONS@", "\n".join(options(lines))),
                       ("@ENVIRONMENT@", "\n".join(environment(lines))),
                       ("@docdir@", docdir), ("@PACKAGE_VERSION@", version)):
        text = text.replace(key, value)
    sys.stdout.write(text)


if __name__ == "__main__":
    main(*sys.argv[1:])
