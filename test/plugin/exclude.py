#!/usr/bin/env python3
"""Exact exclusions for throttled functions (docs/throttle.md, docs/plugin.md)
on test/plugin/throttle_names.cpp, whose throttled functions have names
GCC's -finstrument-functions-exclude-function-list cannot give: a template
argument list with a comma (ns::Pair<int, double>::first() const,
end<int, long>), and parts of other functions' names (end in append,
ns::get_id in ns::get_ids).

1. Built with the plugin (max-statements=0 and inlined-hooks=keep: every hook kept), a run with
   min_calls 1000 throttles exactly the three hot functions and writes
   their symbol names, and nothing else, into <profile>.exclude; the log
   suggests -fplugin-arg-hooktrace_gcc-exclude-file=<that file> and not the
   plugin itself, the JSON names the file and the symbols.
2. Built without the plugin, the same names, and the log suggests the plugin
   (the `hooktrace` prefix or pkg-config's instrument_flags) with the file.
3. Built with the plugin and test/plugin/throttle_names.exclude (the names
   of 1.), the three functions reach no hook and are named as
   uninstrumented; every other function keeps its exact count, nothing is
   throttled and no .exclude file is written.
4. A missing file, a directory, a display name in the file and a missing
   value stop the compiler with a message naming them.
5. Built by clang++ at test time (where there is one): the same file, and
   the log says clang cannot load the plugin and suggests no list."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from htlib import BUILDDIR, SRCDIR, check, check_eq, finish, run  # noqa: E402

# A 1 ms threshold: the three hot functions take a few ns a call, and a
# stall under load (CI once saw one average above the default threshold
# over its first 1,000 calls) must not keep one whole; nothing else of
# the program reaches 1,000 calls.
CONFIG = {"throttle": {"min_calls": 1000, "max_ns_per_call": 1000000},
          "outputs": {"progress_after_ms": 3600000}}
N, COLD = 5000, 10
HOT = "main;hot(int)"
COLD_PATH = "main;cold(int)"
THROTTLED = {  # display name: symbol
    "ns::Pair<int, double>::first() const": "_ZNK2ns4PairIidE5firstEv",
    "ns::get_id(int)": "_ZN2ns6get_idEi",
    "int end<int, long>(int, long)": "_Z3endIilET_S0_T0_",
}
SYMBOLS = sorted(THROTTLED.values())
KEPT = {"main": 1, HOT: 1, COLD_PATH: 1,
        COLD_PATH + ";ns::get_ids(int)": COLD, COLD_PATH + ";append(int)": COLD}
OPTION = "-fplugin-arg-hooktrace_gcc-exclude-file="


def program(name):
    return os.path.join(BUILDDIR, "test", "plugin", name)


def names_in(path):
    with open(path) as f:
        return [l.split("#")[0].strip() for l in f if l.split("#")[0].strip()]


def throttled_run(name):
    return throttled_run_of(program(name), name)


def throttled_run_of(exe, name):
    r = run(exe, config=CONFIG)
    check_eq(r.returncode, 0, name + ": exit status")
    check_eq(r.stdout, "25025200\n", name + ": the program's output")
    p = r.profile()
    for path, calls in KEPT.items():
        check_eq(p.calls(path), calls, "%s: calls of %s" % (name, path))
    for function in THROTTLED:
        check_eq(p.calls(HOT + ";" + function), 1001, "%s: %s recorded up to its throttling" % (name, function))
        check_eq(p.stack(HOT + ";" + function).get("throttled"), True, "%s: %s throttled" % (name, function))
    th = p.doc["throttle"]
    check_eq(th["functions"], 3, name + ": functions throttled")
    exclude = r.path(".exclude")
    check(r.exists(".exclude"), name + ": the .exclude file is written beside the profile")
    if r.exists(".exclude"):
        check_eq(names_in(exclude), SYMBOLS, name + ": the .exclude file lists exactly the throttled symbols")
    check_eq(th["exclude_symbols"], SYMBOLS, name + ": JSON throttle.exclude_symbols")
    check_eq(th["exclude_file"], os.path.realpath(exclude), name + ": JSON throttle.exclude_file")
    log = r.text(".log")
    if name != "names_clang":
        check(OPTION + os.path.realpath(exclude) + "\n" in log,
              name + ": the log names the option and the file:\n" + log)
    check("-finstrument-functions-exclude-function-list=" not in log,
          name + ": the log suggests no GCC substring list")
    return r, p, th, log


# 1. With the plugin.
r, p, th, log = throttled_run("names_plugin")
check_eq(th["plugin_used"], True, "names_plugin: JSON throttle.plugin_used")
check("recompile with\n" in log and "instrument_flags" not in log and "`hooktrace`" not in log,
      "names_plugin: the plugin was used, so the log does not suggest it:\n" + log)

# 2. Without it.
r, p, th, log = throttled_run("names_plain")
check_eq(th["plugin_used"], False, "names_plain: JSON throttle.plugin_used")
check("compile with GCC and hooktrace's plugin\n" in log and
      "(the `hooktrace` compiler prefix, or `pkg-config --variable=instrument_flags hooktrace`)" in log,
      "names_plain: the log suggests the plugin:\n" + log)

# 3. Rebuilt with the file of 1.
check_eq(names_in(os.path.join(SRCDIR, "test", "plugin", "throttle_names.exclude")), SYMBOLS,
         "the file names_excluded is built with holds the names of 1.")
r = run(program("names_excluded"), config=CONFIG)
check_eq(r.returncode, 0, "names_excluded: exit status")
check_eq(r.stdout, "25025200\n", "names_excluded: the program's output")
p = r.profile()
check_eq({path: p.calls(path) for path in p.paths()}, KEPT,
         "names_excluded: every stack and its calls (the three functions reach no hook)")
check_eq(p.doc["throttle"]["functions"], 0, "names_excluded: nothing throttled")
check_eq(p.doc["uninstrumented"], {"functions": 3, "names": sorted(THROTTLED),
                                   "inlined": {"functions": 0, "sites": 0, "names": []}},
         "names_excluded: exactly the three named as uninstrumented")
check(not r.exists(".exclude"), "names_excluded: no .exclude file")
check(OPTION not in r.text(".log"), "names_excluded: no advice")

# 4. Bad exclude files.
plugin = os.path.join(BUILDDIR, "hooktrace_gcc.so")
work = tempfile.mkdtemp(prefix="hooktrace-exclude-")
source = os.path.join(work, "f.c")
with open(source, "w") as f:
    f.write("int f(void) { return 1; }\n")
display = os.path.join(work, "display.exclude")
with open(display, "w") as f:
    f.write("# fine\n_Z1fv\nns::get_id(int)\n")
missing = os.path.join(work, "missing.exclude")
cxx = os.environ.get("HT_CXX", "g++").split()
for arg, message in (
        ("exclude-file=" + missing, "cannot read exclude-file '%s': No such file or directory" % missing),
        ("exclude-file=" + work, "cannot read exclude-file '%s': Is a directory" % work),
        ("exclude-file=" + display, "exclude-file '%s', line 3: 'ns::get_id(int)' is not an assembler name" % display),
        ("exclude-file", "exclude-file takes a file name (exclude-file=PATH)")):
    proc = subprocess.run(cxx + ["-x", "c", "-finstrument-functions", "-fplugin=" + plugin,
                                 "-fplugin-arg-hooktrace_gcc-" + arg, "-c", source, "-o", os.devnull],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    check(proc.returncode != 0, "-fplugin-arg-hooktrace_gcc-%s: the compiler fails" % arg)
    check("hooktrace plugin: " + message in proc.stderr.replace("\u2018", "'").replace("\u2019", "'"),
          "-fplugin-arg-hooktrace_gcc-%s: the message names it: %r" % (arg, proc.stderr))

# 5. Built by clang (where there is one, and the library has no sanitizer,
# whose runtime clang's would clash with): no exact exclusion, no GCC list.
clang = shutil.which("clang++")
cflags = os.environ.get("HT_CC_CFLAGS", "")
if clang and "-fsanitize" not in cflags and "-finstrument-functions" not in cflags:
    libdir = os.path.join(BUILDDIR, ".libs")
    exe = os.path.join(work, "names_clang")
    proc = subprocess.run([clang, "-O2", "-g", "-finstrument-functions",
                           os.path.join(SRCDIR, "test", "plugin", "throttle_names.cpp"),
                           "-L" + libdir, "-lhooktrace", "-Wl,-rpath," + libdir, "-o", exe],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    check_eq((proc.returncode, proc.stdout), (0, ""), "clang++ builds the program")
    if proc.returncode == 0:
        r, p, th, log = throttled_run_of(exe, "names_clang")
        check_eq(th["plugin_used"], False, "names_clang: JSON throttle.plugin_used")
        check("built with clang, which cannot load hooktrace's GCC plugin,\n" in log and
              "no exact exclusion can be given" in log and OPTION not in log and
              "-finstrument-functions-after-inlining" in log,
              "names_clang: the log says why no exclusion is given:\n" + log)
        os.remove(exe)
else:
    print("SKIP 5: no clang++, or a library built with sanitizers or instrumented")
for name in (source, display):
    os.remove(name)
os.rmdir(work)
finish()
