"""The "mpi_t" section of the config file: a complete valid section, and the
exact message for each kind of mistake (checked with
hooktrace-check-config, which runs the runtime's own loader), plus one
instrumented program that refuses to start with a bad mpi_t value.  No MPI
launch: this runs without an MPI launcher."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
import htlib  # noqa: E402
from htlib import BUILDDIR, check, check_eq, finish  # noqa: E402

CHECKER = os.path.join(BUILDDIR, "hooktrace-check-config")
KEYS = "enabled, cvars, cvars_in_json, pvars, pvar_classes, pvar_change, pvar_elements, read_interval_us"
CLASSES = ('"state", "level", "size", "percentage", "highwatermark", "lowwatermark", "counter",'
           ' "aggregate", "timer", "generic"')
directory = tempfile.mkdtemp(prefix="hooktrace-mpit-config-")


def write(name, text):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def checker(name, text):
    path = write(name, text)
    p = subprocess.run([CHECKER, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=60)
    return p.returncode, p.stdout.strip(), p.stderr.strip(), path


code, out, err, path = checker("full.json", """{
  "mpi_t": {
    "enabled": true,
    "cvars": ["^btl$", "EAGER"],
    "cvars_in_json": true,
    "pvars": ["unexpected", "^osc_monitoring_"],
    "pvar_classes": ["counter", "highwatermark"],
    "pvar_change": ["_monitoring_"],
    "pvar_elements": "each",
    "read_interval_us": 0
  }
}
""")
check_eq((code, out, err), (0, path + ": ok", ""), "every mpi_t key with a valid value")
code, out, err, path = checker("empty.json", '{"mpi_t": {}}')
check_eq((code, out), (0, path + ": ok"), "an empty mpi_t section")

MISTAKES = [
    ("enabled.json", '{"mpi_t": {"enabled": "yes"}}',
     ':1: "mpi_t.enabled" must be true or false, not a string'),
    ("cvars.json", '{"mpi_t": {"cvars": "btl"}}',
     ':1: "mpi_t.cvars" must be an array of strings (regular expressions), not a string'
     ' (for one pattern write ["btl"])'),
    ("in_json.json", '{"mpi_t": {"cvars_in_json": 1}}',
     ':1: "mpi_t.cvars_in_json" must be true or false, not an integer'),
    ("regex.json", '{"mpi_t": {\n  "pvars": ["ok", "a("]}}',
     ':2: "mpi_t.pvars"[1]: invalid regular expression "a(": '),
    ("class.json", '{"mpi_t": {"pvar_classes": ["counter",\n "timers"]}}',
     ':2: "mpi_t.pvar_classes"[1] must be one of %s, not "timers" (did you mean "timer"?)'
     % CLASSES),
    ("class_string.json", '{"mpi_t": {"pvar_classes": "counter"}}',
     ':1: "mpi_t.pvar_classes" must be an array of names (%s), not a string (for one name'
     ' write ["counter"])' % CLASSES),
    ("class_type.json", '{"mpi_t": {"pvar_classes": [6]}}',
     ':1: "mpi_t.pvar_classes"[0] must be one of %s, not an integer' % CLASSES),
    ("elements.json", '{"mpi_t": {"pvar_elements": "every"}}',
     ':1: "mpi_t.pvar_elements" must be one of "total", "each", not "every"'),
    ("interval.json", '{"mpi_t": {"read_interval_us": 20000000}}',
     ':1: "mpi_t.read_interval_us" must be an integer from 0 to 10000000, not 20000000'),
    ("interval_string.json", '{"mpi_t": {"read_interval_us": "100"}}',
     ':1: "mpi_t.read_interval_us" must be an integer >= 0, not a string (write 100 without'
     ' quotes)'),
    ("unknown.json", '{"mpi_t": {"cvar": []}}',
     ':1: unknown key "cvar" in "mpi_t"; valid keys are: %s (did you mean "cvars"?)' % KEYS),
    ("level.json", '{"pvar_change": []}',
     ':1: unknown key "pvar_change" in the top level; valid keys are: '),
    ("section.json", '{"mpi_t": true}',
     ':1: "mpi_t" must be an object with the keys %s, not a boolean' % KEYS),
]
for name, text, message in MISTAKES:
    code, out, err, path = checker(name, text)
    check_eq(code, 1, name + ": exit status")
    check(err.startswith("hooktrace-check-config: " + path + message),
          "%s: message\n  got:      %s\n  expected: %s%s..." % (name, err, path, message))
code, out, err, path = checker("level.json", '{"pvar_change": []}')
check(err.endswith('("pvar_change" belongs in "mpi_t")'), "a key at the wrong level: where it"
      " belongs: " + err)

# The runtime loads the same way: a bad value stops the program before main.
exe = htlib.program("basic")
if check(os.path.exists(exe), "test/programs/basic is built"):
    r = htlib.run(exe, config='{"mpi_t": {"pvar_elements": "every"}}')
    check_eq(r.returncode, 1, "a bad mpi_t value: the program exits with status 1")
    check('"mpi_t.pvar_elements" must be one of "total", "each", not "every"' in r.stderr,
          "a bad mpi_t value: the message on stderr: " + r.stderr)
    check_eq(r.stdout, "", "a bad mpi_t value: main never runs (it prints a line)")
    shutil.rmtree(r.directory, ignore_errors=True)

shutil.rmtree(directory, ignore_errors=True)
finish()
