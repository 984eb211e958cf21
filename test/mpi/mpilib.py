"""Helpers for hooktrace's MPI tests: launch a test program under the MPI
launcher configure found, in a fresh directory, with a time limit; load the
summary profile rank 0 writes (<exe>.json) or a rank's own file
(<exe>_<rank>.json); and compare the MPI figures with a model of every
message the program moves.

The model (Messages) lists each message once, with its sender, receiver,
size, and the call stack it leaves from and arrives at.  From it come the
expected figures of every stack, total and per rank, and both
communication matrices; expect_messages() checks all of them exactly, and
that every other stack moved nothing.

The launcher: HT_MPIEXEC (exported by the Makefile from configure's
MPIEXEC) with HT_MPI_NAME "ompi-c" (Open MPI: --oversubscribe, the two
variables that let it run as root, and the shared-memory transport unless
OMPI_MCA_btl is set) or "mpich" (hydra: plain -n N).  For a program that
exits without MPI_Finalize, both are told not to kill the other ranks when
the first one exits (--enable-recovery, -disable-auto-cleanup).  Standard
library only; the check counters are htlib's."""

import glob
import json
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
import htlib  # noqa: E402
from htlib import BUILDDIR, HAVE_OTF2, Profile, check, check_close, check_eq, check_folded, finish  # noqa: E402,F401

MPIEXEC = os.environ.get("HT_MPIEXEC", "")
MPI_NAME = os.environ.get("HT_MPI_NAME", "")
TIMEOUT = 60

INT, DOUBLE, LONG = 4, 8, 8
# The sanitizers the test programs are built with (CI's ASan stage).
SANITIZED = {c for f in os.environ.get("HT_CC_CFLAGS", "").split() if f.startswith("-fsanitize=")
             for c in f.split("=", 1)[1].split(",")}
# -fsanitize=undefined checks every signed addition, the loop counter's
# too, which hides a short loop's trip count from GCC: test/plugin's
# corner_sum (4 trips) then keeps its hooks as a kernel (docs/plugin.md).
CHECKED_LOOPS = bool(SANITIZED & {"undefined", "signed-integer-overflow"})
ENVIRONMENT_ROUTINES = ("MPI_Init", "MPI_Init_thread", "MPI_Finalize")


def is_open_mpi():
    return MPI_NAME == "ompi-c" or (not MPI_NAME and "openmpi" in os.path.realpath(MPIEXEC))


def require_launcher():
    """Skips the test (status 77) when configure found no launcher."""
    if not MPIEXEC or MPIEXEC == "no" or not os.path.exists(MPIEXEC):
        print("SKIP: no MPI launcher (HT_MPIEXEC=%r)" % MPIEXEC)
        sys.exit(77)


def mpi_program(name):
    """Path of a test program from test/mpi built by `make check`."""
    return os.path.join(BUILDDIR, "test", "mpi", name)


def launch_command(ranks, allow_no_finalize=False):
    """The launcher and its options for `ranks` processes on this machine,
    however many cores it has."""
    if is_open_mpi():
        cmd = [MPIEXEC, "--oversubscribe"]
        # By default Open MPI kills the whole job when one process exits
        # without MPI_Finalize, before the others have written their files.
        if allow_no_finalize:
            cmd.append("--enable-recovery")
        return cmd + ["-n", str(ranks)]
    # hydra likewise kills the others when the first one exits
    return [MPIEXEC] + (["-disable-auto-cleanup"] if allow_no_finalize else []) + ["-n", str(ranks)]


def launch_environment():
    env = {}
    # Under AddressSanitizer (CI), the MPI libraries' own allocations that
    # they never free would fail every run at exit; memory errors are still
    # caught, and the serial tests keep leak checking on.
    asan = os.environ.get("ASAN_OPTIONS")
    if asan is not None:
        env["ASAN_OPTIONS"] = (asan + ":" if asan else "") + "detect_leaks=0"
    if is_open_mpi():
        env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                    # stay off the network interfaces a sandbox may not have
                    "OMPI_MCA_btl": "self,vader"})
    return env


