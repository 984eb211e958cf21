"""Helpers for hooktrace's integration tests: run an instrumented program in
a fresh directory with a given config, load its JSON profile, and assert
exact figures.  Standard library only.

Every check is counted; finish() prints "N passed, N failed" and exits with
the status automake's test driver expects."""

import atexit
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

BUILDDIR = os.environ.get("HT_TOP_BUILDDIR", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
SRCDIR = os.environ.get("HT_TOP_SRCDIR", BUILDDIR)
# configure --without-otf2 builds no trace writer and no hooktrace-analyze
# (docs/install.md): the tests skip what reads a trace, and say so.
HAVE_OTF2 = os.environ.get("HT_OTF2", "yes") != "no"

_passed = 0
_failed = 0


def program(name):
    """Path of a test program built by `make check`."""
    return os.path.join(BUILDDIR, "test", "programs", name)


def memcheck(argv):
    """argv, run under valgrind's memcheck when HT_VALGRIND is set (CI sets
    it in one stage for the analyzer's tests): an invalid read or write
    then ends the program with status 99.  AddressSanitizer cannot see
    those that happen inside uninstrumented libraries such as OTF2, on
    memory they freed themselves; valgrind sees every access."""
    if not os.environ.get("HT_VALGRIND"):
        return list(argv)
    supp = os.path.join(SRCDIR, "test", "analyze", "valgrind.supp")
    return ["valgrind", "--error-exitcode=99", "-q", "--suppressions=" + supp, "--"] + list(argv)


def check(condition, message):
    global _passed, _failed
    if condition:
        _passed += 1
    else:
        _failed += 1
        print("FAIL: " + message, file=sys.stderr)
    return condition


def check_eq(actual, expected, what):
    return check(actual == expected, "%s: got %r, expected %r" % (what, actual, expected))


# Times in the outputs are printed with 9 significant digits, so each is
# within 5e-9 of the double it stands for, relative to it.  Sums of such
# times (all >= 0) keep that relative bound.  Compare them 20 times wider
# than that, relative to the value: never at a printed digit (a tolerance
# of exactly the rounding fails at random) and never absolute (a slow
# machine's longer times have larger rounding errors).
PRINTED_REL = 1e-7


def close(a, b, rel=PRINTED_REL):
    """a and b agree within rel of the larger, or are both (nearly) 0."""
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-15


def check_close(actual, expected, what, rel=PRINTED_REL):
    return check(close(actual, expected, rel),
                 "%s: got %r, expected %r within %g of it" % (what, actual, expected, rel))


def folded_paths(doc, head=64, tail=64):
    """Each stack of a JSON profile's document (callers before callees), as
    its folded line writes its path (docs/output.md): whole up to head +
    tail + 3 frames, deeper as the first head frames, "[...N frames]" and
    the last tail frames; ';' in a name as ':'.  O(stacks x (head + tail)),
    never the whole depth."""
    names = [f["name"].replace(";", ":") for f in doc["functions"]]
    firsts, lasts, depths, result = [], [], [], []
    for s in doc["stacks"]:
        name, parent = names[s["function_index"]], s["parent"]
        if parent < 0:
            first, last, depth = (name,), (name,), 1
        else:
            first = firsts[parent] if len(firsts[parent]) == head else firsts[parent] + (name,)
            last = (lasts[parent] + (name,))[-(tail + 3):]
            depth = depths[parent] + 1
        firsts.append(first)
        lasts.append(last)
        depths.append(depth)
        if depth <= head + tail + 3:
            frames = first + last[len(last) - (depth - len(first)):] if depth > len(first) else first
        else:
            frames = first + ("[...%d frames]" % (depth - head - tail),) + last[-tail:]
        result.append(";".join(frames))
    return result


def check_folded(text, doc, what):
    """The folded file `text` is exactly the profile `doc`'s stacks with
    exclusive time, whatever the machine's speed: each line is a distinct
    stack's (cut) path and its exclusive time in whole microseconds (within
    1 us of the JSON's time: both are rounded), every stack of 1 us or more
    has its line, none under 0.25 us has one (a stack's time rounds to 0 us
    below 0.5 us, and how many do depends on the machine).  Returns the
    file's size in bytes and its bound from the structure alone: every
    stack's line written, with its cut path."""
    paths = folded_paths(doc)
    stack_of = {path: i for i, path in enumerate(paths)}
    check_eq(len(stack_of), len(paths), what + ": the stacks' folded paths are distinct")
    lines = text.splitlines()
    seen, wrong = set(), []
    for line in lines:
        path, _, value = line.rpartition(" ")
        i = stack_of.get(path)
        if i is None or i in seen or not value.isdigit() or int(value) <= 0 or \
                abs(int(value) - doc["stacks"][i]["time_excl_s"] * 1e6) > 1.0:
            wrong.append(line[:120] + " ... " + line[-40:])
        seen.add(i)
    check_eq(wrong[:3], [], what + ": each folded line a distinct stack's path and exclusive us"
             " (%d wrong of %d)" % (len(wrong), len(lines)))
    excl_us = [s["time_excl_s"] * 1e6 for s in doc["stacks"]]
    missing = [i for i, us in enumerate(excl_us) if us >= 1.0 and i not in seen]
    extra = [i for i, us in enumerate(excl_us) if us < 0.25 and i in seen]
    check_eq((missing[:3], extra[:3]), ([], []),
             what + ": a folded line for each stack of 1 us or more, none under 0.25 us"
             " (%d missing, %d extra)" % (len(missing), len(extra)))
    bound = sum(len(path) + len(" %d\n" % (us + 1)) for path, us in zip(paths, excl_us))
    return len(text.encode()), bound


def finish():
    print("%d passed, %d failed" % (_passed, _failed))
    sys.exit(1 if _failed else 0)


class Run:
    """One run of a program: its exit status, output and profile files."""

    def __init__(self, directory, proc, basename):
        self.directory = directory
        self.returncode = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        self.basename = basename

    def path(self, suffix):
        return os.path.join(self.directory, self.basename + suffix)

    def exists(self, suffix):
        return os.path.exists(self.path(suffix))

    def profile(self):
        with open(self.path(".json")) as f:
            return Profile(json.load(f))

    def text(self, suffix):
        with open(self.path(suffix)) as f:
            return f.read()


_directories = []


@atexit.register
def _remove_directories():
    """The run directories are kept for a look only when a check failed."""
    if _failed == 0:
        for d in _directories:
            shutil.rmtree(d, ignore_errors=True)


def run_directory(prefix):
    """A new empty directory under the system's temporary folder, removed at
    exit unless a check failed."""
    directory = tempfile.mkdtemp(prefix=prefix)
    _directories.append(directory)
    return directory


# hooktrace's notes on a slow shut-down (outputs.progress_after_ms: after
# a second by default, which a loaded CI machine reaches now and then).
PROGRESS_LINE = re.compile(r"^hooktrace: \d+\.\d s: .*\n", re.M)


def without_progress(stderr, config):
    """stderr less the progress lines, unless the test's config chose when
    they appear (it then reads them)."""
    if config is not None and "progress_after_ms" in (
            config if isinstance(config, str) else json.dumps(config)):
        return stderr
    return PROGRESS_LINE.sub("", stderr)


def run(exe, args=(), config=None, env=None, basename=None):
    """Runs exe in a new temporary directory (the default output directory).
    config: a dict written as the JSON config file, or a string written
    verbatim, or None for no config file.  The run's stderr is without the
    progress lines of a slow shut-down (without_progress)."""
    directory = run_directory("hooktrace-test-")
    environment = dict(os.environ)
    for key in ("HOOKTRACE_CONFIG", "HOOKTRACE_OFF", "HOOKTRACE_OUTPUT_DIRECTORY",
                "HOOKTRACE_PAPI_DISABLE", "HOOKTRACE_HOOK_NS_TEST"):
        environment.pop(key, None)
    if config is not None:
        config_path = os.path.join(directory, "config.json")
        with open(config_path, "w") as f:
            f.write(config if isinstance(config, str) else json.dumps(config, indent=2))
        environment["HOOKTRACE_CONFIG"] = config_path
    environment.update(env or {})
    proc = subprocess.run([exe] + list(args), cwd=directory, env=environment,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=120)
    proc.stderr = without_progress(proc.stderr, config)
    return Run(directory, proc, basename or os.path.basename(exe))


_papi_stub_dir = []


def papi_stub(state):
    """The environment that loads test/papi_stub's stand-in for libpapi in
    the real one's place, in `state` (its HT_PAPI_STUB words, "" for
    perf events that work): a directory holding it under the name
    libhooktrace asks for (its DT_NEEDED libpapi.so.*), first in
    LD_LIBRARY_PATH."""
    if not _papi_stub_dir:
        # the build tree's (libhooktrace.so, or libhooktrace-mpich.so in an
        # mpi-NAME build): every MPI's asks for the same libpapi
        library = sorted(glob.glob(os.path.join(BUILDDIR, ".libs", "libhooktrace*.so")))[0]
        needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(libpapi\.so[^\]]*)\]",
                            subprocess.run(["readelf", "-d", library], stdout=subprocess.PIPE,
                                           universal_newlines=True).stdout)
        check(len(needed) == 1, "%s needs one libpapi: %r" % (library, needed))
        directory = run_directory("hooktrace-papi-stub-")
        os.symlink(os.path.join(BUILDDIR, "test", "papi_stub", ".libs", "libpapi_stub.so"),
                   os.path.join(directory, needed[0] if needed else "libpapi.so"))
        _papi_stub_dir.append(directory)
    path = os.environ.get("LD_LIBRARY_PATH")
    return {"HT_PAPI_STUB": state,
            "LD_LIBRARY_PATH": _papi_stub_dir[0] + (":" + path if path else "")}


