"""An MPI program compiled by clang behind the MPI wrapper (`OMPI_CC=clang
hooktrace mpicc`, `MPICH_CC=clang hooktrace mpicc.mpich`): the driver asks
the wrapper's real compiler and adds -finstrument-functions-after-
inlining (docs/compile.md).  test/mpi/p2p.c at -O2 on 4 ranks: the exact
messages, bytes and peers of test/mpi/p2p.py, the same stdout as the plain
clang build; start(), which clang inlines into main, has no node, so
MPI_Init is main's child.  Skipped where there is no clang."""
import os
import re
import shutil
import subprocess
import tempfile

from mpilib import *
from models import p2p_calls, p2p_messages
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from prefixlib import Prefix, sanitized, skip  # noqa: E402

require_launcher()
if not shutil.which("clang"):
    skip("no clang on the PATH (Debian: apt-get install clang)")
if sanitized():
    skip("the library is built with sanitizers, whose GCC runtime a program clang builds without them cannot load")
if is_open_mpi():
    wrapper, env = ("mpicc.openmpi" if shutil.which("mpicc.openmpi") else "mpicc"), {"OMPI_CC": "clang"}
else:
    wrapper, env = ("mpicc.mpich" if shutil.which("mpicc.mpich") else "mpicc"), {"MPICH_CC": "clang"}
if not shutil.which(wrapper):
    skip("no MPI compiler wrapper %s" % wrapper)

prefix = Prefix()
work = tempfile.mkdtemp(prefix="hooktrace-clang-mpi-")
SOURCE = os.path.join(os.environ.get("HT_TOP_SRCDIR", BUILDDIR), "test", "mpi", "p2p.c")
N = 4


def build(argv, exe, what):
    path = os.path.join(work, exe)
    proc = prefix.compile(argv + ["-O2", SOURCE, "-o", path], env=env)
    check_eq((proc.returncode, proc.stderr), (0, ""), "%s: builds" % what)
    comment = subprocess.run(["readelf", "-p", ".comment", path], stdout=subprocess.PIPE,
                             universal_newlines=True).stdout
    check("clang version" in comment, "%s: compiled by clang (.comment: %r)" % (what, comment))
    return path


what = "%s hooktrace %s" % (" ".join("%s=%s" % kv for kv in env.items()), wrapper)
exe = build(["hooktrace", wrapper], "p2p", what)
plain = build([wrapper], "p2p_plain", wrapper + " without hooktrace")
symbols = subprocess.run(["nm", exe], stdout=subprocess.PIPE, universal_newlines=True).stdout
check(not re.search(r" t start$", symbols, re.M), "%s: clang inlined start() into main" % what)


def at(function, routine):
    return "main;%s;%s" % (function, routine)


m = p2p_messages(N, at)
report_messages(m, N)

r = mpirun(exe, N)
check_status(r, 0, what)
reference = mpirun(plain, N)
check_status(reference, 0, "plain")
expect_same_stdout(r, reference, what)
p = r.summary()
expect_messages(p, m, N, what)
expect_total_calls(p, p2p_calls(N, at))
expect_total_calls(p, {"main;MPI_Init": N, "main;MPI_Finalize": N})
check(not any("start" in path.split(";") for path in p.paths()), "%s: start() has no node" % what)
check_eq(p.doc["throttle"]["plugin_used"], False, "%s: no GCC plugin" % what)

shutil.rmtree(work, ignore_errors=True)
finish()
