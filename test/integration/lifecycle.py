"""How a run ends (docs/what_happens.md): killed by SIGTERM, SIGINT or SIGHUP
(a partial profile, exit status the signal's), the program's own handler,
an ignored signal, a writer that cannot finish in time, fork() without
exec, three concurrent runs in one folder, and write errors (a file size
limit, a full filesystem)."""
import glob
import json
import os
import re
import resource
import signal
import subprocess
import tempfile
import time

from htlib import *

EXE = program("lifecycle")
NAME = "lifecycle"


def environment(directory, config=None):
    env = dict(os.environ)
    for key in ("HOOKTRACE_CONFIG", "HOOKTRACE_OFF", "HOOKTRACE_OUTPUT_DIRECTORY"):
        env.pop(key, None)
    if config is not None:
        path = os.path.join(directory, "config.json")
        with open(path, "w") as f:
            json.dump(config, f)
        env["HOOKTRACE_CONFIG"] = path
    return env


def wait_for(path, proc=None):
    """Until the program made its marker file (it then sits in pause())."""
    for _ in range(6000):
        if os.path.exists(path):
            return True
        if proc is not None and proc.poll() is not None:
            return False
        time.sleep(0.01)
    return False


def default_signals():
    """The child starts with the three signals at their default action, as
    from a login shell, whatever the test harness ignores."""
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def start(args, directory, config=None, preexec=default_signals, env=None):
    environment_ = environment(directory, config)
    environment_.update(env or {})
    return subprocess.Popen([EXE] + args, cwd=directory, env=environment_,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, preexec_fn=preexec)


def load(directory, name=NAME):
    with open(os.path.join(directory, name + ".json")) as f:
        return Profile(json.load(f))


def leftovers(directory):
    return sorted(f for f in os.listdir(directory) if ".tmp-" in f)


def caught_without_hooktrace(sig):
    """Whether the program catches sig with profiling off: a library it
    loads owns it (UCX, under MPICH, catches SIGHUP: UCX_DEBUG_SIGNO)."""
    d = tempfile.mkdtemp(prefix="hooktrace-test-")
    proc = start(["wait", "1"], d, env={"HOOKTRACE_OFF": "1"})
    caught = None
    if wait_for(os.path.join(d, "ready"), proc):
        with open("/proc/%d/status" % proc.pid) as f:
            mask = [int(line.split()[1], 16) for line in f if line.startswith("SigCgt:")][0]
        caught = bool(mask & (1 << (sig - 1)))
    proc.kill()
    proc.communicate()
    return caught


# --- signals: a partial profile, then death by the same signal ---------------
OWNED = {}
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    OWNED[sig] = caught_without_hooktrace(sig)
    check(OWNED[sig] is not None, "the program ran with HOOKTRACE_OFF")
    if OWNED[sig]:
        print("NOTE: %s is caught by a library the program loads: hooktrace leaves it alone"
              % sig.name)
for sig, name, n in ((signal.SIGTERM, "SIGTERM", 5), (signal.SIGINT, "SIGINT", 6),
                     (signal.SIGHUP, "SIGHUP", 7)):
    if OWNED[sig]:
        # Its owner's handler runs (UCX's prints nothing and returns): the
        # program lives on; SIGTERM then ends it.
        d = tempfile.mkdtemp(prefix="hooktrace-test-")
        proc = start(["wait", str(n)], d)
        check(wait_for(os.path.join(d, "ready"), proc), name + ": the program got ready")
        proc.send_signal(sig)
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=120)
        check_eq(proc.returncode, -signal.SIGTERM, name + " owned by a library: SIGTERM ended it")
        check_eq(load(d).doc.get("partial"), {"reason": "signal", "signal": "SIGTERM"},
                 name + " owned by a library: left alone")
        continue
    d = tempfile.mkdtemp(prefix="hooktrace-test-")
    proc = start(["wait", str(n)], d)
    check(wait_for(os.path.join(d, "ready"), proc), name + ": the program got ready")
    proc.send_signal(sig)
    proc.communicate(timeout=120)
    check_eq(proc.returncode, -sig, name + ": the process died of the signal")
    p = load(d)
    check_eq(p.doc.get("partial"), {"reason": "signal", "signal": name}, name + ": marked partial")
    expect_calls(p, {"main": 1, "main;work": n, "main;wait_here": 1})
    check_eq(len(p.paths()), 3, name + ": stacks %s" % sorted(p.paths()))
    with open(os.path.join(d, NAME + ".log")) as f:
        log = f.read()
    check(log.startswith("hooktrace ") and "profile (PARTIAL)" in log.splitlines()[0],
          name + ": the logfile's first line says partial")
    check("partial:         signal %s" % name in log, name + ": the logfile header says why")
    check_eq(leftovers(d), [], name + ": no temporary file left")

