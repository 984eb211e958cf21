#!/usr/bin/env python3
"""Application proxies: what hooktrace costs a whole run of two
application-shaped programs, against the same program built without it.
Prints markdown tables.

1. bench/lulesh_proxy.cpp, serial C++ (LULESH-style Domain class, inline
   accessors in every hot loop: over a billion instrumented calls a run):
     plain                        -O2 -g, no hooktrace
     hooktrace                    -finstrument-functions, libhooktrace,
                                  HOOKTRACE_CONFIG unset
     hooktrace, throttling off    the same binary, {"throttle": {"enabled": false}}
     hooktrace, HOOKTRACE_OFF=1   the same binary, profiling off
     hooktrace, all throttled at once   min_calls 1: every hook call
                                  rewritten at once (the compiled-in floor)
     hooktrace, recompiled with its exclude list   built by the driver with
                                  the -finstrument-functions-exclude-function-list
                                  a default run's profile names
2. bench/halo.c, MPI halo exchange on --ranks ranks (default 8, more than
   this machine may have cores: Open MPI gets --oversubscribe), hooks
   running while the exchange's requests are open:
     plain, hooktrace, and hooktrace with {"mpi": {"poll_interval_us": 0}}
     (polls on every hook: may be very slow, hence the time limit), and
     both with throttling off (every hook runs while requests are open)

The variants of a program run alternated (the order rotates each round)
for --rounds rounds; the table gives the median wall time of the whole run
(what a user waits for, profile writing included), the program's own loop
time, and the median (range) over rounds of the ratio to plain of the
same round.
For hooktrace runs it reads the JSON profile the run wrote (the program's
name + .json) and gives its "throttle" figures.  A run that exceeds its
time limit (--timeout, --halo-timeout) is killed and its variant reported
as "timeout", a run that fails as "failed" (neither is run again).
Below each table: whether every run printed the plain build's checksum.

Usage (from the build directory; `make bench-apps` does this):
    python3 bench/apps_cost.py [--builddir DIR] [--mpiexec mpirun] [--mpi ompi-c|mpich]
                               [--rounds 5] [--timeout 180] [--halo-timeout 60] [--quick]
                               [--only lulesh|halo]   (--help for the rest)

Stdlib only.  Every run happens in its own empty temporary directory, which
is deleted afterwards.
"""
import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import Measure, median, run_program  # noqa: E402

PLAIN = "plain"
# label: (program, config or None, extra environment, writes a profile)
LULESH_VARIANTS = {
    PLAIN: ("lulesh_proxy_plain", None, {}, False),
    "hooktrace": ("lulesh_proxy_hooktrace", None, {}, True),
    "hooktrace, throttling off": ("lulesh_proxy_hooktrace", {"throttle": {"enabled": False}}, {},
                                  True),
    "hooktrace, HOOKTRACE_OFF=1": ("lulesh_proxy_hooktrace", None, {"HOOKTRACE_OFF": "1"}, False),
    # Every function but main throttled at its second call, so every hook
    # call is rewritten at once: what is left is compiled into the code.
    "hooktrace, all throttled at once": (
        "lulesh_proxy_hooktrace", {"throttle": {"min_calls": 1, "max_ns_per_call": 1000000000}},
        {}, True),
}
# Built by the driver (build_excluded): the proxy recompiled with the
# exclude list a default hooktrace run printed.
EXCLUDED = "hooktrace, recompiled with its exclude list"
HALO_VARIANTS = {
    PLAIN: ("halo_plain", None, {}, False),
    "hooktrace": ("halo_hooktrace", None, {}, True),
    "hooktrace, mpi.poll_interval_us 0": ("halo_hooktrace", {"mpi": {"poll_interval_us": 0}}, {},
                                          True),
    # Every hook runs, millions a second, with the exchange's requests open:
    # what bounds polling is its pacing alone.
    "hooktrace, throttling off": ("halo_hooktrace", {"throttle": {"enabled": False}}, {}, True),
    "hooktrace, throttling off, poll_interval_us 0": (
        "halo_hooktrace", {"throttle": {"enabled": False}, "mpi": {"poll_interval_us": 0}}, {},
        True),
}


