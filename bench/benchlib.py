"""What the benchmark drivers share: how a program is run, how variants are
alternated, how they are compared, and how the comparison is printed.

The method is the one BENCHMARKS.md states ("How to read this page"): the
variants of a benchmark run alternated, the order rotating by one each
round, so that no variant always runs first or always follows the same
one; a variant is compared with its baseline within each round (variant ÷
baseline, or variant − baseline for an added cost), and a table gives the
median of those per-round figures with their range.  A ratio taken within
a round holds under load better than the absolute times it comes from.

    results = alternate(labels, rounds, run_one)      # {label: [one per round]}
    ratios(results["hooktrace"], results["plain"], "wall")
    ratio_table(labels, results, "plain", [Measure("wall", "wall s")])
"""

import contextlib
import json
import os
import platform
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time


# --- The machine -----------------------------------------------------------------

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


# --- Running one program -----------------------------------------------------------

def bench_env(extra_env=None):
    """The environment a benchmarked program runs in: no HOOKTRACE_* of the
    caller's, Open MPI allowed to run as root, and extra_env (a variable
    given as None is left out)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKTRACE_")}
    for k, v in (extra_env or {}).items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
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


class Run:
    """One process run by run(): its exit status and output, its wall and
    CPU seconds, the names of the files it left in its directory, what
    look(directory) returned, and error ("timeout", "failed (status N)") or
    None."""

    def __init__(self, cmd, returncode=None, stdout="", stderr="", wall=None, cpu=None,
                 written=(), seen=None, error=None):
        self.cmd, self.returncode, self.stdout, self.stderr = cmd, returncode, stdout, stderr
        self.wall, self.cpu, self.written, self.seen = wall, cpu, list(written), seen
        self.error = error


def run(cmd, config=None, env=None, scratch=None, timeout=600, look=None, tool="bench",
        check=True):
    """Runs cmd in a new empty directory under scratch (the default temporary
    directory if None), removed afterwards, with bench_env(env) as its
    environment and config (a dict, or None) as its HOOKTRACE_CONFIG;
    look(directory), if given, reads what the run wrote before the
    directory goes.  With check, a run that fails or times out ends the
    driver with its output; without, it is a Run with error set."""
    full_env = bench_env(env)
    with fresh_run_dir(scratch, config, full_env) as cwd:
        # A session of its own: on timeout the whole group goes (mpirun and
        # any rank it did not take down with it).
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=cwd, env=full_env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_group(proc)
            if check:
                sys.exit("%s: %s took more than %g s" % (tool, " ".join(cmd), timeout))
            return Run(cmd, error="timeout")
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # user + system seconds of the process and its children: unlike
        # wall, not lengthened while other work holds the cores
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if proc.returncode != 0:
            message = "%s: %s failed (status %d):\n%s%s" % (tool, " ".join(cmd), proc.returncode,
                                                           out[-2000:], err[-2000:])
            if check:
                sys.exit(message)
            print(message, file=sys.stderr)
            return Run(cmd, proc.returncode, out, err, wall, cpu,
                       error="failed (status %d)" % proc.returncode)
        return Run(cmd, 0, out, err, wall, cpu, sorted(os.listdir(cwd)),
                   look(cwd) if look else None)


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


# The other JSON files a run writes beside its profile (docs/output.md).
NOT_PROFILES = (".mpit.json", ".speedscope.json", ".hatchet.json")


def is_profile_name(name):
    """Whether a file name is a JSON profile's, not another JSON output's."""
    return name.endswith(".json") and not name.endswith(NOT_PROFILES)


def read_profile(cwd):
    """The JSON profile of the run in cwd (the only one there), or None."""
    names = [n for n in os.listdir(cwd) if is_profile_name(n)]
    if len(names) != 1:
        return None
    try:
        with open(os.path.join(cwd, names[0])) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


class Outcome:
    """One run of an application benchmark's program: wall, loop and CPU
    seconds, its checksum and JSON profile, or why there is none (error)."""

    def __init__(self, wall=None, loop=None, checksum=None, profile=None, written=(), error=None,
                 cpu=None):
        self.wall, self.loop, self.checksum = wall, loop, checksum
        self.profile, self.written, self.error = profile, list(written), error
        self.cpu = cpu


def run_program(tool, cmd, config, extra_env, scratch, timeout):
    """Runs cmd (a program printing checksum= and elapsed_s= lines) with
    run(); returns an Outcome with what it printed and wrote.  A failure is
    an Outcome with its error, not the end of the driver."""
    r = run(cmd, config, extra_env, scratch, timeout, look=read_profile, tool=tool, check=False)
    if r.error:
        return Outcome(error=r.error)
    m = re.search(r"^checksum=(.*)$", r.stdout, re.M)
    loop = re.search(r"elapsed_s=([0-9.]+)", r.stdout)
    if not m or not loop:
        print("%s: unexpected output from %s:\n%s" % (tool, " ".join(cmd), r.stdout),
              file=sys.stderr)
        return Outcome(error="no checksum")
    return Outcome(r.wall, float(loop.group(1)), m.group(1).strip(), r.seen, r.written,
                   cpu=r.cpu)


# --- Alternating variants ------------------------------------------------------------

def alternate(labels, rounds, run_one, title="", give_up=None):
    """Runs run_one(label) for every label, rounds times, the order rotating
    by one each round (so that no variant always runs first or always
    follows the same one); returns {label: [what run_one returned, one per
    round]}.  Once give_up(result) is true for a label, it is not run
    again: its later rounds repeat that result (a variant that timed out
    would only time out again).  A line per round goes to stderr."""
    labels = list(labels)
    results = {label: [] for label in labels}
    stopped = {}
    for r in range(rounds):
        shift = r % len(labels) if labels else 0
        for label in labels[shift:] + labels[:shift]:
            if label in stopped:
                results[label].append(stopped[label])
                continue
            result = run_one(label)
            results[label].append(result)
            if give_up is not None and give_up(result):
                stopped[label] = result
        print("%sround %d/%d done (load %s)" % (title + ": " if title else "", r + 1, rounds,
                                                loadavg()), file=sys.stderr, flush=True)
    return results


def alternate_programs(tool, title, labels, cmd_of, env, rounds, timeout, scratch, config=None):
    """alternate() of run_program(): cmd_of(label) run with config (a dict
    or None, or a function of the label giving one) and env; returns
    {label: [Outcome]}.  A label that timed out is not run again."""
    def run_one(label):
        conf = config(label) if callable(config) else config
        return run_program(tool, cmd_of(label), conf, env, scratch, timeout)
    return alternate(labels, rounds, run_one, title,
                     give_up=lambda outcome: outcome.error == "timeout")


# --- Comparing within rounds ----------------------------------------------------------

def value(result, key):
    """key of one round's result (an attribute, a dict key, or a function of
    the result), or None where the round has none (no result, an error)."""
    if result is None or getattr(result, "error", None) is not None:
        return None
    if callable(key):
        return key(result)
    if isinstance(result, dict):
        return result.get(key)
    return getattr(result, key, None)


def values(results, key):
    """The values of key over the rounds that have one."""
    return [v for v in (value(r, key) for r in results) if v is not None]


def ratios(results, base_results, key="wall"):
    """Per-round ratios variant ÷ baseline of key, over the rounds where
    both have a value (results: one per round, as from alternate())."""
    pairs = zip((value(r, key) for r in results), (value(b, key) for b in base_results))
    return [a / b for a, b in pairs if a is not None and b]


def differences(results, base_results, key):
    """Per-round differences variant − baseline of key, as ratios()."""
    pairs = zip((value(r, key) for r in results), (value(b, key) for b in base_results))
    return [a - b for a, b in pairs if a is not None and b is not None]


def median(xs):
    return statistics.median(xs) if xs else None


def spread(xs, quartiles=False):
    """(median, low, high) of xs: low and high the least and the greatest,
    or with quartiles the first and third quartiles; None if xs is empty."""
    if not xs:
        return None
    if quartiles and len(xs) >= 2:
        q = statistics.quantiles(xs, n=4)
        return statistics.median(xs), q[0], q[2]
    return statistics.median(xs), min(xs), max(xs)


def cell(xs, digits=3, quartiles=False, signed=False, scale=1.0):
    """The one format of a per-round figure: "1.019 (1.001..1.031)", the
    median and the range (or quartiles); "–" without values.  scale
    multiplies every value (1e3: seconds to ms); signed prints "+"."""
    s = spread([x * scale for x in xs], quartiles)
    if s is None:
        return "–"
    f = "%%%s.%df" % ("+" if signed else "", digits)
    return (f + " (" + f + ".." + f + ")") % s


def number(x, digits=3, scale=1.0):
    return "–" if x is None else "%.*f" % (digits, x * scale)


class Measure:
    """One figure of a comparison table: key (as value() takes it) and its
    column title; compare is "ratio" (variant ÷ baseline) or "difference"
    (variant − baseline, the added cost); digits for the median of the
    values and for the comparison, scale to convert units."""

    def __init__(self, key, title, compare="ratio", digits=3, ratio_digits=3, scale=1.0):
        self.key, self.title, self.compare = key, title, compare
        self.digits, self.ratio_digits, self.scale = digits, ratio_digits, scale
        # "wall s" -> "wall ÷ plain": a time's name without its unit
        words = title.split()
        self.short = " ".join(words[:-1]) if len(words) > 1 and words[-1] in ("s", "ms") \
            else title

    def per_round(self, results, base_results):
        if self.compare == "difference":
            return differences(results, base_results, self.key)
        return ratios(results, base_results, self.key)


def ratio_table(labels, results, baseline, measures, extra=None, quartiles=False,
                label_title="variant"):
    """Prints the comparison table every driver prints: a row per label
    with, for each Measure, the median of its values and the median
    (range) over the rounds of its per-round ratio to, or difference from,
    the baseline of the same round.  baseline is a label, or a function of
    a label giving its baseline (None: no comparison); then a column says
    which.  extra = (titles, cells): cells(label) gives that row's further
    cells.  A label whose rounds all failed shows why."""
    base_of = baseline if callable(baseline) else (lambda label: baseline)
    spread_name = "quartiles" if quartiles else "min..max"
    head = [label_title]
    for m in measures:
        head += ["%s (median)" % m.title, "%s %s %s, median (%s)" % (
            m.short, "÷" if m.compare == "ratio" else "−",
            "baseline" if callable(baseline) else baseline, spread_name)]
    if callable(baseline):
        head.append("baseline")
    head += list(extra[0]) if extra else []
    rows = []
    for label in labels:
        runs = results[label]
        errors = sorted({r.error for r in runs if getattr(r, "error", None)})
        if not values(runs, measures[0].key) and errors:
            rows.append([label, "; ".join(errors).replace("\n", " ")] + ["–"] * (len(head) - 2))
            continue
        base = base_of(label)
        row = [label + (" (%s in some rounds)" % "; ".join(errors) if errors else "")]
        for m in measures:
            row.append(number(median(values(runs, m.key)), m.digits, m.scale))
            if base is None or base == label:
                row.append("–")
            else:
                # A ratio has no unit to scale; a difference has the figure's.
                added = m.compare == "difference"
                row.append(cell(m.per_round(runs, results[base]), m.ratio_digits, quartiles,
                                signed=added, scale=m.scale if added else 1.0))
        if callable(baseline):
            row.append(base or "–")
        rows.append(row + (list(extra[1](label)) if extra else []))
    table(head, rows)


def checksums(labels, results, plain):
    """Says under a table whether every run of labels printed the checksum
    of the plain build's (results of run_program), and which runs failed."""
    ref = next((o.checksum for o in results[plain] if o.error is None), None)
    bad = []
    for label in labels:
        runs = results[label]
        bad += ["%s: %s" % (label, o.checksum) for o in runs
                if o.error is None and o.checksum != ref]
        failed = [o.error for o in runs if o.error]
        if failed:
            bad.append("%s: %d run(s) %s" % (label, len(failed), ", ".join(sorted(set(failed)))))
    if ref is None:
        print("No plain run completed: checksums not compared.")
    elif bad:
        print("**Not every run printed the plain build's checksum** (%s): %s."
              % (ref, "; ".join(bad)))
    else:
        print("Every run printed the plain build's checksum (%s)." % ref)
    print(flush=True)


def table(head, rows):
    """A markdown table: head the column titles, rows lists of cells; the
    first column left-aligned, the others right-aligned."""
    print("| " + " | ".join(head) + " |")
    print("|---|" + "---:|" * (len(head) - 1))
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")
    print(flush=True)


def header(title, command, lines=()):
    """The lines every report starts with: what ran, on which machine, when,
    under what load, and the command that ran it."""
    print("# %s" % title)
    print()
    print("- machine: %s, %d online CPUs, %s %s" % (cpu_model(), os.cpu_count() or 0,
                                                   platform.system(), platform.release()))
    print("- date: %s; load average before: %s" % (
        time.strftime("%Y-%m-%d %H:%M %Z"), loadavg()))
    print("- command: %s" % " ".join(["python3", command] + sys.argv[1:]))
    for line in lines:
        print("- %s" % line)
    print(flush=True)
