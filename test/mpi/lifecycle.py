"""How an MPI job ends (docs/what_happens.md): its ranks killed by SIGTERM
(each leaves its own partial <exe>_<rank>.* with exact figures, never
waiting for the others), through the launcher too; MPI_Abort (the calling
rank's partial file); fork() in every rank (the children's own files, the
parents' summary without them).  On Open MPI and on MPICH's hydra."""
import glob
import json
import os
import signal
import subprocess
import tempfile
import time

from mpilib import *

require_launcher()
EXE = mpi_program("lifecycle_mpi")
NAME = "lifecycle_mpi"
RANKS = 3


def start(args, launcher_options=(), env=None, allow_no_finalize=False, exe=EXE, ranks=RANKS):
    d = tempfile.mkdtemp(prefix="hooktrace-mpi-")
    environment = dict(os.environ)
    for key in ("HOOKTRACE_CONFIG", "HOOKTRACE_OFF", "HOOKTRACE_OUTPUT_DIRECTORY"):
        environment.pop(key, None)
    environment.update(launch_environment())
    environment.update(env or {})
    cmd = launch_command(ranks, allow_no_finalize) + list(launcher_options) + [exe] + list(args)
    proc = subprocess.Popen(cmd, cwd=d, env=environment, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True,
                            start_new_session=True)
    return d, proc


def ready_pids(d, proc, ranks):
    """The ranks' PIDs, once each waits in pause()."""
    for _ in range(12000):
        paths = [os.path.join(d, "ready.%d" % r) for r in ranks]
        if all(os.path.exists(p) for p in paths):
            pids = []
            for p in paths:
                with open(p) as f:
                    pids.append(int(f.read()))
            return pids
        if proc.poll() is not None:
            break
        time.sleep(0.01)
    check(False, "the ranks got ready (files: %s)" % sorted(os.listdir(d)))
    return []


last_stderr = [""]


def finish_launch(proc, what, hang_fails=True):
    """The launch's output; a launch still running after TIMEOUT is
    killed, and fails the test unless the caller handles that itself
    (proc.hung)."""
    proc.hung = False
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        proc.hung = True
        if hang_fails:
            check(False, what + ": the launch ended")
    last_stderr[0] = err
    return out, err


def load(d, name):
    path = os.path.join(d, name + ".json")
    if not check(os.path.exists(path), "%s written (files: %s; stderr: %s)"
                 % (name, sorted(os.listdir(d)), last_stderr[0][-3000:])):
        return None
    with open(path) as f:
        return MpiProfile(json.load(f))


def expect_rank_partial(d, rank, partial, extra, what):
    """Rank `rank`'s own file: partial for `partial`, its r + 2 calls of
    work(), one MPI_Sendrecv moving 8 bytes each way."""
    p = load(d, "%s_%d" % (NAME, rank))
    if p is None:
        return
    check_eq(p.doc.get("partial"), partial, "%s: rank %d's file is marked partial" % (what, rank))
    calls = {"main": 1, "main;MPI_Init": 1, "main;work": rank + 2, "main;MPI_Sendrecv": 1}
    calls.update(extra)
    for path, n in calls.items():
        check_eq(p.calls(path), n, "%s: rank %d: calls of %s" % (what, rank, path))
    check_eq(len(p.paths()), len(calls), "%s: rank %d: stacks %s" % (what, rank, sorted(p.paths())))
    check_eq(p.traffic("main;MPI_Sendrecv"), (1, 8, 1, 8), "%s: rank %d: the ring's message" % (what, rank))


# When a rank dies of a signal, Open MPI sends the others SIGTERM and then
# SIGKILL odls_base_sigkill_timeout (1 s) later: here they get the time to
# write under any load (docs/what_happens.md says what to set in a batch
# job).  Hydra kills the other ranks as soon as one has died of a signal
# (with -disable-auto-cleanup it leaves them running, forever here): only
# the ranks done writing by then leave their files, so on MPICH one rank is
# killed per launch.
if is_open_mpi():
    KILL_OPTIONS = dict(env={"OMPI_MCA_odls_base_sigkill_timeout": "5"})
    KILLED_TOGETHER = [list(range(RANKS))]
else:
    KILL_OPTIONS = dict()
    KILLED_TOGETHER = [[0], [RANKS - 1]]