# Through a shell, as a batch script sees it: $? is 128 + 15.  (The inner
# shell runs the program in the foreground and execs it: a background job
# of a non-interactive shell would ignore SIGINT.)
d = tempfile.mkdtemp(prefix="hooktrace-test-")
script = 'sh -c \'echo $$ > pid; exec "$0" wait 3\' "$0"; echo "status=$?"'
proc = subprocess.Popen(["sh", "-c", script, EXE], cwd=d, env=environment(d),
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                        preexec_fn=default_signals)
check(wait_for(os.path.join(d, "ready"), proc), "shell: the program got ready")
with open(os.path.join(d, "pid")) as f:
    os.kill(int(f.read()), signal.SIGTERM)
out, err = proc.communicate(timeout=120)
check_eq(out.strip(), "status=143", "shell: the script sees the signal's status")
expect_calls(load(d), {"main;work": 3})

# --- the program's own handler decides ---------------------------------------
d = tempfile.mkdtemp(prefix="hooktrace-test-")
proc = start(["own", "4"], d)
check(wait_for(os.path.join(d, "ready"), proc), "own handler: the program got ready")
proc.send_signal(signal.SIGTERM)
out, err = proc.communicate(timeout=120)
check_eq(proc.returncode, 0, "own handler: the program chose to go on and return 0")
check_eq(out, "own handler ran\n", "own handler: the program's handler ran")
p = load(d)
check_eq(p.doc.get("partial"), None, "own handler: a complete profile, written at exit")
expect_calls(p, {"main": 1, "main;work": 4, "main;wait_here": 1})

# A handler that cleans up and re-raises the signal with SIG_DFL (hooktrace
# holds the kernel's handler and runs the program's): the program sees its
# own actions when it asks, its handler runs, and it dies of the signal
# with a partial profile.
d = tempfile.mkdtemp(prefix="hooktrace-test-")
proc = start(["cleanup", "6"], d)
check(wait_for(os.path.join(d, "ready"), proc), "cleanup handler: the program got ready")
proc.send_signal(signal.SIGTERM)
out, err = proc.communicate(timeout=120)
check_eq(out, "before: SIG_DFL\nafter: cleanup_handler\ncleanup handler ran\n",
         "cleanup handler: the program's view of SIGTERM's action, and its handler ran")
check_eq(proc.returncode, -signal.SIGTERM, "cleanup handler: the process died of SIGTERM")
p = load(d)
check_eq(p.doc.get("partial"), {"reason": "signal", "signal": "SIGTERM"}, "cleanup handler: marked partial")
expect_calls(p, {"main": 1, "main;work": 6, "main;wait_here": 1})
check_eq(leftovers(d), [], "cleanup handler: no temporary file left")

# --- an ignored signal stays ignored -----------------------------------------
d = tempfile.mkdtemp(prefix="hooktrace-test-")
def ignore_term():
    default_signals()
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


proc = start(["wait", "2"], d, preexec=ignore_term)
check(wait_for(os.path.join(d, "ready"), proc), "SIG_IGN: the program got ready")
proc.send_signal(signal.SIGTERM)  # ignored: the program lives on ...
proc.send_signal(signal.SIGINT)   # ... until this one
proc.communicate(timeout=120)
check_eq(proc.returncode, -signal.SIGINT, "SIG_IGN: SIGTERM stayed ignored, SIGINT ended it")
p = load(d)
check_eq(p.doc.get("partial"), {"reason": "signal", "signal": "SIGINT"}, "SIG_IGN: partial by SIGINT")
expect_calls(p, {"main;work": 2})

# --- the writer cannot finish: the process dies all the same ----------------
# The program holds stderr's lock; the writer's first progress line
# (progress_after_ms 0) waits for it forever.
d = tempfile.mkdtemp(prefix="hooktrace-test-")
proc = start(["lockstderr", "3"], d, config={"signal_timeout_ms": 300,
                                              "outputs": {"progress_after_ms": 0}})
check(wait_for(os.path.join(d, "ready"), proc), "timeout: the program got ready")
proc.send_signal(signal.SIGTERM)
out, err = proc.communicate(timeout=120)
check_eq(proc.returncode, -signal.SIGTERM, "timeout: died of SIGTERM")
check("hooktrace: SIGTERM: the partial profile was not written in time" in err,
      "timeout: stderr says the profile was not written: %r" % err)
check_eq(sorted(f for f in os.listdir(d) if f.startswith(NAME)), [], "timeout: no file, no temporary file")

