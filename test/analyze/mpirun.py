"""mpirun -np N hooktrace-analyze: the ranks share the locations and rank 0
alone writes, so the outputs (text on standard output, JSON, CSV, SVG,
HTML) and the exit status are the serial read's byte for byte, under Open
MPI's mpirun and MPICH's Hydra, with 2 and 3 ranks (and 5, more ranks than
locations), on archives with wait states, unmatched messages, warnings,
an idle location and 40 locations.  On damaged archives (a location's
events cut in half, the definitions cut in half, an event file missing) and
an unwritable CSV path (rank 0 alone fails), every launch agrees: exit
status 1, one line of hooktrace-analyze's on standard error, the serial
read's, within the timeout, three launches each.  A launcher that is
missing, or whose MPI has no hooktrace-analyze-mpi in this build, is
skipped.
docs/analyze.md, "mpirun"."""

import os
import re
import shutil
import subprocess

from analyzelib import ANALYZE, BUILDDIR, all_outputs, check, check_eq, finish, scratch, write

BENCH_WRITER = os.path.join(BUILDDIR, "bench", "analyze_write_trace")
PRIMARY = {"ompi-c": "openmpi", "mpich": "mpich"}.get(os.environ.get("HT_MPI_NAME", ""), "")


def launcher(family):
    """(command prefix without -n, environment) or None."""
    built = os.path.join(BUILDDIR, "hooktrace-analyze-mpi") if family == PRIMARY else \
        os.path.join(BUILDDIR, "mpi-" + family, "hooktrace-analyze-mpi")
    if not os.path.exists(built):
        return None
    env = dict(os.environ)
    for k in list(env):  # not inside another launch
        if k.startswith(("OMPI_", "PMI_", "PMIX_")):
            del env[k]
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    if family == "openmpi":
        exe = shutil.which("mpirun.openmpi")
        env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                    "OMPI_MCA_btl": "self,vader"})
        return ([exe, "--oversubscribe"], env) if exe else None
    exe = shutil.which("mpiexec.hydra") or shutil.which("mpiexec.mpich")
    return ([exe], env) if exe else None


def outputs(prefix, directory, name, env=None):
    """The text report comes on stdout: what rank 0 alone must write."""
    proc, got = all_outputs(prefix + [ANALYZE], directory, name, ("json", "csv", "svg", "html"),
                            env)
    got.update(status=proc.returncode, txt=proc.stdout)
    return got, proc.stderr


ring40 = scratch("ring40")
subprocess.run([BENCH_WRITER, ring40, "40", "250"], check=True, stdout=subprocess.DEVNULL)
archives = [(s, write(s)) for s in ("late_sender", "collective_waits", "missing_receive",
                                    "request_errors", "idle_thread", "clock_skewed",
                                    "order_violations")] + [("ring40", ring40)]

ran = 0
for family in ("openmpi", "mpich"):
    found = launcher(family)
    if not found:
        print("SKIP: %s: no launcher or no hooktrace-analyze-mpi for it" % family)
        continue
    prefix, env = found
    for name, directory in archives:
        serial, _ = outputs([], directory, "%s-serial-%s" % (name, family), env=None)
        check_eq(serial["status"], 0, "%s: serial exit status" % name)
        check(serial["txt"].startswith(b"hooktrace-analyze: "), "%s: serial text report" % name)
        # 3 ranks for every archive (shares of unequal size); 2 and 5 (more
        # ranks than its 4 locations) for two of them, to keep the test short.
        for ranks in (2, 3, 5) if name == "late_sender" else (2, 3) if name == "ring40" else (3,):
            got, stderr = outputs(prefix + ["-n", str(ranks)], directory,
                                  "%s-%s-%d" % (name, family, ranks), env=env)
            ran += 1
            for k in ("status", "txt", "json", "csv", "svg", "html"):
                check(got[k] == serial[k], "%s -n %d (%s): %s differs from the serial run's%s"
                      % (name, ranks, family, k, ": " + stderr.decode()[-500:] if stderr else ""))



def damaged(name, change):
    directory = os.path.join(scratch("damaged-" + name), "archive")
    shutil.copytree(archives[2][1], directory)  # missing_receive
    change(directory)
    return directory


def truncate(path):
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) // 2)


failures = [("events cut", damaged("events", lambda d: truncate(os.path.join(d, "traces", "100.evt"))), []),
            ("definitions cut", damaged("defs", lambda d: truncate(os.path.join(d, "traces.def"))), []),
            ("event file missing", damaged("missing", lambda d: os.remove(os.path.join(d, "traces", "101.evt"))),
             []),
            ("unwritable CSV", archives[2][1], ["--csv", "/proc/hooktrace-no-such-dir/m.csv"])]
for family in ("openmpi", "mpich"):
    found = launcher(family)
    if not found:
        continue
    prefix, env = found
    for what, directory, extra in failures:
        serial = subprocess.run([ANALYZE, "-q"] + extra + [directory], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
        check_eq(serial.returncode, 1, "%s: the serial read's status" % what)
        # (The events read before the error depend on the shares: no digits.)
        mine = [re.sub(r"[0-9]+", "N", l) for l in serial.stderr.splitlines()
                if l.startswith("hooktrace-analyze: ")]
        check_eq(len(mine), 1, "%s: the serial read says it once: %s" % (what, serial.stderr))
        for launch in range(3):
            try:
                proc = subprocess.run(prefix + ["-n", "3", ANALYZE, "-q"] + extra + [directory],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      universal_newlines=True, env=env, timeout=120)
            except subprocess.TimeoutExpired:
                check(False, "%s (%s, launch %d): the launch ended" % (what, family, launch))
                continue
            ran += 1
            got = [re.sub(r"[0-9]+", "N", l) for l in proc.stderr.splitlines()
                   if l.startswith("hooktrace-analyze: ")]
            check_eq((proc.returncode, got), (1, mine),
                     "%s (%s, launch %d): status 1 and the serial read's one line (stderr: %s)"
                     % (what, family, launch, proc.stderr[-1500:]))

if ran == 0:
    print("SKIP: no MPI launcher with its hooktrace-analyze-mpi")
    raise SystemExit(77)
finish()
