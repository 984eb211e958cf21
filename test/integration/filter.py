#!/usr/bin/env python3
"""Functions excluded by the config cost what a throttled function costs
(docs/config.md, "exclude_functions" and "filter_file"): on
test/programs/filter.cpp, with throttling off, an excluded helper called
3 x 200,000 times leaves no stack, its hook calls reach hooktrace twice in
all (its enter and its exit call, each rewritten into a no-op then), and
every other count is exact; the same from a Score-P filter file, with an
INCLUDE that keeps a function and a MANGLED rule for a C++ member; an
exclude pattern naming an MPI routine is warned about once."""
import os
import subprocess
import tempfile

from htlib import check, check_eq, expect_calls, finish, program, run

EXE = program("filter")
N = 200000
OFF = {"enabled": False}
QUIET = {"progress_after_ms": 3600000}
AREA = "geo::Shape::area(unsigned long)"

plain = subprocess.run([EXE], env=dict(os.environ, HOOKTRACE_OFF="1"), stdout=subprocess.PIPE,
                       universal_newlines=True, timeout=120)
check_eq(plain.returncode, 0, "plain run's exit status")


def check_run(r, what, absent, present, after_throttling, patched):
    check_eq(r.returncode, 0, what + ": exit status")
    check_eq(r.stdout, plain.stdout, what + ": the program's output is unchanged")
    p = r.profile()
    names = {f["name"] for f in p.doc["functions"]}
    for name in absent:
        check(name not in names, "%s: %s absent from the profile" % (what, name))
    expect_calls(p, present)
    th = p.doc["throttle"]
    check_eq(th["enabled"], False, what + ": throttling off")
    check_eq(th["functions"], 0, what + ": nothing throttled by the rule")
    check_eq(th["hook_calls_after_throttling"], after_throttling,
             what + ": hook calls of the excluded functions that reached hooktrace")
    check_eq(th["sites_patched"], patched, what + ": hook calls rewritten")
    check_eq(p.doc["mismatched_exits"], 0, what + ": no exit out of step")
    return p


# 1. Throttling off, nothing excluded: the reference counts.
r = run(EXE, config={"throttle": OFF, "outputs": QUIET})
everything = {"main": 1, "main;sweep": 3, "main;sweep;tiny_helper": 3 * N,
              "main;sweep;" + AREA: 3 * N, "main;sweep;keep_helper": 30}
check_run(r, "nothing excluded", [], everything, 0, 0)

# 2. exclude_functions: tiny_helper's two hook calls (enter, exit) reach a
# hook once each, are rewritten, and its other 599,999 calls cost nothing.
r = run(EXE, config={"exclude_functions": ["^tiny_helper$"], "throttle": OFF, "outputs": QUIET})
kept = {"main": 1, "main;sweep": 3, "main;sweep;" + AREA: 3 * N, "main;sweep;keep_helper": 30}
p = check_run(r, "exclude_functions", ["tiny_helper"], kept, 2, 2)
check_eq(r.stderr, "", "exclude_functions: nothing on stderr")
sweep = p.stack("main;sweep")
check(sweep["time_excl_s"] > 0, "exclude_functions: sweep has its own time (tiny_helper's)")

# 3. The same with patch_code false: every call declined by the check.
r = run(EXE, config={"exclude_functions": ["^tiny_helper$"],
                     "throttle": {"enabled": False, "patch_code": False}, "outputs": QUIET})
check_run(r, "patch_code false", ["tiny_helper"], kept, 2 * 3 * N, 0)

# 4. A Score-P filter file, relative to the config's folder: EXCLUDE
# *helper*, INCLUDE keep_helper again, a C++ member by its mangled name.
filter_text = """# the helpers go, but keep_helper stays
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE *helper*
  INCLUDE keep_helper
  EXCLUDE MANGLED _ZN3geo5Shape4area*   # geo::Shape::area
SCOREP_REGION_NAMES_END
"""
d = tempfile.mkdtemp(prefix="hooktrace-filter-")
with open(os.path.join(d, "f.filter"), "w") as f:
    f.write(filter_text)
with open(os.path.join(d, "config.json"), "w") as f:
    f.write('{"filter_file": "f.filter", "throttle": {"enabled": false},'
            ' "outputs": {"progress_after_ms": 3600000}}')
r = run(EXE, env={"HOOKTRACE_CONFIG": os.path.join(d, "config.json")})
check_run(r, "filter file", ["tiny_helper", AREA],
          {"main": 1, "main;sweep": 3, "main;sweep;keep_helper": 30}, 4, 4)

# 5. A filter file's error names the file and line; the program does not
# start, as for any config error.
with open(os.path.join(d, "f.filter"), "w") as f:
    f.write("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE\nSCOREP_REGION_NAMES_END\n")
r = run(EXE, env={"HOOKTRACE_CONFIG": os.path.join(d, "config.json")})
check_eq(r.returncode, 1, "bad filter file: the program does not start")
check("%s/f.filter:2: EXCLUDE with no pattern after it" % d in r.stderr,
      "bad filter file: the message names the file and line: %r" % r.stderr)
check_eq(r.stdout, "", "bad filter file: the program did not run")
for name in os.listdir(d):
    os.unlink(os.path.join(d, name))
os.rmdir(d)

# 6. A pattern matching an MPI routine: one warning, the run unchanged.
r = run(EXE, config={"exclude_functions": ["^tiny_helper$", "^MPI_Wtime$", "^MPI_"],
                     "throttle": OFF, "outputs": QUIET})
check_run(r, "MPI pattern", ["tiny_helper"], kept, 2, 2)
check_eq(r.stderr.count("hooktrace: \"exclude_functions\" matches the MPI routine "), 1,
         "MPI pattern: warned once: %r" % r.stderr)
finish()
