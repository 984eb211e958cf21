"""The program's own signal handling is untouched (docs/what_happens.md):
signal-handling idioms (test/programs/signals_idioms.c) run plain and
instrumented give the same exit status and the same standard output, byte
for byte; where the program dies of a signal hooktrace would have written a
partial profile, it has exactly the calls made (a daemon that closes every
descriptor and opens its own files too: they keep their bytes, hooktrace
holds no descriptor to write its wake-up into); a signal for a child never
touches the parent's profile; and a signal handler that interrupts a hook
leaves the tree alone (its hooks decline, and the profile counts them)."""
import json
import os
import shutil
import signal
import subprocess
import tempfile

from htlib import *

EXE = program("signals_idioms")
PLAIN = program("signals_idioms_plain")
NAME = "signals_idioms"
N = 3


def default_signals():
    """SIGTERM, SIGINT and SIGHUP at their default action, as from a login
    shell, whatever the harness ignores."""
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1):
        signal.signal(sig, signal.SIG_DFL)


def run_mode(exe, mode, env=None):
    d = tempfile.mkdtemp(prefix="hooktrace-test-")
    e = dict(os.environ)
    for key in ("HOOKTRACE_CONFIG", "HOOKTRACE_OFF", "HOOKTRACE_OUTPUT_DIRECTORY"):
        e.pop(key, None)
    e.update(env or {})
    proc = subprocess.run([exe, mode, str(N)], cwd=d, env=e, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True,
                          preexec_fn=default_signals, timeout=120)
    return d, proc