def bench(name, variants, cmd_of, args, scratch, timeout):
    """Runs the variants alternated; returns {label: [Outcome]}."""
    def run_one(label):
        prog, config, extra_env, profiled = variants[label]
        o = run_program("apps_cost", cmd_of(prog), config, extra_env, scratch, timeout)
        if o.error is None:
            enabled = throttle_field(o.profile, "enabled")
            if profiled and o.profile is None:
                o.error = "no JSON profile written"
            elif profiled and enabled is not None and enabled != wants_throttling(config):
                o.error = "throttle.enabled not as configured"
            elif not profiled and o.written:
                o.error = "wrote %s" % ", ".join(o.written)
        return o

    # A variant that timed out or failed once is not run again: the next
    # rounds would only repeat the wait.
    return benchlib.alternate(list(variants), args.rounds, run_one, name,
                              give_up=lambda o: o.error is not None)


def build_excluded(args, bindir, scratch, lulesh_args):
    """Runs the instrumented proxy once with defaults, then compiles it again
    with GCC's -finstrument-functions-exclude-function-list= set to the
    throttled functions its profile names, as docs/throttle.md tells users
    to.  Returns the binary's path, or None (with the reason on stderr)."""
    o = run_program("apps_cost", [os.path.join(bindir, "lulesh_proxy_hooktrace")] + lulesh_args, None,
                    {}, scratch, args.timeout)
    listed = throttle_field(o.profile, "exclude_function_list")
    if o.error is not None or not listed:
        print("apps_cost: no exclude list (%s)" % (o.error or "nothing throttled"), file=sys.stderr)
        return None
    srcdir = os.path.dirname(os.path.abspath(__file__))
    libdir = os.path.join(os.path.abspath(args.builddir), ".libs")
    exe = os.path.join(scratch, "lulesh_proxy_excluded")
    cmd = shlex.split(args.cxx) + ["-O2", "-g", "-finstrument-functions",
                                   "-finstrument-functions-exclude-function-list=" + listed,
                                   os.path.join(srcdir, "lulesh_proxy.cpp"), "-o", exe,
                                   "-L" + libdir, "-Wl,-rpath," + libdir, "-lhooktrace"]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    if done.returncode != 0:
        print("apps_cost: recompiling with the exclude list failed:\n" + done.stdout,
              file=sys.stderr)
        return None
    print("apps_cost: recompiled with the %d entries of the exclude list" % len(listed.split(",")),
          file=sys.stderr)
    return exe


def wants_throttling(config):
    return (config or {}).get("throttle", {}).get("enabled", True)


def throttle_field(profile, key):
    th = profile.get("throttle") if profile else None
    return th.get(key) if isinstance(th, dict) else None


def report(title, variants, results, args, params):
    print("## %s" % title)
    print()
    print("%s; %d round%s, variants alternated.  Wall: the whole run as timed by the driver "
          "(process start to exit, profile writing included); loop: the program's own timed "
          "part.  Ratios: median (range) over rounds of variant ÷ plain of the same round."
          % (params, args.rounds, "" if args.rounds == 1 else "s"))
    print()

    def profile_cells(label):
        """The throttling figures of the label's profiles (medians)."""
        if not variants[label][3]:
            return ["–"] * 4
        profiles = [o.profile for o in results[label] if o.error is None]
        cells = []
        for get, fmt in ((lambda p: throttle_field(p, "functions"), "%d"),
                         (lambda p: throttle_field(p, "sites_patched"), "%d"),
                         (lambda p: p.get("overhead", {}).get("calls"), "%.3g"),
                         (lambda p: throttle_field(p, "hook_calls_saved"), "%.3g")):
            found = [v for v in map(get, profiles) if isinstance(v, (int, float))]
            cells.append(fmt % median(found) if found else "?")
        return cells

    benchlib.ratio_table(list(variants), results, PLAIN,
                         [Measure("wall", "wall s", digits=2, ratio_digits=2),
                          Measure("loop", "loop s", digits=2, ratio_digits=2)],
                         extra=(["functions throttled", "sites patched", "calls recorded",
                                 "hook calls saved (JSON)"], profile_cells))
    benchlib.checksums(list(variants), results, PLAIN)


