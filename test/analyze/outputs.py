"""The outputs and the command line: JSON shape (comm_matrix as in the
profile), CSV columns, the SVG heatmap, the text report, time units, where
each output goes, --help, bad options, progress, unwritable outputs."""

import json
import os
import xml.etree.ElementTree as ET

from analyzelib import (analyze, check, check_eq, check_in, finish, ns, parse_csv, run,
                        scratch, write)

SVG = "{http://www.w3.org/2000/svg}"

archive = write("communicators")
a = analyze(archive)

# JSON: the documented keys, and comm_matrix exactly as the profile has it.
check_eq(list(a.doc), ["tool", "version", "archive", "trace", "summary", "warnings",
                       "warning_examples", "communicators", "comm_matrix",
                       "comm_matrix_timing", "wait_states", "clock_offsets"], "JSON top-level keys")
check_eq(a.doc["archive"], os.path.join(archive, "traces.otf2"), "JSON archive (the anchor)")
check_eq(sorted(a.doc["trace"]), ["duplicate_definitions", "events", "locations", "ranks",
                                  "records", "timer_resolution"], "JSON trace keys")
check_eq(a.doc["trace"]["duplicate_definitions"], 0, "no duplicate definitions")
check_eq(sorted(a.summary), sorted([
    "messages", "bytes", "unmatched_sends", "unmatched_send_bytes", "unmatched_receives",
    "unmatched_receive_bytes", "duration_min_s", "duration_mean_s", "duration_max_s",
    "timed_messages", "bandwidth_bytes_per_s", "peak_in_flight", "order_violations",
    "order_moved_s", "order_moved_max_s", "warnings"]),
    "JSON summary keys")
check_eq(sorted(a.warnings), sorted([
    "missing_receive", "receive_without_send", "nonpositive_duration",
    "send_longer_than_receive", "unknown_request", "unmatched_cancel", "request_reused",
    "isend_not_completed", "irecv_not_completed", "unmapped_rank"]), "JSON warning kinds")
check_eq({tuple(c) for c in a.doc["comm_matrix"]}, {("sender", "receiver", "messages", "bytes")},
         "comm_matrix cells: exactly sender, receiver, messages, bytes")
cells = [(c["sender"], c["receiver"]) for c in a.doc["comm_matrix"]]
check_eq(cells, sorted(cells), "comm_matrix sorted by sender, then receiver")
check_eq([(t["sender"], t["receiver"], t["timed_messages"]) for t in a.doc["comm_matrix_timing"]],
         [(s, r, 1) for s, r in cells], "comm_matrix_timing: one entry per cell")
check_eq(a.doc["trace"]["timer_resolution"], 1000000000, "timer resolution (ticks/s)")
check_eq(a.summary["bytes"], 623, "summary bytes")

# CSV: the header, one row per message.
result = run(["--csv", "-", archive])
lines = result.stdout.splitlines()
check_eq(lines[0] if lines else None,
         "sender,receiver,communicator,tag,send_bytes,receive_bytes,send_time_s,"
         "receive_time_s,duration_s,status", "CSV header")
check_eq(len(lines), 7, "CSV: header and 6 messages")
check_eq(result.stderr, "", "--csv -: nothing on stderr")

# --json - puts only the JSON on stdout (the text report steps aside).
result = run(["--json", "-", archive])
try:
    doc = json.loads(result.stdout)
except ValueError:
    doc = {}
check_eq(doc.get("comm_matrix"), a.doc["comm_matrix"], "--json -: stdout is the JSON")

# The SVG: well-formed, one square per matrix cell, each with its numbers.
out = scratch("svg")
svg_path = os.path.join(out, "matrix.svg")
result = run(["-q", "--svg", svg_path, archive])
check_eq(result.returncode, 0, "--svg: exit status")
try:
    root = ET.parse(svg_path).getroot()
except (OSError, ET.ParseError) as e:
    check(False, "--svg: not well-formed XML: %s" % e)
    root = ET.Element(SVG + "svg")
check_eq(root.tag, SVG + "svg", "--svg: root element")
titles = [r.find(SVG + "title").text for r in root.iter(SVG + "rect")
          if r.find(SVG + "title") is not None]
check_eq(len(titles), 6, "--svg: one square per cell")
check_in("rank 3 \u2192 rank 1: 1 messages, 100 bytes, mean bandwidth 1e+10 bytes/s", titles,
         "--svg: the 3 -> 1 square")
fills = {r.get("fill") for r in root.iter(SVG + "rect") if r.find(SVG + "title") is not None}
check(len(fills) > 1, "--svg: squares of different sizes get different colours")
result = run(["-q", "--svg", svg_path, "--svg-value", "messages", archive])
check_eq(result.returncode, 0, "--svg-value messages: exit status")
with open(svg_path) as f:
    check_in("Messages sent, by world rank", f.read(), "--svg-value messages: heading")
check_eq([n for n in os.listdir(out) if ".tmp." in n], [], "no temporary files left")

# The text report.
text = run([archive]).stdout
for line in ["  messages matched         6", "  bytes matched            623 bytes",
             "  MPI ranks                4", "  locations                5",
             "  unmatched sends          0 (0 bytes)"]:
    check_in(line, text.splitlines(), "text report line")
