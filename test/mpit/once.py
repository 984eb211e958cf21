"""MPI_T without performance variables costs one start-up per job
(issue 24; docs/mpi_t.md): test/mpit/queues.c with K = 0 (a barrier) on 4
ranks, counting hooktrace's own MPI_T calls (counting.h).

- defaults: rank 0 alone calls MPI_T_init_thread (once), MPI_T_cvar_get_num
  (once) and MPI_T_cvar_read; ranks 1-3 make none of these calls; no rank
  enumerates performance variables (MPI_T_pvar_get_num) or creates a
  session.  The summary's .mpit.json lists rank 0's control variables,
  started at MPI_Finalize ("startup_in"), and the logfile says so;
- the control variables listed are the same (names and values) as in a
  run with a performance variable selected, where MPI_T starts inside
  MPI_Init on every rank as before: every rank calls MPI_T_init_thread
  once, enumerates the performance variables once and reads control
  variables;
- mpi.rank_files [2]: rank 2's own file lists its own control variables,
  so rank 2 starts MPI_T too; ranks 1 and 3 still make no MPI_T call;
- "mpi_t": {"enabled": false}: no rank calls MPI_T_init_thread."""
import re

from mpitlib import *

require_launcher()
N = 4
EXE = mpit_program("queues")
LINE = re.compile(r"^mpit calls rank (\d+): init (\d+) cvar_num (\d+) cvar_reads (\d+)"
                  r" pvar_num (\d+)$")


def calls(run, what):
    found = {}
    for line in run.stdout.splitlines():
        m = LINE.match(line.strip())
        if m:
            found[int(m.group(1))] = tuple(int(x) for x in m.group(2, 3, 4, 5))
    check_eq(sorted(found), list(range(N)), what + ": one call-count line per rank")
    return found


def sessions(run, what):
    return {r: s for r, (_, s) in counts(run, N, what).items()}


def cvar_values(run, suffix=""):
    """{name: value} of <basename><suffix>.mpit.json's control variables."""
    return {c.get("name"): c.get("value") for c in mpit_file(run, suffix).get("cvars", [])}


# --- defaults ---------------------------------------------------------------
what = "defaults"
r = mpirun(EXE, N, args=["0"])
check_status(r, 0, what)
c = calls(r, what)
if 0 in c:
    init, cnum, creads, pnum = c[0]
    check_eq((init, cnum, pnum), (1, 1, 0),
             what + ": rank 0 starts MPI_T once, counts the cvars once, no pvar enumeration")
    check(creads > 100, what + ": rank 0 reads the control variables (%d reads)" % creads)
for rank in range(1, N):
    if rank in c:
        check_eq(c[rank], (0, 0, 0, 0), what + ": rank %d makes no MPI_T call" % rank)
check_eq(sessions(r, what), {rank: 0 for rank in range(N)}, what + ": no pvar session anywhere")
p = r.summary()
m = mpi_t(p)
default_cvars = cvar_values(r)
check(m.get("initialized") is True and len(default_cvars) > 100,
      what + ": the summary's .mpit.json lists rank 0's control variables (%d)"
      % len(default_cvars))
check_eq((m.get("cvars_rank"), m.get("startup_in"), m.get("pvars")), (0, "MPI_Finalize", []),
         what + ": rank 0's, started at MPI_Finalize, no pvar")
log = r.text(".log")
check(("MPI_T start-up:  %.6f s on rank 0, at MPI_Finalize beside the merge\n"
       % m.get("startup_s", -1)) in log, what + ": the logfile says when MPI_T started")

# --- a performance variable selected: as before ------------------------------
what = "a pvar selected"
r = mpirun(EXE, N, args=["0"], config={"mpi_t": {"pvars": ["unexpected_(msgq|recvq)_length$"]}})
check_status(r, 0, what)
c = calls(r, what)
for rank in range(N):
    if rank in c:
        init, cnum, creads, pnum = c[rank]
        check_eq((init, cnum, pnum), (1, 1, 1),
                 what + ": rank %d starts MPI_T, counts cvars and pvars once each" % rank)
        check(creads > 100, what + ": rank %d reads its control variables (%d)" % (rank, creads))
p = r.summary()
m = mpi_t(p)
check_eq(m.get("startup_in"), "MPI_Init", what + ": MPI_T started inside MPI_Init")
pvar_cvars = cvar_values(r)
check_eq(sorted(pvar_cvars), sorted(default_cvars),
         what + ": the same control variables as with the defaults")
# Compared after the next run, which tells the values that change with
# every job (job IDs, the launcher's URI, the run's directory).

# --- a rank's own file -------------------------------------------------------
what = "mpi.rank_files [2]"
r = mpirun(EXE, N, args=["0"], config={"mpi": {"rank_files": [2]}})
check_status(r, 0, what)
c = calls(r, what)
for rank in range(N):
    if rank in c:
        check_eq(c[rank][0], 1 if rank in (0, 2) else 0,
                 what + ": MPI_T_init_thread calls of rank %d" % rank)
        check_eq(c[rank][2] > 100, rank in (0, 2), what + ": rank %d reads cvars" % rank)
again = cvar_values(r)
per_job = {k for k in default_cvars if again.get(k) != default_cvars[k]}
check(len(per_job) < 20, "at most a few values change from job to job: %s" % sorted(per_job))
check_eq({k: (v, default_cvars.get(k)) for k, v in pvar_cvars.items()
          if k not in per_job and default_cvars.get(k) != v},
         {}, "a pvar selected: the same values as with the defaults (but %d per-job ones)"
         % len(per_job))
own = r.rank_profile(2)
if own is not None:
    check_eq((mpi_t(own).get("cvars_rank"), mpi_t(own).get("startup_in")), (2, "MPI_Finalize"),
             what + ": rank 2's own file has its own, read at MPI_Finalize")
    check_eq(len(cvar_values(r, "_2")), len(default_cvars), what + ": every one of them")

# --- MPI_T off ---------------------------------------------------------------
what = "mpi_t.enabled false"
r = mpirun(EXE, N, args=["0"], config={"mpi_t": {"enabled": False}})
check_status(r, 0, what)
c = calls(r, what)
check_eq(c, {rank: (0, 0, 0, 0) for rank in range(N)}, what + ": no MPI_T call on any rank")
finish()