def profile(d):
    path = os.path.join(d, NAME + ".json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return Profile(json.load(f))


# mode -> (exit status, the profile: None for none expected, else "partial"
# signal name or "complete", and the exact calls of work())
MODES = {
    "ignore_siginfo": (0, "complete", N),
    "query_set_default": (-signal.SIGTERM, "SIGTERM", N),
    "same_pointer": (0, "complete", N),
    "resethand": (-signal.SIGTERM, "SIGTERM", N),
    "resethand_threads": (-signal.SIGTERM, "SIGTERM", N),
    "nodefer": (0, "complete", N),
    "defer": (0, "complete", N),
    "restart": (0, "complete", N),
    "norestart": (0, "complete", N),
    "restart_signal": (0, "complete", N),
    "siginterrupt": (0, "complete", N),
    "chain": (0, "complete", N),
    "chain_default": (-signal.SIGINT, "SIGINT", N),
    "fork_kill": (0, "complete", 2 * N),
    "vfork_kill": (0, "complete", 2 * N),
    "thread_handler": (0, "complete", N),
    "thread_default": (-signal.SIGTERM, "SIGTERM", N),
    "old_apis": (0, "complete", N),
    "sysv_twice": (-signal.SIGINT, "SIGINT", N),
    "daemon_files": (-signal.SIGTERM, "SIGTERM", N),
}


def files_of(d):
    """The program's own files in its directory, and their bytes."""
    found = {}
    for name in ("data.txt", "log.txt"):
        path = os.path.join(d, name)
        if os.path.exists(path):
            with open(path, "rb") as f:
                found[name] = f.read()
    return found

for mode, (status, kind, work_calls) in sorted(MODES.items()):
    pd, plain = run_mode(PLAIN, mode)
    hd, inst = run_mode(EXE, mode)
    check_eq(plain.returncode, status, "%s: plain exit status" % mode)
    if (inst.returncode, inst.stdout) != (plain.returncode, plain.stdout):
        # A library that only the instrumented program loads (UCX under
        # MPICH catches SIGHUP) can change the behaviour without hooktrace.
        od, off = run_mode(EXE, mode, {"HOOKTRACE_OFF": "1"})
        shutil.rmtree(od, ignore_errors=True)
        if (off.returncode, off.stdout) == (inst.returncode, inst.stdout):
            print("NOTE: %s: the instrumented program behaves the same with HOOKTRACE_OFF=1 "
                  "(a library it loads handles the signal); not compared" % mode)
            continue
    check_eq(inst.returncode, plain.returncode, "%s: exit status, instrumented vs plain" % mode)
    check_eq(inst.stdout, plain.stdout, "%s: standard output, instrumented vs plain" % mode)
    check_eq(files_of(hd), files_of(pd), "%s: the program's own files, byte for byte" % mode)
    p = profile(hd)
    if check(p is not None, "%s: a profile was written (stderr %r)" % (mode, inst.stderr)):
        if kind == "complete":
            check_eq(p.doc.get("partial"), None, "%s: a complete profile, written at exit" % mode)
        else:
            check_eq(p.doc.get("partial"), {"reason": "signal", "signal": kind},
                     "%s: a partial profile, marked with the signal" % mode)
        check_eq(p.calls("main;work"), work_calls, "%s: calls of work()" % mode)
        check_eq(p.doc["mismatched_exits"], 0, "%s: no exit out of step" % mode)
        check_eq(p.doc.get("nested_hooks_declined"), 0, "%s: no hook declined" % mode)
    shutil.rmtree(pd, ignore_errors=True)
    shutil.rmtree(hd, ignore_errors=True)

# The exact figures of the parent after its children were killed: four
# forks, each child killed at once, and the parent records on.
pd, plain = run_mode(PLAIN, "fork_kill")
hd, inst = run_mode(EXE, "fork_kill")
p = profile(hd)
check_eq(plain.stdout, "child: signal 15\n" * 4, "fork_kill: plain output")
if check(p is not None, "fork_kill: the parent's profile"):
    expect_calls(p, {"main": 1, "main;work": 2 * N, "main;wait_child": 4})
    check_eq(sorted(p.paths()), ["main", "main;wait_child", "main;work"], "fork_kill: the parent's stacks")
pd, plain = run_mode(PLAIN, "vfork_kill")
hd, inst = run_mode(EXE, "vfork_kill")
p = profile(hd)
if check(p is not None, "vfork_kill: the parent's profile"):
    expect_calls(p, {"main": 1, "main;work": 2 * N, "main;wait_child": 1, "main;show": 1})

# A handler that interrupts a hook in the middle of its work: gdb stops the
# program in the tree's slow path, inside the entry hook of fresh(), and
# delivers SIGUSR1 there.  The handler's hooks (on_usr1 and in_handler,
# entry and exit each) decline; fresh() and the later in_handler() call
# are recorded as usual.
gdb = shutil.which("gdb")
if gdb is None:
    print("SKIP: a handler interrupting a hook: gdb is not installed")
else:
    d = tempfile.mkdtemp(prefix="hooktrace-test-")
    env = dict(os.environ)
    for key in ("HOOKTRACE_CONFIG", "HOOKTRACE_OFF", "HOOKTRACE_OUTPUT_DIRECTORY"):
        env.pop(key, None)
    proc = subprocess.run([gdb, "-q", "-batch", "-nx",
                           "-ex", "set breakpoint pending on",
                           "-ex", "break ht_tree_enter_slow if function == (unsigned long)&fresh",
                           "-ex", "run", "-ex", "signal SIGUSR1", "-ex", "continue",
                           "--args", EXE, "nested", str(N)],
                          cwd=d, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, preexec_fn=default_signals, timeout=300)
    check("handler runs: 1\n" in proc.stdout, "nested: the handler ran once under gdb: %r"
          % proc.stdout[-2000:])
    check(proc.stdout.count("hit Breakpoint 1") >= 1, "nested: gdb stopped in the hook")
    p = profile(d)
    if check(p is not None, "nested: a profile"):
        check_eq(p.doc.get("nested_hooks_declined"), 4,
                 "nested: the handler's 4 hook calls declined and counted")
        expect_calls(p, {"main": 1, "main;work": N, "main;fresh": 1, "main;in_handler": 1,
                         "main;set": 1})
        check_eq(sorted(p.paths()), ["main", "main;fresh", "main;in_handler", "main;set", "main;work"],
                 "nested: nothing of the handler's recorded")
        check_eq(p.doc["mismatched_exits"], 0, "nested: no exit out of step")
        with open(os.path.join(d, NAME + ".log")) as f:
            check("4 hook calls of signal handlers that interrupted a hook were not recorded"
                  in f.read(), "nested: the logfile says so")
    shutil.rmtree(d, ignore_errors=True)
finish()