class MpiRun(htlib.Run):
    """One launch: exit status, output, and the profile files."""

    def __init__(self, directory, proc, basename, ranks, timed_out):
        htlib.Run.__init__(self, directory, proc, basename)
        self.ranks = ranks
        self.timed_out = timed_out

    def describe(self):
        tail = "\n    ".join(self.stderr.strip().splitlines()[-15:])
        return "exit status %s, run in %s; stderr:\n    %s" % (self.returncode, self.directory,
                                                             tail or "(empty)")

    def files(self):
        return sorted(os.listdir(self.directory))

    def _load(self, suffix):
        if not check(self.exists(suffix), "%s%s written (files: %s; %s)"
                     % (self.basename, suffix, " ".join(self.files()), self.describe())):
            return None
        try:
            with open(self.path(suffix)) as f:
                return MpiProfile(json.load(f))
        except ValueError as e:
            check(False, "%s%s is not valid JSON: %s" % (self.basename, suffix, e))
            return None

    def summary(self):
        """The whole run's profile, <basename>.json, or None (one failed
        check) if it is missing."""
        return self._load(".json")

    def rank_profile(self, rank):
        """<basename>_<rank>.json, or None (one failed check)."""
        return self._load("_%d.json" % rank)


def where_it_hung(directory):
    """What the profiles the ranks wrote at the kill say: each rank file's
    "partial:" line and the top of its table (the calls in progress count
    up to the kill), so that a hang seen once in CI says where it was."""
    text = []
    for log in sorted(glob.glob(os.path.join(directory, "*.log"))):
        with open(log, errors="replace") as f:
            lines = f.read().splitlines()
        partial = [line for line in lines if line.startswith("partial:")]
        table = next((i for i, line in enumerate(lines) if line.startswith("Runtime profile")), None)
        top = lines[table:table + 16] if table is not None else []
        text.append("%s:\n    %s" % (os.path.basename(log), "\n    ".join(partial + top)))
    return "; the ranks' profiles at the kill:\n  " + "\n  ".join(text) if text else ""


def mpirun(exe, ranks, args=(), config=None, env=None, basename=None, allow_no_finalize=False,
           timeout=TIMEOUT):
    """Runs exe on `ranks` processes in a new temporary directory (the
    default output directory).  config: a dict written as the JSON config
    file, or None.  A launch that takes longer than `timeout` seconds is
    killed (with everything it started) and counts as one failure.  The
    launch's stderr is without the progress lines of a slow shut-down
    (htlib.without_progress)."""
    directory = htlib.run_directory("hooktrace-mpi-")
    environment = dict(os.environ)
    for key in ("HOOKTRACE_CONFIG", "HOOKTRACE_OFF", "HOOKTRACE_OUTPUT_DIRECTORY",
                "HOOKTRACE_PAPI_DISABLE"):
        environment.pop(key, None)
    for key, value in launch_environment().items():
        if key == "ASAN_OPTIONS":  # extends the caller's, see launch_environment
            environment[key] = value
        else:
            environment.setdefault(key, value)
    if config is not None:
        config_path = os.path.join(directory, "config.json")
        with open(config_path, "w") as f:
            f.write(json.dumps(config, indent=2))
        environment["HOOKTRACE_CONFIG"] = config_path
    environment.update(env or {})
    cmd = launch_command(ranks, allow_no_finalize) + [exe] + list(args)
    proc = subprocess.Popen(cmd, cwd=directory, env=environment, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True,
                            start_new_session=True)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        for sig, grace in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                out, err = proc.communicate(timeout=grace)
                break
            except subprocess.TimeoutExpired:
                continue
        else:
            out, err = "", ""
    check(not timed_out, "%s on %d ranks finished within %d s%s" % (" ".join(cmd), ranks, timeout,
                                                                  where_it_hung(directory) if timed_out else ""))
    result = subprocess.CompletedProcess(cmd, proc.returncode, out,
                                         htlib.without_progress(err, config))
    return MpiRun(directory, result, basename or os.path.basename(exe), ranks, timed_out)


def check_status(run, expected=0, what=""):
    """The launch's exit status, with its stderr on failure."""
    return check(run.returncode == expected, "%sexit status %r, expected %r (%s)"
                 % (what + ": " if what else "", run.returncode, expected, run.describe()))


# --- the profile ------------------------------------------------------------

TRAFFIC = ("messages_sent", "bytes_sent", "messages_received", "bytes_received")
ZERO = (0, 0, 0, 0)