check_in("       3        1            1              100                    1e+10",
         text, "text report: matrix row 3 -> 1")
out = scratch("text")
result = run(["--text", os.path.join(out, "report.txt"), archive])
check_eq((result.returncode, result.stdout), (0, ""), "--text FILE: nothing on stdout")
with open(os.path.join(out, "report.txt")) as f:
    check_eq(f.read(), text, "--text FILE: the same report")

# A target that is not a regular file is written in place, never replaced
# by a rename: here a symbolic link (the same rule keeps /dev/null a
# device).
out = scratch("symlink")
real = os.path.join(out, "real.json")
link = os.path.join(out, "link.json")
with open(real, "w") as f:
    f.write("old")
os.symlink(real, link)
result = run(["-q", "--json", link, archive])
check_eq(result.returncode, 0, "--json through a symbolic link: exit status")
check(os.path.islink(link), "--json through a symbolic link: the link stays a link")
with open(real) as f:
    check_in('"comm_matrix"', f.read(), "--json through a symbolic link: the target is written")
check_eq(sorted(os.listdir(out)), ["link.json", "real.json"], "symbolic link: no temporary left")

# A directory or its anchor file: the same analysis.
b = analyze(os.path.join(archive, "traces.otf2"))
check_eq(b.doc["comm_matrix"], a.doc["comm_matrix"], "anchor file given directly")

# Times: seconds since the clock offset, whatever the resolution.
a = analyze(write("clock"))
check_eq(a.messages(), [(0, 1, 0, 0, 1000, 1000, "0.000010000", "0.000510000", "0.000500000")],
         "clock: seconds from ticks (1e6/s, offset 1000)")
check_eq((a.doc["trace"]["timer_resolution"], a.summary["bandwidth_bytes_per_s"]),
         (1000000, 2e6), "clock: resolution, bandwidth")
a = analyze(write("no_clock"))
check_eq((a.doc["trace"]["timer_resolution"], a.summary["duration_max_s"]), (None, 3.0),
         "no_clock: unknown resolution, durations in ticks")
check_in("unknown (no ClockProperties)", run([write("no_clock", "no_clock2")]).stdout,
         "no_clock: the text report says so")

# An archive without events.
empty = write("empty")
a = analyze(empty)
check_eq((a.summary["messages"], a.doc["comm_matrix"], a.summary["duration_min_s"]),
         (0, [], None), "empty: no messages")
out = scratch("emptysvg")
run(["-q", "--svg", os.path.join(out, "m.svg"), empty])
with open(os.path.join(out, "m.svg")) as f:
    check_in("no messages", f.read(), "empty: the SVG says so")

# Progress: only on request here (stderr is not a terminal), ends with a line.
result = run(["-q", "--progress", archive])
check_eq(len(result.stderr.splitlines()), 1, "--progress: one line for a short run")
check_in("6 messages matched", result.stderr, "--progress: the last line")
check_in(", done", result.stderr, "--progress: says it is done")
check_eq(run(["-q", archive]).stderr, "", "no progress by default when stderr is no terminal")

# --help documents every option; bad command lines exit 2.
help_text = run(["--help"]).stdout
for option in ["--text", "--quiet", "--json", "--csv", "--svg", "--svg-value", "--html",
               "--examples", "--progress", "--no-progress", "--help", "--version"]:
    check_in(option, help_text, "--help documents")
check_eq(run(["--version"]).stdout.split()[0:2], ["hooktrace-analyze", "(hooktrace)"],
         "--version")
for args, message in [
        (["--bogus", archive], "unknown option '--bogus'"),
        ([], "no ARCHIVE given"),
        ([archive, archive], "one ARCHIVE only"),
        (["--examples", "many", archive], "--examples: 'many' is not a number"),
        (["--examples", "-1", archive], "is not a number"),
        (["--svg-value", "colour", archive], "neither 'bytes' nor 'messages'"),
        (["--json", "-", "--csv", "-", archive], "--json and --csv name the same file"),
        (["-q", "--text", "x", archive], "--quiet and --text contradict"),
        (["--json"], "needs a value")]:
    result = run(args)
    check_eq(result.returncode, 2, "exit status for %r" % args)
    check_in(message, result.stderr, "message for %r" % args)
    check_eq(result.stdout, "", "nothing on stdout for %r" % args)

# An output that cannot be written: exit 1, the file named, the others kept.
out = scratch("unwritable")
result = run(["-q", "--json", "/nonexistent/dir/r.json", "--svg", os.path.join(out, "m.svg"),
              archive])
check_eq(result.returncode, 1, "unwritable JSON: exit status")
check_in("/nonexistent/dir/r.json: cannot write", result.stderr, "unwritable JSON: message")
check(os.path.exists(os.path.join(out, "m.svg")), "unwritable JSON: the SVG is still written")
result = run(["--csv", "/nonexistent/dir/m.csv", archive])
check_eq((result.returncode, result.stdout), (1, ""), "unwritable CSV: fails before reading")

finish()
