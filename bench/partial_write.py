#!/usr/bin/env python3
"""How long a rank killed by SIGTERM takes to write its partial profile
(issue 23: under 100 ms per rank for a typical application on a loaded
2-core machine, so that every rank's files survive Open MPI's 1 s window
between SIGTERM and SIGKILL).

Runs bench/partial_app (about 450 stacks, 120 with messages; default
hooktrace config, so MPI_T is on and every output is written) on --ranks
ranks, with --load busy loops running beside it.  Once every rank has
written ready.<rank> (after --steps steps, 5) it sends SIGTERM to every rank at
once, as mpirun does, and notes when each rank's partial JSON is renamed
into place (inotify: its files are renamed together once all are written)
and when the rank dies (pidfd; an MPI rank lingers until 0.75 s after the
signal, docs/what_happens.md).  The launcher's SIGKILL is pushed back to
60 s (Open MPI's odls_base_sigkill_timeout; hydra's -disable-auto-cleanup)
so that it never cuts a measurement short.

Then, with --window rounds, the same program is killed the way a user or a
scheduler does it: SIGTERM to mpirun, with Open MPI's default 1 s kill
window, and the ranks whose partial JSON exists afterwards are counted.

With --merge rounds, the ranks call MPI_Finalize once ready, the last one
1.5 s after the others, and mpirun gets SIGTERM 0 to 0.4 s later (at
random; Open MPI passes it on 1 s later), while the others wait in the
job's merge: each round must leave the summary or every rank's own files
(issue 36 point 8), and no hidden temporary file.

Prints markdown: per round the ranks' times (ms), the median and maximum
over all ranks and rounds, the files one rank wrote and their sizes, and
the window rounds' counts.

Usage (from the build directory; `make bench-partial` does this):
    python3 bench/partial_write.py [--builddir DIR] [--mpiexec mpirun] [--mpi ompi-c|mpich]
                                   [--ranks 4] [--load 1] [--rounds 5] [--window 5] [--steps 5]
                                   [--merge 0] [--config FILE]
Stdlib only (Linux, Python 3.9: os.pidfd_open); every run happens in its own
temporary directory."""
import argparse
import ctypes
import datetime
import json
import os
import random
import select
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import cpu_model, loadavg, mpi_version  # noqa: E402

NAME = "partial_app"


def command(args, sigkill_window):
    if args.mpi == "mpich":
        cmd = shlex.split(args.mpiexec) + ["-n", str(args.ranks)]
        if sigkill_window is not None:
            cmd.append("-disable-auto-cleanup")
        return cmd
    return shlex.split(args.mpiexec) + ["-np", str(args.ranks), "--oversubscribe"]


def environment(args, sigkill_window):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    for key in ("HOOKTRACE_CONFIG", "HOOKTRACE_OFF", "HOOKTRACE_OUTPUT_DIRECTORY"):
        env.pop(key, None)
    if args.config:
        env["HOOKTRACE_CONFIG"] = os.path.abspath(args.config)
    env.setdefault("OMPI_MCA_btl", "self,vader")
    if sigkill_window is not None:
        env["OMPI_MCA_odls_base_sigkill_timeout"] = str(sigkill_window)
    return env


def start(args, sigkill_window, finalize=False):
    d = tempfile.mkdtemp(prefix="hooktrace-bench-partial-")
    exe = os.path.join(os.path.abspath(args.builddir), "bench", NAME)
    argv = [exe, str(args.steps)] + (["finalize"] if finalize else [])
    proc = subprocess.Popen(command(args, sigkill_window) + argv, cwd=d,
                            env=environment(args, sigkill_window), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True,
                            start_new_session=True)
    deadline = time.monotonic() + args.timeout
    paths = [os.path.join(d, "ready.%d" % r) for r in range(args.ranks)]
    while not all(os.path.exists(p) for p in paths):
        if proc.poll() is not None or time.monotonic() > deadline:
            _, err = stop(proc)
            sys.exit("partial_write: the ranks did not get ready\n%s" % err[-3000:])
        time.sleep(0.02)
    pids = []
    for p in paths:
        with open(p) as f:
            pids.append(int(f.read()))
    return d, proc, pids