def killed(exe, ranks):
    """A launch of `exe signal` whose ranks (None: the launcher) get
    SIGTERM once all wait: (directory, the launcher's status)."""
    d, proc = start(["signal"], exe=exe, **KILL_OPTIONS)
    pids = ready_pids(d, proc, range(RANKS))
    if ranks is None:
        proc.send_signal(signal.SIGTERM)
    else:
        for r in ranks:
            os.kill(pids[r], signal.SIGTERM)
    finish_launch(proc, "killed")
    return d, proc.returncode


def expect_killed(d, status, plain_status, ranks, what):
    if plain_status is not None:
        check(status != 0, "%s: the launcher's status is non-zero (%r)" % (what, status))
        check_eq(status, plain_status, "%s: the launcher's status, as without hooktrace" % what)
    for r in ranks:
        expect_rank_partial(d, r, {"reason": "signal", "signal": "SIGTERM"}, {"main;wait_here": 1},
                            what)
    check(not os.path.exists(os.path.join(d, NAME + ".json")), what + ": no summary (no merge)")


for ranks in KILLED_TOGETHER:
    what = "ranks %s killed" % ranks
    d, status = killed(EXE, ranks)
    _, plain_status = killed(mpi_program("lifecycle_mpi_plain"), ranks)
    expect_killed(d, status, plain_status, ranks, what)

# SIGTERM to the launcher, which forwards it to every rank.  (Hydra's own
# status after SIGTERM is 0 or 15 from one run to the next, without
# hooktrace too: it is checked on Open MPI only.)
d, status = killed(EXE, None)
plain_status = killed(mpi_program("lifecycle_mpi_plain"), None)[1] if is_open_mpi() else None
written = [r for r in range(RANKS) if os.path.exists(os.path.join(d, "%s_%d.json" % (NAME, r)))]
if not is_open_mpi():  # the ranks done before hydra's SIGKILL; one at least
    check(len(written) >= 1, "launcher killed: at least the first rank's file")
expect_killed(d, status, plain_status, range(RANKS) if is_open_mpi() else written, "launcher killed")

# --- 4 ranks, the launcher's own kill window ------------------------------------
# SIGTERM to the launcher, Open MPI's default 1 s between SIGTERM and
# SIGKILL left as it is: mpirun's SIGKILL follows the first rank's death at
# once, and hydra kills the others then too, so every rank lingers 0.75 s
# after the signal before it dies (docs/what_happens.md), and on a machine
# that is not overloaded all four leave their files (bench/partial_write.py
# measures how often).  What holds on any machine: each rank leaves its
# whole set of files or none, never a temporary one, and a set is a
# complete partial profile.  With the window widened (the round with
# odls_base_sigkill_timeout 5, as docs/what_happens.md advises for a
# loaded node) all four do.  The MPI_T control variables are written once
# per job: all of them in rank 0's .mpit.json, none in the other ranks'
# files, which name rank 0's.  A partial profile has no HTML page.
def launcher_killed_4(round_, widened):
    what = "4 ranks, %s window (round %d)" % ("a 5 s" if widened else "default", round_)
    d, proc = start(["signal"], ranks=4, **(KILL_OPTIONS if widened else {}))
    ready_pids(d, proc, range(4))
    proc.send_signal(signal.SIGTERM)
    finish_launch(proc, what)
    files = sorted(f for f in os.listdir(d) if f.startswith(NAME))
    wrote = [r for r in range(4) if os.path.exists(os.path.join(d, "%s_%d.json" % (NAME, r)))]
    expected_ranks = range(4) if widened else wrote
    # Rank 0's own file lists the job's control variables: its .mpit.json.
    check_eq(files, sorted(["%s_%d%s" % (NAME, r, e) for r in expected_ranks
                            for e in (".folded", ".json", ".log")]
                           + ["%s_0.mpit.json" % NAME for r in expected_ranks if r == 0]),
             "%s: every rank's files (or, with the default window, each rank's whole set or"
             " none), no HTML page (load average %s; stderr: %s)"
             % (what, os.getloadavg(), last_stderr[0][-3000:]))
    check_eq([f for f in os.listdir(d) if f.startswith(".")], [], what + ": no temporary file left")
    for r in expected_ranks:
        expect_rank_partial(d, r, {"reason": "signal", "signal": "SIGTERM"},
                            {"main;wait_here": 1}, what)
    docs = {}
    for r in range(4):
        path = os.path.join(d, "%s_%d.json" % (NAME, r))
        if os.path.exists(path):
            with open(path) as f:
                docs[r] = json.load(f)["mpi_t"]
    if 0 not in docs:
        return
    cvars_file = os.path.join(d, "%s_0.mpit.json" % NAME)
    if not check(os.path.exists(cvars_file), what + ": rank 0 wrote %s" % cvars_file):
        return
    with open(cvars_file) as f:
        full = {c["name"]: c["value"] for c in json.load(f)["cvars"]}
    check(len(full) > 100, what + ": rank 0's .mpit.json lists every cvar (%d)" % len(full))
    check_eq((docs[0].get("cvars_complete_in"), docs[0].get("cvars_read"),
              docs[0].get("cvars_file")), (None, len(full), NAME + "_0.mpit.json"),
             what + ": rank 0's list is complete, in its .mpit.json")
    for r in range(1, 4):
        if r not in docs:
            continue
        m = docs[r]
        # Without performance variables only rank 0 reads control
        # variables (docs/mpi_t.md): the others read none.
        check_eq((m.get("cvars_complete_in"), m.get("cvars_read"), m.get("cvars_rank")),
                 (NAME + "_0.mpit.json", 0, r), what + ": rank %d points at rank 0's list" % r)
        check_eq((m.get("cvars"), m.get("cvars_file")), (None, None),
                 what + ": rank %d lists no cvar (the job's %d are in rank 0's file)"
                 % (r, len(full)))
        log = os.path.join(d, "%s_%d.log" % (NAME, r))
        if os.path.exists(log):
            with open(log) as f:
                line = [l for l in f if l.startswith("MPI_T:")]
            check_eq(line, ["MPI_T:           0 control variables (rank %d; written once per"
                            " job: rank 0's are in %s_0.mpit.json); 0 performance variables\n"
                            % (r, NAME)],
                     what + ": rank %d's logfile header" % r)


