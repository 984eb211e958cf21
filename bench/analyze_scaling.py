"""make bench-analyze-scaling: hooktrace-analyze's parallel read, threads and
MPI ranks, against the serial read (docs/analyze.md, "Threads", "mpirun").

Writes two archives with bench/analyze_write_trace: the 10-million-event
ring of `make bench-analyze` (16 ranks x 80000 rounds x 8 events) and a
model of 10^4 locations (10000 ranks x ROUNDS10K rounds).  Then, ROUNDS
times, runs on each archive: --threads 1 (the serial read), --threads 2,
and `mpirun -np N hooktrace-analyze` for N = 1, 2 and 4 (Open MPI's mpirun,
or --launcher), every run with -q --json FILE; the order of the
configurations rotates from round to round.  Each run is timed as a whole
process tree (wall clock); wait4() gives its CPU time and the peak RSS of
its largest process (for mpirun: the largest rank or mpirun itself).  The
ratio to the serial read is computed within each round; the report gives
medians and ranges.  Every run's JSON must equal the serial run's.
Standard library only."""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import Measure, values  # noqa: E402
from analyze_bench import timed_rss, write_archive  # noqa: E402


SERIAL = "threads 1 (serial)"


def thread_cpu(argv):
    """Runs argv, sampling /proc/PID/task/*/stat every 5 ms: CPU seconds of
    the main thread and of all other threads together (the last sample of
    each; a thread's last 5 ms can be missed), and the times a thread went
    to sleep (voluntary context switches of all threads, from wait4)."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tick = os.sysconf("SC_CLK_TCK")
    last = {}
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            break
        try:
            for tid in os.listdir("/proc/%d/task" % proc.pid):
                with open("/proc/%d/task/%s/stat" % (proc.pid, tid)) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                last[int(tid)] = (int(fields[11]) + int(fields[12])) / tick
        except (FileNotFoundError, ProcessLookupError):
            pass
        time.sleep(0.005)
    main_s = last.get(proc.pid, 0.0)
    return main_s, sum(v for k, v in last.items() if k != proc.pid), usage.ru_nvcsw


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=80000, help="rounds of the 16-rank ring")
    ap.add_argument("--rounds10k", type=int, default=10, help="rounds of the 10000-rank model")
    ap.add_argument("--runs10k", type=int, default=2,
                    help="rounds of runs on the 10000-rank model (a minute per run)")
    ap.add_argument("--launcher", default=shutil.which("mpirun.openmpi") or "mpirun")
    ap.add_argument("--keep", metavar="DIR", help="write the archives here and keep them")
    args = ap.parse_args()

    builddir = os.path.abspath(args.builddir)
    analyze = os.path.join(builddir, "hooktrace-analyze")
    top = args.keep or tempfile.mkdtemp(prefix="hooktrace-bench-scaling-")
    os.makedirs(top, exist_ok=True)
    os.environ.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                       "OMPI_MCA_btl": "self,vader"})
    launch = [args.launcher] + (["--oversubscribe"] if "openmpi" in os.path.realpath(
        args.launcher) or "orterun" in os.path.realpath(args.launcher) else [])
    # label: (options, launcher prefix)
    configs = {SERIAL: (["--threads", "1"], []),
               "threads 2": (["--threads", "2"], []),
               "mpirun -np 1": ([], launch + ["-np", "1"]),
               "mpirun -np 2": ([], launch + ["-np", "2"]),
               "mpirun -np 4": ([], launch + ["-np", "4"])}
    archives = [("ring", 16, args.iterations, args.rounds),
                ("10k", 10000, args.rounds10k, args.runs10k)]
    load_before = benchlib.loadavg()
    start = time.time()
    results = {}
    try:
        for name, ranks, rounds, runs in archives:
            if runs == 0:
                continue
            d = os.path.join(top, name)
            shutil.rmtree(d, ignore_errors=True)
            write_s = write_archive(builddir, d, ranks, rounds)
            events = ranks * rounds * 8
            ref_json = os.path.join(top, "%s-ref.json" % name)
            timed_rss([analyze, "--threads", "1", "-q", "--json", ref_json, d])  # warm the cache
            with open(ref_json) as f:
                reference = f.read()
            def run_one(label, d=d, name=name, events=events, reference=reference):
                opts, prefix = configs[label]
                out = os.path.join(top, "%s-run.json" % name)
                wall, rss, _, share = timed_rss(prefix + [analyze] + opts
                                                + ["-q", "--json", out, d])
                with open(out) as f:
                    if f.read() != reference:
                        sys.exit("%s on %s: the JSON differs from the serial run's" % (label, name))
                return {"rate": events / wall, "wall": wall, "rss": rss, "share": share}

            rows = benchlib.alternate(list(configs), runs, run_one, "analyze_scaling " + name)
            # Where the CPU time goes, by thread: the model of an idle
            # machine, whatever the load while measuring.
            cpu = {t: [] for t in (1, 2, 3)}
            for _ in range(runs):
                for t in cpu:
                    cpu[t].append(thread_cpu([analyze, "--threads", str(t), "-q", "--json",
                                              os.path.join(top, "cpu.json"), d]))
            results[name] = (ranks, rounds, events, write_s, runs, rows, cpu)
            shutil.rmtree(d, ignore_errors=True)
        load_after = benchlib.loadavg()
    finally:
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)

    med = statistics.median
    print("## hooktrace-analyze: threads and MPI ranks against the serial read")
    print()
    print("- machine: %s, %d CPUs; load average before %s, after %s; %.0f s"
          % (benchlib.cpu_model(), os.cpu_count(), load_before, load_after, time.time() - start))
    print("- configurations alternated, the order rotating from round to round; launcher %s"
          % " ".join(launch))
    for name, (ranks, rounds, events, write_s, runs, rows, cpu) in results.items():
        print()
        print("### %d locations x %d rounds x 8 events = %d events (written in %.1f s), %d rounds"
              % (ranks, rounds, events, write_s, runs))
        print()
        # speed ÷ the serial read's in the same round
        benchlib.ratio_table(
            list(configs), rows, SERIAL, [Measure("rate", "M events/s", digits=2, ratio_digits=2,
                                                  scale=1e-6)],
            extra=(["events/s min..max", "wall (median)", "peak RSS per process (median)",
                    "CPU share (median)"], lambda label: [
                "%.2f..%.2f M" % (min(values(rows[label], "rate")) / 1e6,
                                  max(values(rows[label], "rate")) / 1e6),
                "%.2f s" % med(values(rows[label], "wall")),
                "%.1f MiB" % (med(values(rows[label], "rss")) / 1024),
                "%.2f" % med(values(rows[label], "share"))]), label_title="run")
        print("CPU seconds by thread (medians of %d runs) and the wall time they allow on 2 "
              "idle CPUs, max(main, total / 2):" % runs)
        print()
        serial_total = med([m + o for m, o, _ in cpu[1]])
        lines = []
        for t, samples in cpu.items():
            main_s, other = med([m for m, _, _ in samples]), med([o for _, o, _ in samples])
            total = med([m + o for m, o, _ in samples])
            bound = max(main_s, total / 2)
            lines.append(["threads %d" % t, "%.2f s" % main_s, "%.2f s" % other, "%.2f s" % total,
                          "%.2f s" % bound, "%.2fx" % (serial_total / bound),
                          "%d" % med([z for _, _, z in samples])])
        benchlib.table(["run", "main thread", "helper threads", "total", "bound on 2 idle CPUs",
                        "speed vs serial at that bound", "sleeps"], lines)


if __name__ == "__main__":
    main()
