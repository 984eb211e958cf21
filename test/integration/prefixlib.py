"""The build tree laid out as an installed one, for tests that compile
through the `hooktrace` command (scripts/hooktrace.in) as a user would:
a temporary prefix whose bin/ holds copies of the built `hooktrace` and
hooktrace-COMPILER scripts, its lib/ has the build's .libs and the link
guard, and its include/ is the source tree's.  The command finds them relative to itself, as in a
moved install (docs/compile.md), so nothing needs `make install`."""
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile

from htlib import BUILDDIR, SRCDIR


def _configured(script):
    values = {}
    with open(script) as f:
        for line in f:
            m = re.match(r"configured_(\w+)='(.*)'$", line.strip())
            if m:
                values[m.group(1)] = m.group(2)
    return values


class Prefix:
    def __init__(self, llvm_plugin=False):
        """llvm_plugin: lib/hooktrace/ also has the build's LLVM plugin, which
        the command then gives to clang 14 (docs/clang.md); without it,
        clang gets -finstrument-functions-after-inlining."""
        script = os.path.join(BUILDDIR, "hooktrace")
        conf = _configured(script)
        self.root = tempfile.mkdtemp(prefix="hooktrace-prefix-")
        atexit.register(shutil.rmtree, self.root, True)

        def place(kind):
            tail = conf[kind][len(conf["prefix"]):] if conf[kind].startswith(conf["prefix"]) else "/" + kind
            path = self.root + tail
            os.makedirs(os.path.dirname(path), exist_ok=True)
            return path

        self.bin = place("bindir")
        os.makedirs(self.bin)
        for name in os.listdir(BUILDDIR):
            if name == "hooktrace" or (name.startswith("hooktrace-") and open_script(os.path.join(BUILDDIR, name))):
                shutil.copy(os.path.join(BUILDDIR, name), self.bin)
        # lib/: the build's libraries, and lib/hooktrace/ the link guard
        # the command adds to the objects it compiles (docs/compile.md).
        libdir = place("libdir")
        os.makedirs(os.path.join(libdir, "hooktrace"))
        libs = os.path.join(BUILDDIR, ".libs")
        for name in os.listdir(libs):
            os.symlink(os.path.join(libs, name), os.path.join(libdir, name))
        for name in ("link_guard.s", "link_guard.h"):
            os.symlink(os.path.join(SRCDIR, "scripts", name), os.path.join(libdir, "hooktrace", name))
        if llvm_plugin and os.path.exists(os.path.join(BUILDDIR, "hooktrace_llvm.so")):
            os.symlink(os.path.join(BUILDDIR, "hooktrace_llvm.so"), os.path.join(libdir, "hooktrace", "hooktrace_llvm.so"))
        os.symlink(os.path.join(SRCDIR, "include"), place("includedir"))
        self.hooktrace = os.path.join(self.bin, "hooktrace")

    def command(self, name):
        """bin/hooktrace-NAME, or None if configure made none."""
        path = os.path.join(self.bin, "hooktrace-" + name)
        return path if os.path.exists(path) else None

    def compile(self, argv, env=None, cwd=None):
        """Runs argv (its first word a compiler, or a hooktrace command of
        bin/) with bin/ first on the PATH; the CompletedProcess."""
        environment = dict(os.environ)
        environment["PATH"] = self.bin + os.pathsep + environment.get("PATH", "")
        environment.update(env or {})
        return subprocess.run(argv, env=environment, cwd=cwd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=300)


def open_script(path):
    """Whether path is a shell script (the hooktrace-COMPILER commands, not
    the programs hooktrace-analyze and hooktrace-report)."""
    try:
        with open(path, "rb") as f:
            return f.read(2) == b"#!"
    except OSError:
        return False


def skip(reason):
    """Ends the test as skipped (automake's status 77), with the reason."""
    print("SKIP: " + reason)
    sys.exit(77)


def sanitized():
    """Whether the library was built with sanitizers: a program that clang
    builds without them cannot load GCC's ASan runtime after its own start."""
    return "-fsanitize" in os.environ.get("HT_CC_CFLAGS", "") + os.environ.get("HT_CC_LDFLAGS", "")
