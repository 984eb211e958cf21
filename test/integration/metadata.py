"""The profile's "metadata" object (docs/output.md): the command line as
given, ranks, threads, start time, host, compiler (the executable's DWARF
producer, as readelf reads it), hooktrace's version, the job id a launcher
set, and the effective config: the file's values after the environment's."""
import calendar
import os
import re
import socket
import subprocess
import time

from htlib import *

HERE = os.path.dirname(os.path.abspath(__file__))


def package_version():
    with open(os.path.join(HERE, "..", "..", "configure.ac")) as f:
        return re.search(r"AC_INIT\(\[hooktrace\],\s*\[([^\]]+)\]", f.read()).group(1)


def dwarf_producer(exe):
    """The first DW_AT_producer of a compiler's unit, as readelf prints it."""
    out = subprocess.run(["readelf", "--debug-dump=info", exe], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, universal_newlines=True).stdout
    for line in out.split("\n"):
        m = re.search(r"DW_AT_producer\s*:\s*(?:\(indirect[^)]*\):\s*)?(.*)$", line)
        if m and not m.group(1).startswith("GNU AS"):
            return m.group(1).strip()
    return None


exe = program("basic")
config = {"sort_by": "calls", "max_stack_depth": 50, "output_directory": "not-used",
          "outputs": {"folded": True, "speedscope": False}, "throttle": {"never": ["leaf"]},
          "mpi": {"rank_files": [0, 2]}}
before = int(time.time())
r = run(exe, args=["two words", "--flag=1"], config=config,
        env={"HOOKTRACE_OUTPUT_DIRECTORY": ".", "SLURM_JOB_ID": "4242"})
after = int(time.time())
check_eq(r.returncode, 0, "exit status")
doc = r.profile().doc
meta = doc.get("metadata", {})
check_eq(meta.get("command"), [exe, "two words", "--flag=1"], "the arguments as given")
check_eq(meta.get("executable"), os.path.realpath(exe), "the executable")
check_eq(meta.get("ranks"), 1, "a process without MPI is one rank")
check_eq("rank" in meta, False, "no rank number without MPI")
check_eq(meta.get("threads"), doc["threads"], "threads")
check_eq(meta.get("threads"), 1, "basic runs one thread")
check_eq(meta.get("start_time"), doc["start_time"], "the start as the header's")
epoch = meta.get("start_time_epoch_s", 0)
check(before - 1 <= epoch <= after, "the start in epoch seconds, within the run: %s" % epoch)
check_eq(time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch)), meta.get("start_time"),
         "epoch and ISO 8601 are the same second")
check_eq(meta.get("host"), socket.gethostname(), "the host")
check_eq(meta.get("hosts"), [socket.gethostname()], "the hosts")
check_eq(meta.get("rank_hosts"), [0], "rank 0 on hosts[0]")
check_eq(meta.get("mpi_library"), None, "no MPI library")
check_eq(meta.get("compiler"), dwarf_producer(exe), "the compiler, as DWARF says")
# GCC's producer starts "GNU C", clang's names it (CI's clang stage runs this test too).
compiler = meta.get("compiler") or ""
check(compiler.startswith("GNU C") or "clang version" in compiler,
      "a compiler's name, GCC's or clang's: %r" % compiler)
check_eq(meta.get("hooktrace_version"), package_version(), "hooktrace's version")
check_eq(meta.get("hooktrace_version"), doc["hooktrace_version"], "the same as the header's")
check_eq(meta.get("job_id"), "4242", "the job id")
check_eq(meta.get("job_id_variable"), "SLURM_JOB_ID", "where the job id came from")
cfg = meta.get("config", {})
check_eq(cfg.get("sort_by"), "calls", "config: sort_by from the file")
check_eq(cfg.get("max_stack_depth"), 50, "config: max_stack_depth from the file")
check_eq(cfg.get("output_directory"), ".", "config: the environment's output directory")
check_eq(cfg.get("outputs", {}).get("folded"), True, "config: outputs.folded")
check_eq(cfg.get("outputs", {}).get("speedscope"), False, "config: outputs.speedscope")
check_eq(cfg.get("outputs", {}).get("json"), True, "config: outputs.json by default")
check_eq(cfg.get("throttle", {}).get("never"), ["leaf"], "config: throttle.never")
check_eq(cfg.get("mpi", {}).get("rank_files"), [0, 2], "config: mpi.rank_files")
check_eq(cfg.get("mpi", {}).get("log_ranks"), "all", "config: mpi.log_ranks by default")
check_eq(cfg.get("counters"), [], "config: no counters")
check_eq(cfg.get("off"), False, "config: off")

# Without a launcher's job id: null.
r = run(exe, env={"SLURM_JOB_ID": "", "PBS_JOBID": ""})
meta = r.profile().doc.get("metadata", {})
check_eq(meta.get("command"), [exe], "no arguments")
check_eq(meta.get("job_id"), None, "no job id")
check_eq(meta.get("config", {}).get("sort_by"), "time_excl", "config: the default sort_by")
finish()
