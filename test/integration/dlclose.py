"""Functions of a library closed with dlclose before the profile is named
(docs/symbols.md, "Libraries closed with dlclose"): named with their file
and line, with exact counts, after one open/close, two, an open/close/open
again, and when the library's file is deleted after dlclose."""
import os
import shutil
import tempfile

from htlib import *

LIBRARY = os.path.join(BUILDDIR, "test", "programs", ".libs", "libdlclosefix.so")
SOURCE = os.path.normpath(os.path.join(SRCDIR, "test", "programs", "dlclose_lib.c"))
ALPHA, BETA = "main;cycle;dlc_alpha", "main;cycle;dlc_beta"


def expect_library(p, cycles, what):
    expect_calls(p, {"main": 1, "main;cycle": cycles, ALPHA: 3 * cycles, BETA: 5 * cycles})
    for path, line in ((ALPHA, 8), (BETA, 13)):
        s = p.stack(path)
        check_eq((s["file"], s["line"]), (SOURCE, line), "%s: %s's file and line" % (what, path))
    names = sorted(f["name"] for f in p.doc["functions"])
    check_eq(names, ["cycle", "dlc_alpha", "dlc_beta", "lookup", "main"],
             "%s: every function named, each once" % what)


for args, cycles, what in ((["1"], 1, "open, call, close"),
                           (["2"], 2, "twice open, call, close"),
                           (["1", "open"], 2, "open, close, open again")):
    r = run(program("dlclose_main"), [LIBRARY] + args)
    check_eq((r.returncode, r.stdout), (0, "dlclose_main: %d\n" % (32 * cycles)), what + ": exit, output")
    expect_library(r.profile(), cycles, what)

# A scratch copy of the library, removed after dlclose: named from the file
# kept open at dlclose.
scratch = tempfile.mkdtemp(prefix="hooktrace-dlclose-")
copy = os.path.join(scratch, "libdlcopy.so")
shutil.copy(LIBRARY, copy)
r = run(program("dlclose_main"), [copy, "1", "delete"])
check_eq((r.returncode, r.stdout), (0, "dlclose_main: 32\n"), "deleted copy: exit, output")
check(not os.path.exists(copy), "the program removed its copy")
expect_library(r.profile(), 1, "deleted copy")
shutil.rmtree(scratch)
finish()