for round_ in range(3):
    launcher_killed_4(round_ + 1, False)
if is_open_mpi():
    launcher_killed_4(4, True)

# --- a signal during the job's merge ------------------------------------------
# Rank 1 never reaches MPI_Finalize, so the merge of the other ranks waits
# for it inside MPI_Finalize; SIGTERM to the launcher then.  Every rank
# leaves its own files, marked partial, those of the ranks in the merge
# "during": "MPI_Finalize" with their calls up to MPI_Finalize (no summary:
# the merge never ended); no temporary file is left, and the launcher's
# status is the plain program's.  (A rank between its ready.<r> file and
# MPI_Finalize when the signal comes writes an ordinary partial file: the
# launch is then tried again, up to 3 times.)
IN_MERGE = {"main;MPI_Finalize": 1}


def signal_during_merge(exe, plain):
    d, proc = start(["merge"], ranks=4, exe=exe)
    ready_pids(d, proc, range(4))
    time.sleep(0.5)  # from ready.<r> into MPI_Finalize
    proc.send_signal(signal.SIGTERM)
    finish_launch(proc, "signal during the merge", hang_fails=False)
    status = "hung" if proc.hung else proc.returncode
    if plain:
        return d, status, None
    partial = {}
    for r in range(4):
        path = os.path.join(d, "%s_%d.json" % (NAME, r))
        if os.path.exists(path):
            with open(path) as f:
                partial[r] = json.load(f).get("partial", {})
    return d, status, partial


# Open MPI 4.1's mpirun itself dies of SIGSEGV on SIGTERM in about one
# plain run of three (exit 1 otherwise), and now and then hangs (CI saw a
# launch still running after 60 s): an instrumented launch that hangs is
# tried again, and fails the test only if all 3 do; the status is checked
# against those plain runs give, up to 6 of them (a plain hang included).
what = "signal during the merge"
for attempt in range(3):
    d, status, partial = signal_during_merge(EXE, False)
    if status != "hung" and all(partial.get(r, {}).get("during") for r in (0, 2, 3)):
        break