class MpiProfile(Profile):
    """A profile with MPI figures: per stack, per rank, and the matrices."""

    def traffic(self, path):
        """(messages_sent, bytes_sent, messages_received, bytes_received) of
        a stack over all ranks; zeros when it moved nothing."""
        s = self.by_path.get(path, {})
        return tuple(s.get(k, 0) for k in TRAFFIC)

    def rank_entries(self, path):
        return {e["rank"]: e for e in self.by_path.get(path, {}).get("ranks", [])}

    def rank_traffic(self, path):
        """{rank: (ms, bs, mr, br)} for the ranks listed in the stack."""
        return {r: tuple(e.get(k, 0) for k in TRAFFIC) for r, e in self.rank_entries(path).items()}

    def rank_calls(self, path):
        return {r: e.get("calls") for r, e in self.rank_entries(path).items()}

    def matrix(self, name):
        """{(sender, receiver): (messages, bytes)}; duplicate or zero cells
        fail a check."""
        cells = {}
        rows = self.doc.get(name)
        if not check(isinstance(rows, list), "%s is an array: %r" % (name, rows)):
            return cells
        for row in rows:
            key = (row.get("sender"), row.get("receiver"))
            check(key not in cells, "%s: one cell per sender and receiver, %r twice" % (name, key))
            check(row.get("messages", 0) > 0, "%s: only non-zero cells, got %r" % (name, row))
            cells[key] = (row.get("messages"), row.get("bytes"))
        keys = [(row.get("sender"), row.get("receiver")) for row in rows]
        check(keys == sorted(keys, key=lambda k: tuple(-1 if x is None else x for x in k)),
              "%s ordered by sender, then receiver: %r" % (name, keys))
        return cells

    def mpi_paths(self):
        """Stacks of MPI routines other than MPI_Init/MPI_Finalize."""
        return sorted(p for p in self.by_path
                      if p.split(";")[-1].startswith("MPI_")
                      and p.split(";")[-1] not in ENVIRONMENT_ROUTINES)


# --- the model --------------------------------------------------------------

class Messages:
    """Every message a run moves: sender and receiver (world ranks), bytes,
    and the stacks that send and receive it (None: that side records
    nothing, e.g. the target of a one-sided operation)."""

    def __init__(self):
        self.items = []  # [sender, receiver, bytes, send_path, recv_path, matrix]

    def p2p(self, sender, receiver, nbytes, send_path, recv_path, times=1):
        for _ in range(times):
            self.items.append([sender, receiver, nbytes, send_path, recv_path, "comm_matrix"])

    def coll(self, sender, receiver, nbytes, path, recv_path=None):
        """One pairwise message of a collective; a rank's message to itself
        is not counted."""
        if sender != receiver:
            self.items.append([sender, receiver, nbytes, path, recv_path or path, "coll_matrix"])

    def rma(self, origin, target, nbytes, path):
        """A one-sided operation: a message the origin sends (Get included)."""
        self.items.append([origin, target, nbytes, path, None, "comm_matrix"])

    def only_ranks(self, ranks):
        """What ranks that log (mpi.log_ranks) record: their own sides."""
        m = Messages()
        for s, r, b, sp, rp, mat in self.items:
            m.items.append([s, r, b, sp if s in ranks else None, rp if r in ranks else None, mat])
        return m

    def stacks(self, rank=None):
        """{path: {rank: [ms, bs, mr, br]}} (only `rank` if given)."""
        out = {}
        for s, r, b, sp, rp, _ in self.items:
            if sp is not None and rank in (None, s):
                f = out.setdefault(sp, {}).setdefault(s, [0, 0, 0, 0])
                f[0] += 1
                f[1] += b
            if rp is not None and rank in (None, r):
                f = out.setdefault(rp, {}).setdefault(r, [0, 0, 0, 0])
                f[2] += 1
                f[3] += b
        return out

    def matrix(self, name):
        cells = {}
        for s, r, b, sp, _, mat in self.items:
            if mat == name and sp is not None:
                m, nb = cells.get((s, r), (0, 0))
                cells[(s, r)] = (m + 1, nb + b)
        return cells


def report_messages(model, ranks, times=1):
    """common.h's report(): every rank > 0 sends one long long to rank 0."""
    for r in range(1, ranks):
        model.p2p(r, 0, LONG, "main;report;MPI_Send", "main;report;MPI_Recv", times)


def _total(per_rank):
    return tuple(sum(f[i] for f in per_rank.values()) for i in range(4))


def _matrix_diff(actual, expected):
    lines = []
    for key in sorted(set(actual) | set(expected), key=lambda k: tuple(-1 if x is None else x for x in k)):
        a, e = actual.get(key), expected.get(key)
        if a != e:
            lines.append("  %r -> %r: got %s, expected %s" % (key[0], key[1], a, e))
    return "\n".join(lines)


