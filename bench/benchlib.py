"""What every benchmark driver says about the machine it ran on, and how it
runs one program of an application benchmark."""

import contextlib
import json
import os
import platform
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def cpu_model():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    return platform.processor() or "unknown"


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def mpi_version(mpiexec):
    try:
        out = subprocess.run([mpiexec, "--version"], capture_output=True, text=True,
                             timeout=30).stdout
        return out.strip().splitlines()[0] if out.strip() else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


class Outcome:
    """One run: wall seconds, or why there is none (timeout, failed)."""

    def __init__(self, wall=None, loop=None, checksum=None, profile=None, written=(), error=None,
                 cpu=None):
        self.wall, self.loop, self.checksum = wall, loop, checksum
        self.profile, self.written, self.error = profile, list(written), error
        # user + system seconds of the process and its children: unlike
        # wall, not lengthened while other work holds the cores
        self.cpu = cpu


def bench_env(extra_env=None):
    """The environment a benchmarked program runs in: no HOOKTRACE_* of the
    caller's, Open MPI allowed to run as root."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKTRACE_")}
    env.update(extra_env or {})
    if os.geteuid() == 0:
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    return env


@contextlib.contextmanager
def fresh_run_dir(scratch, config, env):
    """A new empty directory under scratch for one run, with config (a dict,
    or None) written beside it and named in env's HOOKTRACE_CONFIG; both are
    removed afterwards."""
    cwd = tempfile.mkdtemp(prefix="run-", dir=scratch)
    try:
        if config is not None:
            # Outside cwd, so that cwd holds only what the run wrote.
            with open(cwd + ".json", "w") as f:
                json.dump(config, f)
            env["HOOKTRACE_CONFIG"] = cwd + ".json"
        yield cwd
    finally:
        shutil.rmtree(cwd, ignore_errors=True)
        if config is not None:
            try:
                os.unlink(cwd + ".json")
            except OSError:
                pass


def run_program(tool, cmd, config, extra_env, scratch, timeout):
    """Runs cmd (a program printing checksum= and elapsed_s= lines) in a fresh
    directory under scratch, with config (a dict, or None) as its
    HOOKTRACE_CONFIG; returns an Outcome with what it printed and wrote."""
    env = bench_env(extra_env)
    with fresh_run_dir(scratch, config, env) as cwd:
        # A session of its own: on timeout the whole group goes (mpirun and
        # any rank it did not take down with it).
        t0 = time.monotonic()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_group(proc)
            return Outcome(error="timeout")
        wall = time.monotonic() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if proc.returncode != 0:
            print("%s: %s failed (status %d):\n%s%s" % (tool, " ".join(cmd), proc.returncode,
                                                    out[-2000:], err[-2000:]),
                  file=sys.stderr)
            return Outcome(error="failed (status %d)" % proc.returncode)
        m = re.search(r"^checksum=(.*)$", out, re.M)
        loop = re.search(r"elapsed_s=([0-9.]+)", out)
        if not m or not loop:
            print("%s: unexpected output from %s:\n%s" % (tool, " ".join(cmd), out),
                  file=sys.stderr)
            return Outcome(error="no checksum")
        written = sorted(os.listdir(cwd))
        return Outcome(wall, float(loop.group(1)), m.group(1).strip(), read_profile(cwd),
                       written, cpu=cpu)


def alternate(tool, title, labels, cmd_of, env, rounds, timeout, scratch, config=None):
    """Runs cmd_of(label) for each label in turn, rounds times, the order
    rotating by one each round (so that no variant always follows the same
    one), each run by run_program with config (a dict or None, or a function
    of the label giving one); returns {label: [Outcome]},
    one per round.  A label that timed out is not run again (its later
    rounds are timeouts too).  Ratios are then taken between runs of the
    same round: see ratios()."""
    results = {label: [] for label in labels}
    for r in range(rounds):
        order = labels[r % len(labels):] + labels[:r % len(labels)]
        for label in order:
            if results[label] and results[label][-1].error == "timeout":
                results[label].append(Outcome(error="timeout"))
                continue
            conf = config(label) if callable(config) else config
            results[label].append(run_program(tool, cmd_of(label), conf, env, scratch, timeout))
        print("%s: round %d/%d done (load %s)" % (title, r + 1, rounds, loadavg()),
              file=sys.stderr, flush=True)
    return results


def ratios(runs, base_runs, attr="wall"):
    """Same-round ratios runs[i].attr / base_runs[i].attr over the rounds
    where both completed (Outcomes from alternate())."""
    return [getattr(o, attr) / getattr(b, attr) for o, b in zip(runs, base_runs)
            if o.error is None and b.error is None and getattr(b, attr)]


def kill_group(proc):
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            proc.communicate(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def read_profile(cwd):
    """The JSON profile of the run in cwd (the only .json there), or None."""
    names = [n for n in os.listdir(cwd) if n.endswith(".json")]
    if len(names) != 1:
        return None
    try:
        with open(os.path.join(cwd, names[0])) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None
