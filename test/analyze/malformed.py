"""Malformed, truncated and missing archives: one clear error line naming
the file and the problem, exit status 1, no crash, no hang, and no
half-written output left behind."""

import os
import shutil

from analyzelib import analyze, check, check_eq, check_in, finish, run, scratch, write

original = write("missing_receive")
expected_matrix = analyze(original).matrix()
copies = 0


def damaged(change):
    """A copy of the archive, changed by change(directory)."""
    global copies
    copies += 1
    directory = os.path.join(scratch("damaged%d" % copies), "archive")
    shutil.copytree(original, directory)
    change(directory)
    return directory


def truncate(path, size):
    with open(path, "r+b") as f:
        f.truncate(size)


def half(path):
    truncate(path, os.path.getsize(path) // 2)


def expect_error(directory, phrases, what, target=None):
    """One line on stderr naming the file and each phrase; exit 1."""
    out = scratch("out-" + what.replace(" ", "_"))
    csv_path = os.path.join(out, "m.csv")
    result = run(["-q", "--csv", csv_path, directory])
    check_eq(result.returncode, 1, what + ": exit status")
    lines = result.stderr.splitlines()
    check_eq(len(lines), 1, what + ": one line on stderr")
    line = lines[0] if lines else ""
    check(line.startswith("hooktrace-analyze: "), what + ": the line names the program")
    check_in(target or os.path.join(directory, "traces.otf2"), line, what + ": names the file")
    for phrase in phrases:
        check_in(phrase, line, what + ": says what is wrong")
    check_eq(os.listdir(out), [], what + ": no CSV or temporary file left")


# The location of rank 1 is 100 (see trace_writer.h).
expect_error(damaged(lambda d: half(os.path.join(d, "traces", "100.evt"))),
             ["cannot read the events", "truncated or corrupt"], "event file cut in half")
expect_error(damaged(lambda d: truncate(os.path.join(d, "traces", "100.evt"), 0)),
             ["events of location 100", "truncated or corrupt"], "empty event file")
expect_error(damaged(lambda d: os.remove(os.path.join(d, "traces", "101.evt"))),
             ["events of location 101", "does not exist", "101.evt"], "event file missing")
expect_error(damaged(lambda d: half(os.path.join(d, "traces.def"))),
             ["global definitions", "truncated or corrupt"], "definitions cut in half")
expect_error(damaged(lambda d: os.remove(os.path.join(d, "traces.def"))),
             ["cannot read the global definitions", "traces.def"], "definitions missing")


def garbage(path):
    with open(path, "wb") as f:
        f.write(b"this is not an OTF2 anchor file\n")


expect_error(damaged(lambda d: garbage(os.path.join(d, "traces.otf2"))),
             ["not a readable OTF2 archive"], "anchor file garbage")
expect_error(damaged(lambda d: half(os.path.join(d, "traces.otf2"))),
             ["not a readable OTF2 archive"], "anchor file cut in half")
# Shorter than the header: refused before OTF2 reads past its end (which
# valgrind saw on a 1-byte file).
for size in (0, 1, 31):
    expect_error(damaged(lambda d, size=size: truncate(os.path.join(d, "traces.otf2"), size)),
                 ["not a readable OTF2 archive", "%d bytes" % size, "truncated or corrupt"],
                 "anchor file of %d bytes" % size)

directory = damaged(lambda d: os.remove(os.path.join(d, "traces.otf2")))
expect_error(directory, ["a directory without an OTF2 anchor file"], "no anchor file",
             target=directory)
directory = damaged(lambda d: shutil.copy(os.path.join(d, "traces.otf2"),
                                          os.path.join(d, "again.otf2")))
expect_error(directory, ["2 OTF2 anchor files"], "two anchor files", target=directory)
missing = os.path.join(scratch("nothing"), "no-such-trace")
expect_error(missing, ["No such file or directory"], "missing path", target=missing)
not_otf2 = os.path.join(scratch("text"), "notes.txt")
with open(not_otf2, "w") as f:
    f.write("hello\n")
expect_error(not_otf2, ["not a readable OTF2 archive"], "not an OTF2 file", target=not_otf2)

# Local definition files are optional: without them the answer is the same.
a = analyze(damaged(lambda d: [os.remove(os.path.join(d, "traces", n))
                               for n in os.listdir(os.path.join(d, "traces"))
                               if n.endswith(".def")]))
check_eq(a.matrix(), expected_matrix, "no local definitions: same matrix")

# A location that announces no events needs no event file; one that
# announces events does.
idle = write("idle_thread")
os.remove(os.path.join(idle, "traces", "502.evt"))
a = analyze(idle)
check_eq((a.matrix(), a.doc["trace"]["locations"]), ([(0, 1, 1, 8)], 3),
         "idle thread without an event file: read without it")
os.remove(os.path.join(idle, "traces", "100.evt"))
expect_error(idle, ["events of location 100", "does not exist"],
             "event file of a location with events missing")

# Bytes inserted into an event file of a long trace.  With OTF2 3.0.2 this
# sends its reader round in circles; the analyzer must stop with an error
# (not hang, not grow without bound).
ring = write("ring")
ring_copy = os.path.join(scratch("ring-damaged"), "archive")
shutil.copytree(ring, ring_copy)
evt = os.path.join(ring_copy, "traces", "106.evt")
with open(evt, "rb") as f:
    data = f.read()
with open(evt, "wb") as f:
    f.write(data[:1141331] + bytes.fromhex("db21bdc3f9") + data[1141331:])
expect_error(ring_copy, ["corrupt"], "bytes inserted into a long event file")
# Cut at a chunk boundary (1 MiB): OTF2 notices the missing chunks.
ring_cut = os.path.join(scratch("ring-cut"), "archive")
shutil.copytree(ring, ring_cut)
truncate(os.path.join(ring_cut, "traces", "106.evt"), 1 << 20)
expect_error(ring_cut, ["truncated or corrupt"], "event file cut at a chunk boundary")

finish()