# --- fork() without exec ------------------------------------------------------
for mode in ("own", "none"):
    d = tempfile.mkdtemp(prefix="hooktrace-test-")
    proc = start(["fork", "3", "5"], d, config={"fork_children": mode})
    out, err = proc.communicate(timeout=120)
    check_eq(proc.returncode, 0, "fork %s: exit status" % mode)
    child = int(out.split()[1])
    p = load(d)
    expect_calls(p, {"main": 1, "main;work": 3, "main;after_fork": 2})
    check(not p.has("main;child_work"), "fork %s: the parent's profile has none of the child's calls" % mode)
    files = sorted(f for f in os.listdir(d) if f.startswith(NAME))
    child_name = "%s.child-%d" % (NAME, child)
    if mode == "own":
        check_eq(files, sorted(b + e for b in (NAME, child_name) for e in (".folded", ".html", ".json", ".log")),
                 "fork own: the parent's files and the child's own")
        c = load(d, child_name)
        check_eq(c.calls("main;child_work"), 5, "fork own: the child's calls after the fork")
        check_eq(sum(s["calls"] for s in c.doc["stacks"]), 5, "fork own: nothing of the parent's counted again")
        check_eq(c.doc["mismatched_exits"], 0, "fork own: the inherited open stack still matches")
    else:
        check_eq(files, [NAME + e for e in (".folded", ".html", ".json", ".log")], "fork none: the parent's files only")

# --- concurrent runs in one folder -------------------------------------------
d = tempfile.mkdtemp(prefix="hooktrace-test-")
bad = []
for rep in range(30):
    counts = [3 * rep + 1, 3 * rep + 2, 3 * rep + 3]
    # They overlap in time (each waits until all three have started): runs
    # that do not overlap are earlier and later runs, not concurrent ones.
    procs = [start(["together", str(k), "3"], d) for k in counts]
    for pr in procs:
        pr.communicate(timeout=120)
        check_eq(pr.returncode, 0, "concurrent: exit status")
    for marker in glob.glob(os.path.join(d, "started-*")):
        os.unlink(marker)
    found = []
    for path in glob.glob(os.path.join(d, NAME + "*.json")):
        try:
            with open(path) as f:
                doc = json.load(f)
        except ValueError as e:
            bad.append("%s: %s" % (path, e))
            continue
        funcs = [f["name"] for f in doc["functions"]]
        found += [s["calls"] for s in doc["stacks"] if funcs[s["function_index"]] == "work"]
    for k in counts:
        if found.count(k) != 1:
            bad.append("repetition %d: the run with %d calls is there %d times" % (rep, k, found.count(k)))
check_eq(bad, [], "concurrent: every JSON parses and every run is there exactly once")
check_eq(leftovers(d), [], "concurrent: no temporary file left")

# An earlier run's files are replaced: re-running in place keeps one set.
d = tempfile.mkdtemp(prefix="hooktrace-test-")
for k in (4, 9):
    start(["calls", str(k)], d).communicate(timeout=120)
check_eq(sorted(f for f in os.listdir(d) if f.startswith(NAME)),
         [NAME + e for e in (".folded", ".html", ".json", ".log")], "re-run: the earlier run's files replaced")
check_eq(load(d).calls("main;work"), 9, "re-run: the files are the later run's")


# --- write errors: reported, temporary files removed, good files kept --------
def limit_file_size():
    default_signals()
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # write() fails with EFBIG instead
    resource.setrlimit(resource.RLIMIT_FSIZE, (600, 600))


d = tempfile.mkdtemp(prefix="hooktrace-test-")
start(["calls", "4"], d).communicate(timeout=120)
with open(os.path.join(d, NAME + ".json")) as f:
    good_json = f.read()
proc = start(["calls", "9"], d, preexec=limit_file_size)
out, err = proc.communicate(timeout=120)
check_eq(proc.returncode, 0, "file size limit: the exit status is the program's")
for ext in (".log", ".json"):
    check(re.search(r"hooktrace: cannot write \./%s%s: File too large; the temporary file "
                    r"\./\.%s%s\.tmp-[A-Za-z0-9_.]+-%d-[0-9a-f]{16} was removed and the existing "
                    r"file left as it was" % (NAME, re.escape(ext), NAME, re.escape(ext), proc.pid),
                    err) is not None,
          "file size limit: %s reported with its name and reason: %r" % (ext, err))
with open(os.path.join(d, NAME + ".json")) as f:
    check_eq(f.read(), good_json, "file size limit: the earlier good JSON is intact")
with open(os.path.join(d, NAME + ".folded")) as f:
    check("main;work " in f.read(), "file size limit: the small folded file was written")
check_eq(leftovers(d), [], "file size limit: no temporary file left")

# A full filesystem, where mounting one is allowed.
mnt = tempfile.mkdtemp(prefix="hooktrace-test-tmpfs-")
if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=12k", "tmpfs", mnt],
                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
    print("SKIP: full filesystem: cannot mount a small tmpfs here (not root?); the file size "
          "limit above covers the same path")
else:
    try:
        with open(os.path.join(mnt, "filler"), "wb") as f:
            try:
                f.write(b"x" * (64 << 10))
            except OSError:
                pass
        proc = start(["calls", "3"], mnt)
        out, err = proc.communicate(timeout=120)
        check_eq(proc.returncode, 0, "disk full: exit status unchanged")
        check("No space left on device" in err and "was removed" in err,
              "disk full: reported with the reason: %r" % err)
        check_eq(leftovers(mnt), [], "disk full: no temporary file left")
    finally:
        subprocess.run(["umount", mnt])
finish()
