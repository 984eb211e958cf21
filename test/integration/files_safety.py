"""Files are created safely and nothing already written is lost (issue 23,
docs/files.md): links planted at every name a run could use, two
runs with the same PID in one folder, a full file system over earlier
files, a file size limit with SIGXFSZ at its default action, temporary
files left by killed runs, a setuid-root copy of a program run by another
user, and file names and patterns refused in the config.

Runs with a predictable or shared PID use PID namespaces (unshare, as root);
the setuid run needs root and setpriv; a full file system needs mount.
Each part says SKIP where the machine does not allow it."""
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import fcntl

from htlib import *
from browser import lean

LIFE = program("lifecycle")
DEEP = program("deep_recursion")
HTML_JSON = re.compile(r'<script type="application/json" id="ht-profile">(.*?)</script>', re.S)


def environment(config=None, directory=None):
    env = dict(os.environ)
    for key in [k for k in env if k.startswith("HOOKTRACE_")]:
        del env[key]
    for key in ("SLURM_JOB_ID", "PBS_JOBID", "OMPI_MCA_ess_base_jobid", "OMPI_MCA_orte_ess_jobid",
                "PMIX_NAMESPACE", "PMI_RANK"):
        env.pop(key, None)
    if config is not None:
        path = os.path.join(directory, "config.json")
        with open(path, "w") as f:
            json.dump(config, f)
        env["HOOKTRACE_CONFIG"] = path
    return env


def temporaries(directory):
    return sorted(f for f in os.listdir(directory) if ".tmp-" in f)


def descendants(pid):
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            with open("/proc/%d/task/%d/children" % (p, p)) as f:
                children = [int(c) for c in f.read().split()]
        except OSError:
            children = []
        found += children
        todo += children
    return found


def writing(directory, pid):
    """Whether a process of pid's tree is writing an output in directory:
    a temporary file with a name, or one without (O_TMPFILE, which
    /proc/<pid>/fd shows as "<directory>/#<inode> (deleted)")."""
    if temporaries(directory):
        return True
    for p in descendants(pid):
        try:
            fds = os.listdir("/proc/%d/fd" % p)
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink("/proc/%d/fd/%s" % (p, fd)).startswith(directory + "/#"):
                    return True
            except OSError:
                pass
    return False


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def page_json(path):
    """The profile the HTML page embeds, parsed: the JSON but the members
    the page leaves out (browser.lean)."""
    m = HTML_JSON.search(read(path))
    return json.loads(m.group(1).replace("\\u003c", "<")) if m else None


def unshare_works():
    try:
        return subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", "true"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


NS = unshare_works()
IN_NS = ["unshare", "--pid", "--fork", "--mount-proc"]

# --- links planted at every name: final names, and the temporary names the
# old scheme made predictable (".<name><ext>.tmp-<pid>"; the program is PID 1
# of its own namespace) -------------------------------------------------------
if not NS:
    print("SKIP: planted links: unshare --pid does not work here (not root?)")
else:
    d = tempfile.mkdtemp(prefix="hooktrace-links-")
    victims = tempfile.mkdtemp(prefix="hooktrace-victims-")
    planted = {}
    for ext in (".log", ".json", ".folded", ".html"):
        for name in ("lifecycle" + ext, ".lifecycle%s.tmp-1" % ext, ".lifecycle%s.tmp-2" % ext):
            target = os.path.join(victims, name.lstrip(".") + ".victim")
            with open(target, "w") as f:
                f.write("victim of %s\n" % name)
            os.symlink(target, os.path.join(d, name))
            planted[name] = target
    proc = subprocess.run(IN_NS + [LIFE, "calls", "7"], cwd=d, env=environment(),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=120)
    check_eq(proc.returncode, 0, "links: exit status")
    for name, target in sorted(planted.items()):
        check_eq(read(target), "victim of %s\n" % name, "links: %s's target untouched" % name)
    for ext in (".log", ".json", ".folded", ".html"):
        path = os.path.join(d, "lifecycle" + ext)
        check(not os.path.islink(path) and os.path.isfile(path),
              "links: lifecycle%s is the run's own file, not the link" % ext)
    check_eq(Profile(json.loads(read(os.path.join(d, "lifecycle.json")))).calls("main;work"), 7,
             "links: the JSON is the run's")
    check(page_json(os.path.join(d, "lifecycle.html")) ==
          lean(json.loads(read(os.path.join(d, "lifecycle.json")))), "links: the page holds the JSON")
    check("main;work " in read(os.path.join(d, "lifecycle.folded")), "links: the folded file")
    check_eq(proc.stderr, "", "links: nothing to report")

