"""With a performance variable selected, MPI_T's start-up
(MPI_T_init_thread, reading every control variable, choosing the
performance variables: 0.2 s per rank with Open MPI 4.1) is MPI_Init's
time, not the time of the function that called MPI_Init
(test/mpit/queues.c with K = 0 on 2 ranks).  With the defaults (no
performance variable) it happens at MPI_Finalize, beside the merge, on
the ranks whose files list control variables (here both, by
mpi.rank_files): "startup_in" and the logfile say so.

Structural checks on the figures of one run, in each rank's own file:
"mpi_t"."startup_s" is reported (> 0); MPI_Init's inclusive time contains
it (the start-up runs inside the node's interval); main's exclusive time
is less than it (main does nothing but call: before, the start-up was
main's exclusive time), where the start-up takes long enough to matter
(Open MPI 4.1: 0.2 s; MPICH 4.0: 0.15 ms, not checked).  The summary's startup_s is rank 0's, and the
logfile says it."""
from mpitlib import *

require_launcher()
N = 2
EXE = mpit_program("queues")
INIT = "main;MPI_Init"
# main's own time is some 20 us here; a start-up shorter than this (MPICH
# 4.0's takes 0.15 ms, Open MPI 4.1's 0.2 s) could be outrun by the
# scheduler on a loaded machine, and is not worth checking.
MEANINGFUL = 0.02
skipped = set()

for what, config in (("defaults", {"mpi": {"rank_files": [0, 1]}}),
                     ("a pvar selected", {"mpi": {"rank_files": [0, 1]},
                                          "mpi_t": {"pvars": ["unexpected_(msgq|recvq)_length$"]}})):
    r = mpirun(EXE, N, args=["0"], config=config)
    check_status(r, 0, what)
    startup = {}
    for rank in range(N):
        p = r.rank_profile(rank)
        if p is None:
            continue
        tag = "%s: rank %d: " % (what, rank)
        m = mpi_t(p)
        check_eq(m.get("initialized"), True, tag + "MPI_T initialized")
        s = m.get("startup_s")
        if not check(isinstance(s, float) and s > 0, tag + "mpi_t.startup_s reported: %r" % s):
            continue
        startup[rank] = s
        late = what == "defaults"
        check_eq(m.get("startup_in"), "MPI_Finalize" if late else "MPI_Init",
                 tag + "where MPI_T started")
        if late:
            continue
        init, main = p.stack(INIT), p.stack("main")
        check(init["time_incl_s"] >= s,
              tag + "MPI_Init's inclusive time %r s contains the MPI_T start-up %r s"
              % (init["time_incl_s"], s))
        if s < MEANINGFUL:
            skipped.add("rank %d's MPI_T start-up took %.6f s: too short to tell from main's own time"
                        % (rank, s))
            continue
        check(main["time_excl_s"] < s,
              tag + "main's exclusive time %r s is less than the MPI_T start-up %r s (not charged to it)"
              % (main["time_excl_s"], s))
    p = r.summary()
    if p is not None and 0 in startup:
        check_eq(mpi_t(p).get("startup_s"), startup[0], what + ": the summary's startup_s is rank 0's")
        where = "at MPI_Finalize beside the merge" if what == "defaults" else "inside MPI_Init"
        if what != "defaults":
            check(p.stack(INIT)["time_incl_s"] >= startup[0],
                  what + ": MPI_Init's inclusive time over ranks contains rank 0's start-up")
        check("MPI_T start-up:  %.6f s on rank 0, %s\n" % (startup[0], where) in r.text(".log"),
              what + ": the logfile's header says the start-up time")
for reason in sorted(skipped):
    skip_part(reason)
finish()