def expand_stacks(doc):
    """Gives each stack of a format-3 profile (functions listed once, stacks
    refer to them by function_index and to their caller by parent) its
    function's `function`, `file` and `line` and its `path` from the root,
    as the tests read them.  Checks on the way that the compact form holds
    together: every stack's parent comes before it, every index is in the
    table, and no function is listed twice."""
    check_eq(doc.get("format"), 3, "JSON format")
    functions = doc["functions"]
    keys = [(f["name"], f["file"], f["line"]) for f in functions]
    check_eq(len(set(keys)), len(keys), "each function listed once in the JSON")
    paths = []
    for i, s in enumerate(doc["stacks"]):
        check("path" not in s and "function" not in s, "stack %d: compact (no path, no name)" % i)
        check_eq(s["id"], i, "stack IDs are the indices")
        f = functions[s["function_index"]]
        s["function"], s["file"], s["line"] = f["name"], f["file"], f["line"]
        parent = s["parent"]
        check(-1 <= parent < i, "stack %d: its parent %d comes before it" % (i, parent))
        s["path"] = (paths[parent] if parent >= 0 else []) + [f["name"]]
        paths.append(s["path"])


class Profile:
    """The JSON profile, with lookups by path ("main;work;leaf")."""

    def __init__(self, doc):
        self.doc = doc
        self.by_path = {}
        expand_stacks(doc)
        for s in doc["stacks"]:
            self.by_path[";".join(s["path"])] = s

    def stack(self, path):
        s = self.by_path.get(path)
        check(s is not None, "no stack %r; stacks are:\n  %s" % (path, "\n  ".join(sorted(self.by_path))))
        return s or {"calls": None, "time_incl_s": None, "time_excl_s": None, "threads": []}

    def calls(self, path):
        return self.stack(path)["calls"]

    def has(self, path):
        return path in self.by_path

    def paths(self):
        return set(self.by_path)

    def threads_of(self, path_or_stack):
        """A stack's figures per thread index (stacks[].threads)."""
        s = self.stack(path_or_stack) if isinstance(path_or_stack, str) else path_or_stack
        return thread_figures(self.doc, s)

    def thread_calls(self, path):
        """{thread index: calls} for one stack."""
        return {t["thread"]: t["calls"] for t in self.threads_of(path)}


THREAD_FIELDS = ("calls", "time_incl_s", "time_excl_s", "folded_calls", "counters")


def thread_figures(doc, s):
    """stacks[].threads of a profile, s one of its stacks.  With one thread
    index the JSON leaves the array out, thread 0's figures being the
    stack's own (docs/output.md): checked, and given in the array's form."""
    if doc.get("threads") != 1:
        return s.get("threads", [])
    check("threads" not in s, "one thread index: stack %r has no \"threads\"" % s.get("path"))
    if not (s["calls"] or s.get("folded_calls") or s["time_incl_s"] or s["time_excl_s"]):
        return []
    return [dict([("thread", 0)] + [(k, s[k]) for k in THREAD_FIELDS if k in s])]


def expect_calls(profile, expected):
    """expected: {path: calls}; each must match exactly."""
    for path, calls in expected.items():
        check_eq(profile.calls(path), calls, "calls of " + path)
