"""A build without OTF2 (configure --without-otf2, docs/install.md): a
config asking for trace mode gets one line on stderr and no trace, and the
run is otherwise the one without trace mode: the same exit status and
stdout, the same profile (every stack's calls), no trace folder made.
hooktrace-check-config accepts the file and says a run writes no trace, and
no hooktrace-analyze is built.  Skipped in a build with OTF2, whose trace
mode test/trace checks."""
import os
import subprocess
import sys

from htlib import *

if HAVE_OTF2:
    print("SKIP: this build has OTF2 (the test is for configure --without-otf2)")
    sys.exit(77)

REFUSAL = ("hooktrace: trace mode needs OTF2, and this hooktrace was built without it "
           "(configure --without-otf2); no trace will be written (the profile still is)\n")

check(not os.path.exists(os.path.join(BUILDDIR, "hooktrace-analyze")), "no hooktrace-analyze built")

exe = program("basic")
plain = run(exe)
traced = run(exe, config={"trace": {"enabled": True}})
check_eq(traced.returncode, plain.returncode, "exit status as without trace mode")
check_eq(traced.stdout, plain.stdout, "stdout as without trace mode")
check_eq(plain.stderr, "", "without trace mode: nothing on stderr")
check_eq(traced.stderr, REFUSAL, "trace mode asked for: one line on stderr")
check_eq([e for e in os.listdir(traced.directory) if os.path.isdir(os.path.join(traced.directory, e))],
         [], "no folder made (no basic_trace)")
# hooktrace-check-config: the file is valid (exit 0), with a word on stderr.
config = os.path.join(traced.directory, "config.json")
proc = subprocess.run([os.path.join(BUILDDIR, "hooktrace-check-config"), config],
                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
check_eq((proc.returncode, proc.stdout), (0, config + ": ok\n"), "hooktrace-check-config: valid")
check_eq(proc.stderr, "hooktrace-check-config: %s: trace.enabled: this hooktrace was built without "
         "OTF2 (configure --without-otf2); a run writes no trace\n" % config,
         "hooktrace-check-config: says the build writes no trace")

pp, tp = plain.profile(), traced.profile()
check_eq({path: tp.calls(path) for path in tp.paths()}, {path: pp.calls(path) for path in pp.paths()},
         "every stack's calls as without trace mode")
check_eq(tp.calls("main;compute;leaf"), 1000, "main;compute;leaf: 1000 calls")
finish()
