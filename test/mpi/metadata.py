"""The metadata of an MPI run (test/mpi/library_version.c on 3 ranks, rank 1
also writing its own files): the summary's names the ranks, each rank's
threads and host, the MPI library as MPI_Get_library_version's first line
(the program prints it); rank 1's file names itself; both carry the
effective config and the command line as given.  The Hatchet files carry
the same object."""
import json
import os
import re
import socket

from mpilib import *

require_launcher()
N = 3
exe = mpi_program("library_version")
config = {"sort_by": "calls", "mpi": {"rank_files": [1]}, "outputs": {"hatchet": True}}
r = mpirun(exe, N, args=["--size", "7"], config=config)
check_status(r, 0, "library_version")
library = re.sub(r"\s+", " ", r.stdout.split("\n")[0]).strip()
check(library != "", "the program printed its MPI library")
host = socket.gethostname()
for what, p, rank in (("summary", r.summary(), None), ("rank 1", r.rank_profile(1), 1)):
    if p is None:
        check(False, what + ": profile written")
        continue
    meta = p.doc.get("metadata", {})
    check_eq(meta.get("command"), [exe, "--size", "7"], what + ": the arguments")
    check_eq(meta.get("ranks"), N, what + ": ranks")
    check_eq(meta.get("rank"), rank, what + ": the rank whose file it is")
    check_eq(meta.get("threads"), 1, what + ": threads")
    check_eq(meta.get("rank_threads"), [1] * N if rank is None else None,
             what + ": each rank's threads (summary only)")
    check_eq(meta.get("host"), host, what + ": the writer's host")
    check_eq(meta.get("hosts"), [host], what + ": the hosts, each once")
    check_eq(meta.get("rank_hosts"), [0] * N if rank is None else [0], what + ": rank -> host")
    check_eq(meta.get("mpi_library"), library, what + ": the MPI library's first line")
    check_eq(meta.get("start_time"), p.doc["start_time"], what + ": start time")
    check_eq(meta.get("config", {}).get("sort_by"), "calls", what + ": config sort_by")
    check_eq(meta.get("config", {}).get("mpi", {}).get("rank_files"), [1],
             what + ": config mpi.rank_files")
    hatchet = json.loads(r.text(("_1" if rank else "") + ".hatchet.json"))
    check_eq(hatchet.get("metadata") if isinstance(hatchet, dict) else None, meta,
             what + ": the Hatchet file's metadata is the JSON's")
finish()