def expect_messages(profile, model, ranks, what=""):
    """Checks a summary profile against the model, exactly: "ranks"; every
    modelled stack's totals and per-rank figures; no MPI traffic on any
    other stack; both matrices cell by cell."""
    if profile is None:
        return
    tag = what + ": " if what else ""
    check_eq(profile.doc.get("ranks"), ranks, tag + "top-level \"ranks\"")
    stacks = model.stacks()
    listed = False
    for path in sorted(stacks):
        expected = {r: tuple(f) for r, f in stacks[path].items()}
        if not check(profile.has(path), "%sno stack %s (expected traffic %r)%s"
                     % (tag, path, expected, "" if listed else "; MPI stacks are:\n  "
                        + "\n  ".join(profile.mpi_paths()))):
            listed = True
            continue
        check_eq(profile.traffic(path), _total(expected),
                 tag + path + " (messages_sent, bytes_sent, messages_received, bytes_received)")
        actual = {r: f for r, f in profile.rank_traffic(path).items() if f != ZERO}
        check_eq(actual, expected, tag + path + " per rank {rank: (ms, bs, mr, br)}")
    for path in sorted(profile.paths() - set(stacks)):
        check_eq(profile.traffic(path), ZERO, tag + path + " moves no messages")
    for name in ("comm_matrix", "coll_matrix"):
        actual, expected = profile.matrix(name), model.matrix(name)
        check(actual == expected, "%s%s differs (sender -> receiver: (messages, bytes)):\n%s"
              % (tag, name, _matrix_diff(actual, expected)))


def expect_rank_file(profile, model, rank, ranks, what=""):
    """A rank's own file (<exe>_<rank>.json): "rank" and "ranks" set, every
    stack's figures that rank's, and only its own rows in the matrices."""
    if profile is None:
        return
    tag = "%srank %d's file: " % (what + ": " if what else "", rank)
    check_eq(profile.doc.get("rank"), rank, tag + "\"rank\"")
    check_eq(profile.doc.get("ranks"), ranks, tag + "\"ranks\"")
    stacks = model.stacks(rank)
    for path in sorted(stacks):
        if check(profile.has(path), "%sno stack %s" % (tag, path)):
            check_eq(profile.traffic(path), tuple(stacks[path][rank]), tag + path + " (ms, bs, mr, br)")
            check_eq(sorted(profile.rank_entries(path)), [rank], tag + path + " lists only this rank")
    for path in sorted(profile.paths() - set(stacks)):
        check_eq(profile.traffic(path), ZERO, tag + path + " moves no messages")
    for name in ("comm_matrix", "coll_matrix"):
        actual = profile.matrix(name)
        expected = {k: v for k, v in model.matrix(name).items() if k[0] == rank}
        check(actual == expected, "%s%s differs (sender -> receiver: (messages, bytes)):\n%s"
              % (tag, name, _matrix_diff(actual, expected)))


def expect_total_calls(profile, expected, what=""):
    """{path: calls summed over ranks}; each stack must exist."""
    if profile is None:
        return
    tag = what + ": " if what else ""
    for path, calls in sorted(expected.items()):
        check_eq(profile.calls(path), calls, tag + "calls of " + path + " (all ranks)")


def expect_rank_calls(profile, path, expected, what=""):
    """{rank: calls} of a stack with MPI traffic (from its "ranks")."""
    if profile is None:
        return
    tag = what + ": " if what else ""
    check_eq(profile.rank_calls(path), expected, tag + "calls per rank of " + path)


def expect_imbalance(summary, rank_profiles, what=""):
    """Every stack's imbalance in the summary against the ranks' own files
    (one per rank, in rank order): the least and most inclusive time over
    the ranks, a rank without the stack counting as 0 s, and their mean.
    The files print 9 significant digits, so the least and most values
    compare exactly as printed; ranks that print the same value may differ
    further down, so the rank must be one of those (a true tie goes to the
    lower rank, which the 0 s of absent ranks test)."""
    if summary is None or any(rp is None for rp in rank_profiles):
        return
    tag = what + ": " if what else ""
    for path, s in sorted(summary.by_path.items()):
        times = [rp.by_path[path]["time_incl_s"] if path in rp.by_path else 0.0
                 for rp in rank_profiles]
        got = s.get("imbalance", {})
        for key, value in (("min", min(times)), ("max", max(times))):
            ranks = [r for r, t in enumerate(times) if t == value]
            if value == 0.0:
                ranks = ranks[:1]  # the absent (0 s) ranks: exactly the lowest
            check(got.get(key + "_s") == value and got.get(key + "_rank") in ranks,
                  "%simbalance of %s: %s %r at rank %r, expected %r at one of %r"
                  % (tag, path, key, got.get(key + "_s"), got.get(key + "_rank"), value, ranks))
        mean = sum(times) / len(times)
        check(abs(got.get("avg_s", -1.0) - mean) <= 1e-6 * max(mean, 1e-9) + 1e-12,
              tag + "imbalance of %s: mean %r, expected %r" % (path, got.get("avg_s"), mean))


def expect_same_stdout(run, reference, what):
    check(run.stdout == reference.stdout and reference.stdout != "",
          "%s: stdout differs from the reference:\n--- got\n%s--- expected\n%s"
          % (what, run.stdout, reference.stdout))