def lulesh_notes(results):
    """Instrumented calls per run, from the throttling-off profile."""
    off = [o for o in results.get("hooktrace, throttling off", []) if o.error is None]
    calls = [o.profile.get("overhead", {}).get("calls") for o in off if o.profile]
    calls = [c for c in calls if isinstance(c, (int, float))]
    loop = median(benchlib.values(results[PLAIN], "loop"))
    if calls and loop:
        c = median(calls)
        print("Instrumented calls per run (the throttling-off profile's overhead.calls, all of "
              "them recorded): %.3g, i.e. %.3g per second of the plain build's loop (%.2f s).  "
              "With throttling on, the JSON's hook_calls_saved column is hooktrace's own "
              "estimate of the calls it avoided." % (c, c / loop, loop))
        print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builddir", default=os.environ.get("HT_TOP_BUILDDIR", "."),
                    help="top build directory (holds bench/lulesh_proxy_* and bench/halo_*)")
    ap.add_argument("--mpiexec", default=os.environ.get("HT_MPIEXEC", "mpirun"))
    ap.add_argument("--mpi", default=os.environ.get("HT_MPI_NAME", "ompi-c"),
                    help="MPI library configured (ompi-c or mpich): picks the launch options")
    ap.add_argument("--ranks", type=int, default=8, help="ranks of the halo runs (default 8)")
    ap.add_argument("--cxx", default=os.environ.get("CXX", "g++"),
                    help="C++ compiler for the recompiled proxy (default $CXX or g++)")
    ap.add_argument("--mpiexec-args", default=None,
                    help="launch options (default for Open MPI: '-np RANKS --oversubscribe'; "
                         "for MPICH: '-n RANKS')")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=180.0,
                    help="seconds one LULESH proxy run may take before it is killed and its "
                         "variant reported as timeout (default 180: the throttling-off run "
                         "takes over a minute)")
    ap.add_argument("--halo-timeout", type=float, default=60.0,
                    help="the same for one halo run (default 60)")
    ap.add_argument("--lulesh-size", type=int, default=30, help="mesh edge (default 30)")
    ap.add_argument("--lulesh-iterations", type=int, default=120)
    ap.add_argument("--halo-size", type=int, default=1536, help="grid edge (default 1536)")
    ap.add_argument("--halo-iterations", type=int, default=300)
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: 1 round, small problems, 30 s time limit")
    ap.add_argument("--only", choices=["lulesh", "halo"], help="run one program only")
    args = ap.parse_args()
    if args.quick:
        args.rounds, args.timeout, args.halo_timeout = 1, 30.0, 30.0
        args.lulesh_size, args.lulesh_iterations = 16, 30
        args.halo_size, args.halo_iterations = 512, 60
    if args.mpiexec_args is None:
        args.mpiexec_args = ("-n %d" % args.ranks if args.mpi == "mpich"
                             else "-np %d --oversubscribe" % args.ranks)

    bindir = os.path.join(os.path.abspath(args.builddir), "bench")
    programs = [v[0] for v in list(LULESH_VARIANTS.values()) + list(HALO_VARIANTS.values())]
    for prog in sorted(set(programs)):
        if not os.access(os.path.join(bindir, prog), os.X_OK):
            sys.exit("apps_cost: %s/%s not built: run `make bench-apps`" % (bindir, prog))

    benchlib.header("Application proxies", "bench/apps_cost.py", [
        "MPI: %s; launch: %s %s" % (benchlib.mpi_version(shlex.split(args.mpiexec)[0]),
                                    args.mpiexec, args.mpiexec_args)])
    scratch = tempfile.mkdtemp(prefix="hooktrace-bench-apps-")
    try:
        if args.only in (None, "lulesh"):
            lulesh_args = ["-s", str(args.lulesh_size), "-i", str(args.lulesh_iterations)]
            variants = dict(LULESH_VARIANTS)
            excluded = build_excluded(args, bindir, scratch, lulesh_args)
            if excluded:
                variants[EXCLUDED] = (excluded, None, {}, True)
            res = bench("lulesh", variants,
                        lambda prog: [os.path.join(bindir, prog)] + lulesh_args,
                        args, scratch, args.timeout)
            report("LULESH proxy (serial C++)", variants, res, args,
                   "bench/lulesh_proxy %s (%d elements)"
                   % (" ".join(lulesh_args), args.lulesh_size ** 3))
            lulesh_notes(res)
        if args.only in (None, "halo"):
            halo_args = ["-n", str(args.halo_size), "-i", str(args.halo_iterations)]
            launch = shlex.split(args.mpiexec) + shlex.split(args.mpiexec_args)
            res = bench("halo", HALO_VARIANTS,
                        lambda prog: launch + [os.path.join(bindir, prog)] + halo_args,
                        args, scratch, args.halo_timeout)
            report("Halo exchange (MPI, %d ranks)" % args.ranks, HALO_VARIANTS, res, args,
                   "bench/halo %s under `%s %s`" % (" ".join(halo_args), args.mpiexec,
                                                    args.mpiexec_args))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("- load average after the run: %s" % benchlib.loadavg())


if __name__ == "__main__":
    main()
