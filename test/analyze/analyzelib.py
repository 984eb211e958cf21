"""Helpers for the hooktrace-analyze tests: write a synthetic archive with
test/analyze/write_scenario, run the analyzer on it as a user would, load
its JSON and CSV, and assert exact figures.  Standard library only.

Every check is counted by the integration tests' helpers
(test/integration/htlib.py: check, check_eq, finish); finish() prints
"N passed, N failed" as the last line and exits with the status automake's
test driver expects."""

import atexit
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from htlib import BUILDDIR, SRCDIR, check, check_eq, finish, memcheck  # noqa: E402,F401

ANALYZE = os.path.join(BUILDDIR, "hooktrace-analyze")
WRITER = os.path.join(BUILDDIR, "test", "analyze", "write_scenario")

_scratch = tempfile.mkdtemp(prefix="hooktrace-analyze-test-")
atexit.register(shutil.rmtree, _scratch, True)


def _environment():
    """Under AddressSanitizer: OTF2's own leaks on a failed open are
    suppressed by name (test/analyze/lsan.supp), nothing else; full malloc
    stacks let the suppression name the OTF2 entry point.  Harmless
    without sanitizers."""
    env = dict(os.environ)
    supp = os.path.join(SRCDIR, "test", "analyze", "lsan.supp")
    lsan = env.get("LSAN_OPTIONS")
    env["LSAN_OPTIONS"] = (lsan + ":" if lsan else "") + \
        "suppressions=%s:print_suppressions=0" % supp
    asan = env.get("ASAN_OPTIONS")
    env["ASAN_OPTIONS"] = (asan + ":" if asan else "") + "fast_unwind_on_malloc=0"
    return env


def check_in(needle, haystack, what):
    return check(needle in haystack, "%s: %r not in %r" % (what, needle, haystack))


def scratch(name):
    """A new directory under the test's scratch directory."""
    path = os.path.join(_scratch, name)
    os.makedirs(path)
    return path


def write(scenario, name=None):
    """Writes a scenario's archive; returns the directory holding it."""
    directory = scratch(name or scenario)
    proc = subprocess.run([WRITER, scenario, directory], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=120,
                          env=_environment())
    if proc.returncode != 0:
        print("cannot write scenario %s: %s" % (scenario, proc.stderr), file=sys.stderr)
        sys.exit(99)  # a hard error, not a failed assertion
    return directory


class Result:
    def __init__(self, proc):
        self.returncode = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr


def threads_option():
    """HT_ANALYZE_THREADS=N runs every analysis of the tests with
    --threads N (CI runs the suite with 1 and with the default, one per
    CPU; docs/analyze.md): the
    same exact answers must come from the serial and the parallel read."""
    threads = os.environ.get("HT_ANALYZE_THREADS")
    return ["--threads", threads] if threads else []


def run(args, cwd=None):
    """Runs hooktrace-analyze with args; returns its status and output."""
    proc = subprocess.run(memcheck([ANALYZE] + threads_option() + list(args)), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=120,
                          cwd=cwd, env=_environment())
    return Result(proc)


class Analysis:
    """An analysis with JSON and CSV output, checked to have succeeded."""

    def __init__(self, result, doc, rows):
        self.result = result
        self.doc = doc
        self.rows = rows

    @property
    def summary(self):
        return self.doc["summary"]

    @property
    def warnings(self):
        return self.doc["warnings"]

    def matrix(self):
        """comm_matrix as (sender, receiver, messages, bytes) tuples."""
        return [(c["sender"], c["receiver"], c["messages"], c["bytes"])
                for c in self.doc["comm_matrix"]]

    def nonzero_warnings(self):
        return {k: v for k, v in self.doc["warnings"].items() if v}

    def messages(self):
        """Matched CSV rows as (sender, receiver, comm, tag, send_bytes,
        receive_bytes, send_time_s, receive_time_s, duration_s), in
        send-time order."""
        out = [(int(r["sender"]), int(r["receiver"]), int(r["communicator"]), int(r["tag"]),
                int(r["send_bytes"]), int(r["receive_bytes"]), r["send_time_s"],
                r["receive_time_s"], r["duration_s"])
               for r in self.rows if r["status"] == "matched"]
        return sorted(out, key=lambda m: (m[6], m[0], m[1]))


def analyze(directory, extra=()):
    """Analyses an archive with --json and --csv into files; checks exit
    status 0 and an empty stderr."""
    out = scratch("out-%d" % len(os.listdir(_scratch)))
    json_path = os.path.join(out, "report.json")
    csv_path = os.path.join(out, "messages.csv")
    result = run(["-q", "--json", json_path, "--csv", csv_path] + list(extra) + [directory])
    check_eq(result.returncode, 0, "exit status of hooktrace-analyze " + directory)
    check_eq(result.stderr, "", "stderr of hooktrace-analyze " + directory)
    doc, rows = {"summary": {}, "warnings": {}, "comm_matrix": []}, []
    if result.returncode == 0:
        with open(json_path) as f:
            doc = json.load(f)
        with open(csv_path) as f:
            rows = list(csv.DictReader(f))
    return Analysis(result, doc, rows)


def all_outputs(command, directory, name, kinds=("txt", "json", "csv", "svg", "html"),
                env=None):
    """Runs command (the analyzer, maybe behind a launcher) with an option
    for each output kind into a new scratch folder; returns the process and
    {kind: the file's bytes (b"" if not written)}."""
    out = scratch(name)
    options = {"txt": "--text", "json": "--json", "csv": "--csv", "svg": "--svg",
               "html": "--html"}
    files = {k: os.path.join(out, "report." + k) for k in kinds}
    args = []
    for k in kinds:
        args += [options[k], files[k]]
    proc = subprocess.run(command + ["-e", "3"] + args + [directory], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=600, env=env)
    got = {}
    for k, path in files.items():
        got[k] = b""
        if os.path.exists(path):
            with open(path, "rb") as f:
                got[k] = f.read()
    return proc, got


def check_warnings(analysis, expected, what):
    """expected: {kind: count} for the kinds that must be non-zero; every
    other kind must be zero, and the summary total must agree."""
    check_eq(analysis.nonzero_warnings(), expected, what + ": warnings")
    check_eq(analysis.summary.get("warnings"), sum(expected.values()), what + ": warning total")


def ns(seconds):
    """A JSON duration in seconds as whole nanoseconds (None stays None)."""
    return None if seconds is None else round(seconds * 1e9)


def parse_csv(text):
    return list(csv.DictReader(io.StringIO(text)))
