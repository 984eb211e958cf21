"""What the config does to a run: bad files stop the program before main,
HOOKTRACE_OFF and "off", output directory/basename/selection, sorting and
function filters."""
import os
from htlib import *

BASIC = program("basic")

# A bad config file: one clear message, non-zero status, main never runs.
r = run(BASIC, config='{\n  "outputs": {"json": true},\n  "sort_bye": "calls"\n}\n')
check(r.returncode != 0, "bad config: non-zero exit status (got %d)" % r.returncode)
check("basic: sink" not in r.stdout, "bad config: main did not run")
check("config.json:3" in r.stderr and "sort_bye" in r.stderr and "sort_by" in r.stderr,
      "bad config: message names file, line, key and the valid keys: %r" % r.stderr)
check(not r.exists(".json"), "bad config: no profile")

r = run(BASIC, config='{"max_stack_depth": 10,,}')
check(r.returncode != 0 and "syntax error" in r.stderr and "config.json:1" in r.stderr,
      "syntax error reported with its line: %r" % r.stderr)

r = run(BASIC, env={"HOOKTRACE_CONFIG": "/nonexistent/hooktrace.json"})
check(r.returncode != 0 and "/nonexistent/hooktrace.json" in r.stderr,
      "missing config file named: %r" % r.stderr)

# Off: the program runs unchanged and nothing is written.
reference = run(program("basic_plain"))
for how in ({"env": {"HOOKTRACE_OFF": "1"}}, {"config": {"off": True}}):
    r = run(BASIC, **how)
    check_eq(r.returncode, 0, "off (%s): exit status" % how)
    check_eq(r.stdout, reference.stdout, "off (%s): same output as the uninstrumented program" % how)
    check(not r.exists(".json") and not r.exists(".log") and not r.exists(".folded"),
          "off (%s): no output files" % how)
    check_eq(sorted(os.listdir(r.directory)), ["config.json"] if "config" in how else [],
             "off (%s): nothing else in the directory" % how)
r = run(BASIC)
check_eq(r.stdout, reference.stdout, "profiled: same output as the uninstrumented program")

# Output directory (created with its parents), basename and selection.
r = run(BASIC, config={"output_directory": "out/nested", "output_basename": "mine",
                       "outputs": {"logfile": False, "folded": False}})
files = sorted(os.listdir(os.path.join(r.directory, "out", "nested")))
check_eq(files, ["mine.html", "mine.json"],
         "only the JSON and its HTML report, named by output_basename, in the nested directory")

r = run(BASIC, env={"HOOKTRACE_OUTPUT_DIRECTORY": "elsewhere"})
check(os.path.exists(os.path.join(r.directory, "elsewhere", "basic.json")),
      "HOOKTRACE_OUTPUT_DIRECTORY overrides the directory")

# An unusable output directory: a clear message, the program's exit status
# and output unchanged.
r = run(program("exit_deep"), config={"output_directory": "/etc/passwd/out"})
check_eq(r.returncode, 3, "unwritable directory: exit status unchanged")
check("exit_deep: exiting with 3" in r.stdout, "unwritable directory: program ran to the end")
check("/etc/passwd/out" in r.stderr and "Not a directory" in r.stderr,
      "unwritable directory named in the message: %r" % r.stderr)

# sort_by: the first row of the table is the most-called stack.
r = run(BASIC, config={"sort_by": "calls"})
log = r.text(".log")
def table_rows(log, title):
    """The rows of the table under title, up to the blank line after it."""
    lines = log.split(title)[1].strip().splitlines()[1:]
    return [l.split() for l in lines[:lines.index("")] if l.strip()] if "" in lines else [l.split() for l in lines]

table = table_rows(log, "Runtime profile, all threads (sorted by calls)")
check_eq(table[0][0], "1000", "sorted by calls: first row has 1000 calls")
check_eq([int(row[0]) for row in table], sorted((int(row[0]) for row in table), reverse=True),
         "sorted by calls: descending")
r = run(BASIC, config={"sort_by": "function"})
table = table_rows(r.text(".log"), "Runtime profile, all threads (sorted by function)")
functions = [row[4] for row in table]
check_eq(functions, sorted(functions), "sorted by function name")

# Excluding a function: its callees move to its caller.
r = run(BASIC, config={"exclude_functions": ["^compute$"]})
p = r.profile()
expect_calls(p, {"main;work;leaf": 303, "main;leaf": 1000, "main;work": 3})
check(not any("compute" in path for path in p.paths()), "compute is gone from every path")
main_incl = p.stack("main")["time_incl_s"]
total_excl = sum(s["time_excl_s"] for s in p.doc["stacks"])
check_close(total_excl, main_incl, "excluded time stays with the callers")

# Including only some functions.
r = run(BASIC, config={"include_functions": ["^main$", "^leaf$"]})
p = r.profile()
check_eq(p.paths(), {"main", "main;leaf"}, "only main and leaf kept")
check_eq(p.calls("main;leaf"), 1303, "every leaf call under main")
check("function filter:" in r.text(".log"), "the logfile lists the filters")
finish()