check(status != "hung", what + ": the launch ended (3 tries)")
# Open MPI's mpirun, plain, has been seen to exit 1 or 139 or die of SIGSEGV here
# (at load 12 six plain runs gave only SIGSEGV and hangs): either is the
# launcher's own, whatever the ranks did.
# MPICH's mpiexec.hydra, once one rank has died of the signal, kills the
# others with SIGKILL and exits 9 if one had not died yet: a rank writing its
# partial files then (the CI machine, slower, saw it once in many runs; the
# files below were all there) turns the plain program's 15 into 9.
LAUNCHER_OWN = {1, 139, -signal.SIGSEGV} if is_open_mpi() else {9}
plain_statuses = []
while status not in plain_statuses and status not in LAUNCHER_OWN and len(plain_statuses) < 6:
    plain_statuses.append(signal_during_merge(mpi_program("lifecycle_mpi_plain"), True)[1])
check(status in plain_statuses or status in LAUNCHER_OWN,
      "%s: the launcher's status %s is one the plain program's gives (%s, or Open MPI's %s)"
      % (what, status, plain_statuses, sorted(LAUNCHER_OWN)))
files = sorted(os.listdir(d))
check_eq([f for f in files if f.startswith(NAME)],
         sorted("%s_%d%s" % (NAME, r, e) for r in range(4) for e in (".folded", ".json", ".log")),
         "%s: every rank's files, no summary (stderr: %s)" % (what, last_stderr[0][-3000:]))
check_eq([f for f in files if f.startswith(".")], [], what + ": no temporary file left")
for r in (0, 2, 3):
    expect_rank_partial(d, r, {"reason": "signal", "signal": "SIGTERM", "during": "MPI_Finalize"},
                        IN_MERGE, what)
    log = os.path.join(d, "%s_%d.log" % (NAME, r))
    if os.path.exists(log):
        with open(log) as f:
            check("partial:         signal SIGTERM during MPI_Finalize" in f.read(),
                  "%s: rank %d's logfile says when the signal came" % (what, r))
expect_rank_partial(d, 1, {"reason": "signal", "signal": "SIGTERM"}, {"main;wait_here": 1}, what)

# --- MPI_Abort: the calling rank's partial file -------------------------------
d, proc = start(["abort"], allow_no_finalize=False)
out, err = finish_launch(proc, "MPI_Abort")
check_eq(proc.returncode, 3, "MPI_Abort: the launcher exits with the error code")
expect_rank_partial(d, 1, {"reason": "MPI_Abort", "errorcode": 3}, {"main;MPI_Abort": 1}, "MPI_Abort")

# --- fork() in every rank ------------------------------------------------------
M = 4
d, proc = start(["fork", str(M)], allow_no_finalize=False)
out, err = finish_launch(proc, "fork")
check_eq(proc.returncode, 0, "fork: exit status (%s)" % err[-2000:])
children = {}
for line in out.splitlines():
    words = line.split()
    if len(words) == 6 and words[0] == "rank" and words[2] == "child":
        children[int(words[1])] = int(words[3])
        check_eq(words[5], "0", "fork: rank %s's child exited with 0" % words[1])
check_eq(sorted(children), list(range(RANKS)), "fork: every rank forked")
s = load(d, NAME)
if s is not None:
    expect_total_calls(s, {"main": RANKS, "main;work": sum(r + 2 for r in range(RANKS)),
                           "main;MPI_Sendrecv": RANKS, "main;MPI_Init": RANKS,
                           "main;MPI_Finalize": RANKS}, "fork summary")
    check(not s.has("main;child_work"), "fork: the summary has none of the children's calls")
expected_files = {NAME + e for e in (".json", ".mpit.json", ".log", ".folded", ".html")}
for r, pid in children.items():
    child = "%s_%d.child-%d" % (NAME, r, pid)
    expected_files |= {child + e for e in (".json", ".log", ".folded", ".html")}
    c = load(d, child)
    if c is None:
        continue
    check_eq(c.calls("main;child_work"), M + r, "fork: rank %d's child's own calls" % r)
    check_eq(sum(st["calls"] for st in c.doc["stacks"]), M + r,
             "fork: rank %d's child counts nothing of its parent's" % r)
    check_eq(c.traffic("main;MPI_Sendrecv"), (0, 0, 0, 0), "fork: rank %d's child sent nothing" % r)
check_eq(sorted(f for f in os.listdir(d) if f.startswith(NAME)), sorted(expected_files),
         "fork: the summary and one set per child, no rank file")
finish()