def stop(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return proc.communicate()


def finish(args, proc):
    try:
        _, err = proc.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        stop(proc)
        err = ""
    return err


IN_MOVED_TO = 0x80
_libc = ctypes.CDLL(None, use_errno=True)


def watch_renames(d):
    """An inotify descriptor reporting files renamed into d."""
    fd = _libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
    if fd < 0 or _libc.inotify_add_watch(fd, os.fsencode(d), IN_MOVED_TO) < 0:
        sys.exit("partial_write: inotify: %s" % os.strerror(ctypes.get_errno()))
    return fd


def renamed(fd):
    """The names in the pending inotify events."""
    names = []
    try:
        buf = os.read(fd, 65536)
    except BlockingIOError:
        return names
    at = 0
    while at + 16 <= len(buf):
        length = int.from_bytes(buf[at + 12:at + 16], "little")
        names.append(buf[at + 16:at + 16 + length].rstrip(b"\0").decode())
        at += 16 + length
    return names


def measured_round(args):
    """SIGTERM to every rank at once: each rank's time (s) from the signal to
    its partial JSON in place, and to its death."""
    d, proc, pids = start(args, 60)
    inotify = watch_renames(d)
    fds = [os.pidfd_open(p) for p in pids]
    sent = []
    for p in pids:
        sent.append(time.monotonic())
        os.kill(p, signal.SIGTERM)
    dead, placed = [None] * len(pids), [None] * len(pids)
    json_names = {"%s_%d.json" % (NAME, r): r for r in range(len(pids))}
    poller = select.poll()
    poller.register(inotify, select.POLLIN)
    for fd in fds:
        poller.register(fd, select.POLLIN)
    deadline = time.monotonic() + args.timeout
    while any(t is None for t in dead) and time.monotonic() < deadline:
        for fd, _ in poller.poll(1000):
            now = time.monotonic()
            if fd == inotify:
                for name in renamed(inotify):
                    if name in json_names and placed[json_names[name]] is None:
                        placed[json_names[name]] = now
                continue
            r = fds.index(fd)
            if dead[r] is None:
                dead[r] = now
                poller.unregister(fd)
    for fd in fds + [inotify]:
        os.close(fd)
    err = finish(args, proc)
    times = [(None if p is None else p - s, None if t is None else t - s)
             for p, t, s in zip(placed, dead, sent)]
    files = {}
    for f in sorted(os.listdir(d)):
        if f.startswith(NAME + "_0.") or f.startswith(NAME + "_1."):
            files[f[len(NAME):]] = os.path.getsize(os.path.join(d, f))
    partial = []
    for r in range(args.ranks):
        try:
            with open(os.path.join(d, "%s_%d.json" % (NAME, r))) as f:
                partial.append(json.load(f).get("partial", {}).get("reason") == "signal")
        except (OSError, ValueError):
            partial.append(False)
    shutil.rmtree(d, ignore_errors=True)
    if not all(partial):
        sys.stderr.write("partial_write: a rank left no partial JSON\n%s\n" % err[-3000:])
    return times, files, partial


def window_round(args):
    """SIGTERM to the launcher, default kill window: the ranks whose partial
    JSON exists afterwards."""
    d, proc, _ = start(args, None)
    proc.send_signal(signal.SIGTERM)
    finish(args, proc)
    n = 0
    for r in range(args.ranks):
        try:
            with open(os.path.join(d, "%s_%d.json" % (NAME, r))) as f:
                n += json.load(f).get("partial", {}).get("reason") == "signal"
        except (OSError, ValueError):
            pass
    shutil.rmtree(d, ignore_errors=True)
    return n


def merge_round(args):
    """SIGTERM to the launcher during the job's merge: 'summary', 'ranks'
    (every rank's own JSON) or 'neither', and the hidden files left."""
    d, proc, _ = start(args, None, finalize=True)
    time.sleep(random.uniform(0, 0.4))
    proc.send_signal(signal.SIGTERM)
    finish(args, proc)
    files = os.listdir(d)
    hidden = sum(f.startswith(".") for f in files)
    if NAME + ".json" in files:
        outcome = "summary"
    elif all("%s_%d.json" % (NAME, r) in files for r in range(args.ranks)):
        outcome = "ranks"
    else:
        outcome = "neither"
    shutil.rmtree(d, ignore_errors=True)
    return outcome, hidden


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--mpiexec", default="mpirun")
    ap.add_argument("--mpi", default="ompi-c")
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--load", type=int, default=1, help="busy loops beside the job")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--window", type=int, default=5,
                    help="rounds killed through the launcher with its default window")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--steps", type=int, default=5, help="steps before the ranks are killed")
    ap.add_argument("--merge", type=int, default=0,
                    help="rounds with SIGTERM to the launcher during the job's merge")
    ap.add_argument("--config", help="a hooktrace config file (default: none)")
    args = ap.parse_args()

    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(args.load)]
    try:
        rows, all_placed, all_dead, files, missing = [], [], [], {}, 0
        for i in range(args.rounds):
            times, files, partial = measured_round(args)
            missing += partial.count(False)
            rows.append(times)
            all_placed += [p for p, _ in times if p is not None]
            all_dead += [t for _, t in times if t is not None]
        survived = [window_round(args) for _ in range(args.window)]
        merges = [merge_round(args) for _ in range(args.merge)]
    finally:
        for b in busy:
            b.kill()
            b.wait()

    print("## Partial profile on SIGTERM: %d ranks, %d busy loop%s"
          % (args.ranks, args.load, "" if args.load == 1 else "s"))
    print()
    print("%s; %s; %d CPUs; load average before: %s; %s"
          % (datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
             cpu_model(), os.cpu_count() or 0, loadavg(), mpi_version(args.mpiexec)))
    print()
    print("ms from SIGTERM to the rank's partial JSON in place / to its death:")
    print()
    print("| round | " + " | ".join("rank %d" % r for r in range(args.ranks)) + " |")
    print("|---|" + "---:|" * args.ranks)

    def ms(t):
        return "-" if t is None else "%.0f" % (t * 1e3)

    for i, times in enumerate(rows):
        print("| %d | " % (i + 1) + " | ".join("%s / %s" % (ms(p), ms(t)) for p, t in times) + " |")
    print()
    if all_placed:
        print("signal to files in place, all ranks and rounds: median %.0f ms, max %.0f ms "
              "(%d ranks)" % (statistics.median(all_placed) * 1e3, max(all_placed) * 1e3,
                             len(all_placed)))
    if all_dead:
        print("signal to death: median %.0f ms, max %.0f ms"
              % (statistics.median(all_dead) * 1e3, max(all_dead) * 1e3))
    print("ranks without a partial JSON: %d of %d" % (missing, args.ranks * args.rounds))
    print("rank 0's and rank 1's files: " + ", ".join("%s %d B" % (k, v) for k, v in files.items()))
    if merges:
        outcomes = [o for o, _ in merges]
        print("SIGTERM to the launcher during the merge, %d rounds: the summary %d, every "
              "rank's own files %d, neither %d; hidden files left %d"
              % (len(merges), outcomes.count("summary"), outcomes.count("ranks"),
                 outcomes.count("neither"), sum(h for _, h in merges)))
    if survived:
        print("SIGTERM to the launcher, default kill window: ranks with their partial JSON "
              "per round: %s (of %d)" % (" ".join(str(n) for n in survived), args.ranks))


if __name__ == "__main__":
    main()
