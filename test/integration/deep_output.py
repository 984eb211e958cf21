"""Output stays O(stacks) however deep the recursion: a recursion 100,000
deep (max_stack_depth raised above it) gives 100,000 stacks, and the
logfile, folded stacks and JSON stay within a bound in bytes while its
figures stay exact.  The bounds follow from the structure, never from the
machine's speed: which stacks have a folded line depends on which take
0.5 us or more, so the folded file is checked line by line against the
JSON (htlib.check_folded) and bounded by every stack's cut line.  Before, every stack's path was written whole: the
logfile and folded file grew with the square of the depth (at 20,000
levels, 83 MB and 63 MB; at 100,000, gigabytes)."""
import json
import os
import shutil
import subprocess
import tempfile

from htlib import *


def sizes(r):
    return {s: os.path.getsize(r.path(s)) for s in (".log", ".json", ".folded")}


def deep_stacks(doc):
    """The stacks of descend: calls, depth (from the parent links), ids."""
    functions = [f["name"] for f in doc["functions"]]
    depth = {}
    result = []
    for s in doc["stacks"]:  # a caller comes before its callees
        depth[s["id"]] = 1 if s["parent"] < 0 else depth[s["parent"]] + 1
        if functions[s["function_index"]] == "descend":
            result.append((s, depth[s["id"]]))
    return result


for depth in (20000, 100000):
    what = "depth %d: " % depth
    r = run(program("deep_recursion"), args=[str(depth)],
            config={"max_stack_depth": depth + 20000, "outputs": {"log_stacks": 100}})
    check_eq(r.returncode, 0, what + "exit status")
    check_eq(r.stdout, "deep_recursion: %d\n" % depth, what + "the program computes the same")
    size = sizes(r)
    # Each file's own bound, O(stacks): the log has 100 rows and 100 paths
    # of at most 3 + 6 frames; JSON ~210 bytes a stack; a folded line at
    # most 64 + 64 frames and the marker, and at most a line per stack.
    check(size[".log"] < 256 << 10, what + "logfile %d bytes, under 256 KiB" % size[".log"])
    check(size[".json"] < 256 * (depth + 1), what + "JSON %d bytes, under 256 per stack"
          % size[".json"])
    doc = json.load(open(r.path(".json")))
    got, bound = check_folded(r.text(".folded"), doc, what + "folded")
    check(got <= bound < 1100 * (depth + 1), what + "folded %d bytes, at most %d, every stack's"
          " cut line, under 1100 bytes a stack" % (got, bound))
    print("note: %s%r bytes; the folded bound %d" % (what, size, bound))
    folded = r.text(".folded").splitlines()
    frames = [len(l.rsplit(" ", 1)[0].split(";")) for l in folded]
    check(max(frames) <= 64 + 1 + 64, what + "a folded line has at most 129 frames")
    check(len(folded) <= depth + 1, what + "a folded line per stack at most")
    elided = [l for l in folded if "[..." in l]
    for line in elided[:50]:
        path = line.rsplit(" ", 1)[0].split(";")
        check_eq(path[0], "main", what + "a cut folded line keeps its root")
        check_eq(len(path), 129, what + "a cut folded line has 64 + 1 + 64 frames")
        n = int(path[64][len("[..."):-len(" frames]")])
        check(n >= 4, what + "the marker counts the frames left out")
    stacks = deep_stacks(doc)
    check_eq(len(doc["stacks"]), depth + 1, what + "stacks: main and one per level")
    check_eq(sum(s["calls"] for s, _ in stacks), depth, what + "calls of descend")
    check_eq(max(d for _, d in stacks), depth + 1, what + "the deepest stack's depth")
    check_eq(doc["deepest_stack"], depth + 1, what + "the deepest stack's depth, as reported")
    check("call stacks:     %d, the deepest %d functions deep (" % (depth + 1, depth + 1)
          in r.text(".log"), what + "the logfile reports the deepest stack")
    check_eq(doc["folded_calls"], 0, what + "nothing folded below the raised limit")
    main = doc["stacks"][0]
    top = stacks[0][0]
    check(0 < top["time_incl_s"] <= main["time_incl_s"] <= doc["wall_time_s"],
          what + "inclusive times: descend %g <= main %g <= wall %g"
          % (top["time_incl_s"], main["time_incl_s"], doc["wall_time_s"]))
    check(abs(sum(s["time_excl_s"] for s, _ in stacks) + main["time_excl_s"]
              - main["time_incl_s"]) < 1e-6 * max(1.0, main["time_incl_s"]),
          what + "exclusive times add up to main's inclusive time")
    # The stack list: a path deeper than 12 shows 3 + 6 frames, says how
    # many it left out and its depth.
    depth_of = {s["id"]: d for s, d in stacks}
    lines = r.text(".log").split("\nCall stacks")[1].splitlines()[2:]
    listed = [l for l in lines if l[8:10] == ": "]
    check_eq(len(listed), 100, what + "stacks listed in the logfile")
    for line in listed:
        d = depth_of.get(int(line[:8]), 1)
        if d > 12:
            check(line.count(" > ") == 9 and " > ... %d frames ... > " % (d - 9) in line
                  and line.endswith(" [depth %d]" % d), what + "cut path: " + line[:200])
        else:
            check_eq(line.count(" > "), d - 1, what + "whole path: " + line[:200])
    shutil.rmtree(r.directory)