# --- two runs with the same PID (two containers) in one folder: the first is
# stopped while it writes, the second runs to its end, the first goes on -----
if not NS:
    print("SKIP: same PID: unshare --pid does not work here (not root?)")
else:
    d = tempfile.mkdtemp(prefix="hooktrace-samepid-")
    config = {"max_stack_depth": 120000}
    env = environment(config, d)
    # "; exit": the shell forks, so the program is PID 2 in each namespace
    slow = subprocess.Popen(IN_NS + ["sh", "-c", '"$0" 60000; exit $?', DEEP], cwd=d, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, start_new_session=True)
    stopped = False
    deadline = time.time() + 120
    while time.time() < deadline and slow.poll() is None:
        if writing(d, slow.pid):
            os.killpg(slow.pid, signal.SIGSTOP)
            stopped = True
            break
        time.sleep(0.001)
    check(stopped, "same PID: the first run was stopped while it wrote (its temporary files: %r)"
          % temporaries(d))
    fast = subprocess.run(IN_NS + ["sh", "-c", '"$0" 500; exit $?', DEEP], cwd=d, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=120)
    if stopped:
        os.killpg(slow.pid, signal.SIGCONT)
    out, err = slow.communicate(timeout=300)
    check_eq((slow.returncode, fast.returncode), (0, 0), "same PID: exit statuses")
    check_eq((out, fast.stdout), ("deep_recursion: 60000\n", "deep_recursion: 500\n"),
             "same PID: standard output")
    # the second run ended first and took the plain name; the first found it
    # taken by a concurrent run and added its PID, 2
    sets = {"": 500, ".2": 60000}
    for suffix, depth in sorted(sets.items()):
        base = os.path.join(d, "deep_recursion" + suffix)
        try:
            doc = json.loads(read(base + ".json"))
            check_eq(len(doc["stacks"]), depth + 1, "same PID: %s.json is the %d-deep run's"
                     % (base, depth))
            check(page_json(base + ".html") == lean(doc), "same PID: %s.html holds its JSON" % base)
        except (OSError, ValueError) as e:
            check(False, "same PID: %s.json: %s" % (base, e))
        try:
            log = read(base + ".log")
            check(log.startswith("hooktrace ") and "calls recorded:  %d\n" % (depth + 1) in log,
                  "same PID: %s.log is the %d-deep run's" % (base, depth))
            folded = read(base + ".folded")
            check(folded.endswith("\n") and all(re.match(r"^main(;descend)*(;\[\.\.\.\d+ frames\](;descend)*)? \d+$", l)
                                                 for l in folded.splitlines()),
                  "same PID: %s.folded is whole lines of the run's stacks" % base)
        except OSError as e:
            check(False, "same PID: %s: %s" % (base, e))
    check_eq(temporaries(d), [], "same PID: no temporary file left")
    check("was written by a concurrent run: this run's files are ./deep_recursion.2.*" in err,
          "same PID: the first run says where its files went: %r" % err)

# --- a full file system over an earlier run's files ---------------------------
mnt = tempfile.mkdtemp(prefix="hooktrace-full-")
if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt],
                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
    print("SKIP: full file system: cannot mount a small tmpfs here (not root?)")
