"""Functions named once per job (docs/symbols.md, "In an MPI run"), on
test/mpi/names_mpmd.c, 2 ranks: rank 0 names every function of both ranks
that it can, and rank 1 names itself only the two functions of
libsharedfix.so, which it alone dlopened.  Every name, file and count is
what each rank would have found by itself."""
import os

from mpilib import *

require_launcher()
N = 2
LIBRARY = os.path.join(BUILDDIR, "test", "programs", ".libs", "libsharedfix.so")
SUM, SQUARE = "main;shared_sum_squares", "main;shared_sum_squares;shared_square"

r = mpirun(mpi_program("names_mpmd"), N, args=[LIBRARY], config={"mpi": {"rank_files": [0, 1]}})
check_status(r, 0, "names_mpmd")
check_eq(r.stdout, "names_mpmd: 55\n", "the program's output (1 + 4 + 9 + 16 + 25)")
p = r.summary()
expect_total_calls(p, {"main": N, "main;common": 3 * N, SUM: 1, SQUARE: 5})
for path in (SUM, SQUARE):
    s = p.stack(path)
    check(s["file"] is not None and s["file"].endswith("sharedlib_lib.c"),
          "%s named with its file by rank 1: %r" % (path, s["file"]))
common = p.stack("main;common")
check(common["file"] is not None and common["file"].endswith("names_mpmd.c") and common["line"] > 0,
      "common named with file and line: %r:%r" % (common["file"], common["line"]))

rank0, rank1 = r.rank_profile(0), r.rank_profile(1)
# The library's stacks exist on rank 1 only: their least time is rank 0's 0 s.
expect_imbalance(p, [rank0, rank1])
check_eq((p.stack(SQUARE)["imbalance"]["min_s"], p.stack(SQUARE)["imbalance"]["min_rank"]), (0.0, 0),
         "shared_square: least time 0 s, on rank 0, which never ran it")
check_eq(rank0.doc["symbols"]["named_here"], 0, "rank 0 took its names from its own table")
check_eq(rank1.doc["symbols"]["named_here"], 2,
         "rank 1 named only the library's two functions itself")
check(rank1.doc["symbols"]["named_by_rank_0"] > 0, "rank 1 took the others from rank 0: %r"
      % rank1.doc["symbols"])
check_eq(rank1.calls(SQUARE), 5, "rank 1's own file: shared_square")
check_eq(rank1.stack("main;common")["file"], common["file"], "rank 1's file names common as rank 0 does")

finish()