# A nearly full file system: a 24 MiB tmpfs (as root; skipped where it
# cannot be mounted) and every stack in the logfile (log_stacks 0, some
# 80 MB at this depth).  Each file stops while a part of the free space is
# left (half of it, below 128 MiB free), says so on stderr, and the program
# still finishes as it would.  The logfile and the JSON are far larger than
# the room they get; the folded file (3 MiB of room) only on a machine slow
# enough that over ~3,000 stacks take 0.5 us (a faster one writes fewer
# lines, and then the whole file, which must fit).
mount_point = tempfile.mkdtemp(prefix="hooktrace-tmpfs-")
mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", mount_point],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
if not mounted:
    print("note: no tmpfs could be mounted here; the full file system case is skipped")
try:
    if mounted:
        what = "full file system: "
        r = run(program("deep_recursion"), args=["100000"],
                config={"max_stack_depth": 120000, "output_directory": mount_point,
                        "outputs": {"log_stacks": 0}})
        check_eq(r.returncode, 0, what + "exit status")
        check_eq(r.stdout, "deep_recursion: 100000\n", what + "the program computes the same")
        stopped = [l.split(" stopped at")[0] for l in r.stderr.splitlines() if " stopped at " in l]
        check_eq(stopped[:2], ["hooktrace: the logfile", "hooktrace: the JSON profile"],
                 what + "the logfile and the JSON say they stopped")
        # the HTML page embeds the cut JSON without its whitespace and
        # per-thread figures (a third of its size): it stops by the same
        # rule when its room is smaller (then it is not written)
        folded_html = [l for l in stopped[2:] if l != "hooktrace: the HTML report"]
        check(folded_html in (["hooktrace: the folded stacks"], []) and
              stopped[2:] in (folded_html, folded_html + ["hooktrace: the HTML report"]),
              what + "the folded stacks (then the page) stopped, or were all written: %r"
              % stopped[2:])
        fs = os.statvfs(mount_point)
        check(fs.f_bavail * fs.f_frsize >= 2 << 20, what + "%d bytes left free"
              % (fs.f_bavail * fs.f_frsize))
        base = os.path.join(mount_point, "deep_recursion")
        with open(base + ".log") as f:
            check(f.read().endswith("\n... stopped here: the file system is nearly full\n"),
                  what + "the logfile ends saying it stopped")
        with open(base + ".json") as f:
            doc = json.load(f)
        check("incomplete" in doc, what + "the JSON is readable and says it is incomplete")
        check(0 < len(doc["stacks"]) < 100001, what + "the JSON has part of the stacks")
        with open(base + ".folded") as f:
            folded = f.read()
        check(folded.endswith("\n") and
              all(l.rpartition(" ")[2].isdigit() for l in folded.splitlines()),
              what + "the folded file has whole lines")
        shutil.rmtree(r.directory)
finally:
    if mounted:
        subprocess.run(["umount", mount_point])
    os.rmdir(mount_point)
finish()