else:
    try:
        first = subprocess.run([LIFE, "calls", "4"], cwd=mnt, env=environment(),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        check_eq(first.returncode, 0, "full: the first run")
        names = ["lifecycle" + e for e in (".log", ".json", ".folded", ".html")]
        earlier = {n: read(os.path.join(mnt, n), "rb") for n in names}
        try:
            with open(os.path.join(mnt, "filler"), "wb", buffering=0) as f:
                while True:
                    f.write(b"x" * 4096)
        except OSError:
            pass
        proc = subprocess.run([LIFE, "calls", "9"], cwd=mnt, env=environment(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=120)
        check_eq(proc.returncode, 0, "full: exit status unchanged")
        for n in names:
            check(read(os.path.join(mnt, n), "rb") == earlier[n],
                  "full: %s byte for byte the earlier run's (%d bytes now, %d before)"
                  % (n, os.path.getsize(os.path.join(mnt, n)), len(earlier[n])))
        check_eq(temporaries(mnt), [], "full: no temporary file left")
        check(proc.stderr.count("hooktrace: ") >= 4, "full: each file's fate said: %r" % proc.stderr)
    finally:
        subprocess.run(["umount", mnt])

# --- a file size limit, SIGXFSZ at its default action: compared with the
# program run without hooktrace ------------------------------------------------
def limit_file_size():
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_FSIZE, (600, 600))


d = tempfile.mkdtemp(prefix="hooktrace-fsize-")
plain_env = environment()
plain_env["HOOKTRACE_OFF"] = "1"
plain = subprocess.run([LIFE, "status", "4", "3"], cwd=d, env=plain_env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
limited = subprocess.run([LIFE, "status", "4", "3"], cwd=d, env=environment(),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                         timeout=120, preexec_fn=limit_file_size)
check_eq(plain.returncode, 3, "file size limit: the program's own status")
check_eq(limited.returncode, plain.returncode, "file size limit: exit status as without hooktrace")
check_eq(limited.stdout, plain.stdout, "file size limit: standard output as without hooktrace")
for ext in (".log", ".json"):
    check(re.search(r"hooktrace: cannot write \./lifecycle%s: File too large; " % re.escape(ext),
                    limited.stderr) is not None,
          "file size limit: lifecycle%s fails with File too large: %r" % (ext, limited.stderr))
check("out of memory" not in limited.stderr, "file size limit: no 'out of memory'")
check_eq(temporaries(d), [], "file size limit: no temporary file left")
check_eq(sorted(os.listdir(d)), ["lifecycle.folded"], "file size limit: the small folded file "
         "written, no page without its JSON")

# --- temporary files left by killed runs --------------------------------------
host = re.sub(r"[^A-Za-z0-9.]", "_", socket.gethostname())[:64] or "localhost"
gone = subprocess.Popen(["true"])
gone.wait()
d = tempfile.mkdtemp(prefix="hooktrace-stale-")
old = time.time() - 7200
files = {
    "dead": ".lifecycle.json.tmp-%s-%d-0123456789abcdef" % (host, gone.pid),
    "dead_html": ".lifecycle.html.tmp-%s-%d-00000000000000ff" % (host, gone.pid),
    "young": ".lifecycle.log.tmp-%s-%d-0123456789abcdee" % (host, gone.pid),
    "alive": ".lifecycle.json.tmp-%s-%d-0123456789abcdef" % (host, os.getpid()),
    "other_host": ".lifecycle.json.tmp-%s-%d-0123456789abcdef" % (host + "x", gone.pid),
    "locked": ".lifecycle.folded.tmp-%s-%d-0123456789abcdef" % (host, gone.pid),
    "not_ours": ".lifecycle.json.tmp-%s-%d-0123456789abcdeg" % (host, gone.pid),
}
for key, name in files.items():
    with open(os.path.join(d, name), "w") as f:
        f.write(key)
    if key != "young":
        os.utime(os.path.join(d, name), (old, old))
holder = open(os.path.join(d, files["locked"]))
fcntl.flock(holder, fcntl.LOCK_EX)  # a live run in another PID namespace
proc = subprocess.run([LIFE, "calls", "4"], cwd=d, env=environment(), stdout=subprocess.PIPE,
                      stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
holder.close()
check_eq(proc.returncode, 0, "stale: exit status")
check_eq(temporaries(d), sorted(files[k] for k in ("young", "alive", "other_host", "locked",
                                                   "not_ours")),
         "stale: the dead runs' old unlocked files removed, the others kept")
check_eq(sorted(l for l in proc.stderr.splitlines()),
         sorted("hooktrace: removed ./%s, left by process %d of this host, which is gone"
                % (files[k], gone.pid) for k in ("dead", "dead_html")),
         "stale: each removal said")

# --- a setuid-root program run by another user ---------------------------------
nobody = shutil.which("setpriv") and os.geteuid() == 0
if not nobody:
    print("SKIP: setuid: needs root and setpriv")
else:
    d = tempfile.mkdtemp(prefix="hooktrace-setuid-")
    os.chmod(d, 0o755)
    exe = os.path.join(d, "lifecycle")
    shutil.copy(LIFE, exe)
    os.chown(exe, 0, 0)
    os.chmod(exe, 0o4755)
    elsewhere = tempfile.mkdtemp(prefix="hooktrace-setuid-out-")
    os.chmod(elsewhere, 0o755)
    cfg = os.path.join(d, "config.json")
    with open(cfg, "w") as f:
        json.dump({"output_directory": elsewhere}, f)
    os.chmod(cfg, 0o644)
    as_nobody = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    plain_env = environment()
    plain_env["HOOKTRACE_OFF"] = "1"
    plain = subprocess.run(as_nobody + [exe, "status", "4", "3"], cwd=d, env=plain_env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=120)
    for label, extra in (("no variable", {}),
                         ("HOOKTRACE_CONFIG", {"HOOKTRACE_CONFIG": cfg,
                                               "HOOKTRACE_OUTPUT_DIRECTORY": elsewhere}),
                         ("HOOKTRACE_OFF=0", {"HOOKTRACE_OFF": "0", "HOOKTRACE_CONFIG": cfg})):
        env = environment()
        env.update(extra)
        proc = subprocess.run(as_nobody + [exe, "status", "4", "3"], cwd=d, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=120)
        check_eq((proc.returncode, proc.stdout), (plain.returncode, plain.stdout),
                 "setuid, %s: exit status and output as without hooktrace" % label)
        check_eq(proc.returncode, 3, "setuid, %s: the program's status" % label)
        check_eq(proc.stderr, "" if not extra else
                 "hooktrace: a setuid or setgid program: not profiled, and the HOOKTRACE_* "
                 "variables are ignored\n", "setuid, %s: standard error" % label)
        check_eq(sorted(os.listdir(d)), ["config.json", "lifecycle"],
                 "setuid, %s: no file in the current folder" % label)
        check_eq(os.listdir(elsewhere), [], "setuid, %s: none in the configured folder" % label)

# --- names and patterns refused, with the message, before main -----------------
NOT_STARTED = ("hooktrace: not starting the program; fix the configuration "
               "(hooktrace-check-config FILE) or set HOOKTRACE_OFF=1\n")
for label, config, message in (
        ("..", {"output_basename": ".."},
         '"output_basename" must be a plain file name, not ".." (the files would be hidden and '
         'named like the folder itself or its parent)'),
        ("300 bytes", {"output_basename": "n" * 300},
         '"output_basename" is 300 bytes long: at most 128, so that every file name made from it '
         '(rank, concurrent-run suffix, ".speedscope.json") stays within the file system\'s limit '
         'of 255 bytes'),
        ("back-reference", {"exclude_functions": ["^(a+)\\1$"]},
         '"exclude_functions"[0]: regular expression "^(a+)\\\\1$" has a back-reference (\\1 at '
         'offset 5), which is matched by backtracking and can take seconds per name; '
         'back-references are not accepted')):
    d = tempfile.mkdtemp(prefix="hooktrace-refused-")
    proc = subprocess.run([LIFE, "calls", "4"], cwd=d, env=environment(config, d),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=120)
    check_eq(proc.returncode, 1, "refused %s: exit status" % label)
    check_eq(proc.stderr, "hooktrace: %s/config.json:1: %s\n%s" % (d, message, NOT_STARTED),
             "refused %s: message" % label)
    check_eq(os.listdir(d), ["config.json"], "refused %s: no file written" % label)
finish()
