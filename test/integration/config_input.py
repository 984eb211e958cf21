"""A config file that is not a file, or far too big: HOOKTRACE_CONFIG set
to /dev/zero, a FIFO nobody writes to, a directory or a file over the
limit (16 MiB, docs/configure.md).  Each stops the program before main with
one exact message and exit status 1, at once: before, /dev/zero was read
until memory ran out and a FIFO blocked the program for ever (the test's
timeout turns such a hang into a failure, not a stuck suite)."""
import os
import subprocess
import tempfile

from htlib import check, check_eq, finish, program

BASIC = program("basic")
LIMIT = 16 << 20
scratch = tempfile.mkdtemp(prefix="hooktrace-config-input-")

fifo = os.path.join(scratch, "fifo.json")
os.mkfifo(fifo)
big = os.path.join(scratch, "big.json")
with open(big, "wb") as f:
    f.truncate(LIMIT + 1)  # sparse: the size alone is refused
directory = os.path.join(scratch, "dir.json")
os.mkdir(directory)

NOT_STARTED = ("hooktrace: not starting the program; fix the configuration "
               "(hooktrace-check-config FILE) or set HOOKTRACE_OFF=1\n")
cases = [
    ("/dev/zero", "it is a character device, not a regular file"),
    (fifo, "it is a FIFO (named pipe), not a regular file"),
    (directory, "it is a directory, not a regular file"),
    (big, "it has %d bytes; a config file may have at most %d bytes (16 MiB)" % (LIMIT + 1, LIMIT)),
]
for path, why in cases:
    env = dict(os.environ)
    for key in ("HOOKTRACE_OFF", "HOOKTRACE_OUTPUT_DIRECTORY"):
        env.pop(key, None)
    env["HOOKTRACE_CONFIG"] = path
    try:
        proc = subprocess.run([BASIC], cwd=scratch, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=30)
    except subprocess.TimeoutExpired:
        check(False, "%s: the program hung" % path)
        continue
    check_eq(proc.returncode, 1, "%s: exit status" % path)
    check_eq(proc.stdout, "", "%s: main did not run" % path)
    check_eq(proc.stderr, "hooktrace: %s: cannot read the config file named by "
             "HOOKTRACE_CONFIG: %s\n%s" % (path, why, NOT_STARTED), "%s: message" % path)
check_eq(sorted(os.listdir(scratch)), ["big.json", "dir.json", "fifo.json"],
         "no profile written")

os.unlink(fifo)
os.unlink(big)
os.rmdir(directory)
os.rmdir(scratch)
finish()
