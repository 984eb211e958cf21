"""Performance variables with MPI called from two threads at once
(MPI_THREAD_MULTIPLE; test/mpit/threads.c on 2 ranks, M = 20 exchanges per
thread): each thread gets its own MPI_T session (exactly 2 per rank), the
reads happen in the calling thread around its own calls (exactly
2 x pvars x 2M per rank), both threads' MPI stacks have figures from both
ranks, and no read fails.  With no pvar exposed (MPICH 4.0 as Debian builds
it) the figures are skipped with a reason and the run must still be
correct: no session, no read."""
from mpitlib import *

require_launcher()
N, M = 2, 20
EXE = mpit_program("threads")
PING, PONG = "main;ping;exchange;MPI_Sendrecv", "pong;exchange;MPI_Sendrecv"

r = mpirun(EXE, N, args=[str(M)], config={"mpi_t": {"pvars": ["unexpected_(msgq|recvq)_length$"]}})
check_status(r, 0, "two threads")
p = r.summary()
names = pvar_names(p)
got = counts(r, N, "two threads")
if "no MPI_THREAD_MULTIPLE" in r.stdout:
    skip_part("%s does not provide MPI_THREAD_MULTIPLE" % library())
elif not names:
    check(library() != "ompi-c", "Open MPI exposes the unexpected-queue pvar")
    skip_part("%s exposes no performance variables: nothing to read per thread" % library())
    for rank, c in sorted(got.items()):
        check_eq(c, (0, 0), "rank %d: (MPI_T_pvar_read calls, sessions) without pvars" % rank)
else:
    for rank, (reads, sessions) in sorted(got.items()):
        check_eq(sessions, 2, "rank %d: one MPI_T session per thread that calls MPI" % rank)
        check_eq(reads, 2 * len(names) * 2 * M, "rank %d: 2 reads per pvar per MPI call of"
                 " either thread" % rank)
    if p:
        check_eq(p.thread_calls(PING), {0: N * M}, PING + ": calls per thread index")
        check_eq(p.thread_calls(PONG), {1: N * M}, PONG + ": calls per thread index")
    for path in (PING, PONG):
        figures = stack_pvars(p, path)
        check_eq(sorted(figures), sorted(names), path + ": figures of every pvar")
        check_eq({n: f.get("ranks") for n, f in figures.items()}, {n: N for n in names},
                 path + ": read on both ranks")
    check_eq([d.get("failed_reads") for d in mpi_t(p).get("pvars", [])], [0] * len(names),
             "no read failed")

finish()
