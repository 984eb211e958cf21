"""Functions of a library every rank dlopens, calls and dlcloses before
MPI_Finalize (docs/symbols.md, "Libraries closed with dlclose"), 2 ranks:
named once for the job by rank 0 from the key (path identity, offset) every
rank computes for the closed library, with exact counts and file:line;
once, and open/close/open again."""
import os

from mpilib import *

require_launcher()
N = 2
LIBRARY = os.path.join(BUILDDIR, "test", "programs", ".libs", "libdlclosefix.so")
SRCDIR = os.environ.get("HT_TOP_SRCDIR", BUILDDIR)
SOURCE = os.path.normpath(os.path.join(SRCDIR, "test", "programs", "dlclose_lib.c"))
ALPHA, BETA = "main;cycle;dlc_alpha", "main;cycle;dlc_beta"

for args, cycles, what in ((["1"], 1, "open, call, close"),
                           (["1", "open"], 2, "open, close, open again")):
    r = mpirun(mpi_program("dlclose_mpi"), N, args=[LIBRARY] + args,
               config={"mpi": {"rank_files": [0, 1]}})
    check_status(r, 0, what)
    check_eq(r.stdout, "dlclose_main: %d\n" % (32 * cycles), what + ": rank 0's output")
    p = r.summary()
    if p is None:
        continue
    expect_total_calls(p, {"main;cycle": N * cycles, ALPHA: N * 3 * cycles,
                           BETA: N * 5 * cycles}, what)
    for path, line in ((ALPHA, 8), (BETA, 13)):
        s = p.stack(path)
        check_eq((s["file"], s["line"]), (SOURCE, line), "%s: %s's file and line" % (what, path))
    check(not any(f["name"].startswith("0x") or "+0x" in f["name"] for f in p.doc["functions"]),
          "%s: no function left unnamed: %r" % (what, sorted(f["name"] for f in p.doc["functions"])))
    for rank in range(N):
        rp = r.rank_profile(rank)
        if rp is None:
            continue
        check_eq(rp.calls(ALPHA), 3 * cycles, "%s: rank %d's own file: dlc_alpha" % (what, rank))
        check_eq(rp.stack(BETA)["file"], SOURCE, "%s: rank %d's own file: dlc_beta's file" % (what, rank))
        check_eq(rp.doc["symbols"]["named_here"], 0,
                 "%s: rank %d named nothing itself (rank 0's table has the closed library)"
                 % (what, rank))
finish()
