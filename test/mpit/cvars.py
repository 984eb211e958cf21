"""Control variables (test/mpit/queues.c with K = 0: a barrier, on 2 ranks).

- The JSON's "mpi_t"."cvars" lists every control variable of rank 0 (more
  than 100 with Open MPI 4.1 and MPICH 4.0), each with name, value, type,
  scope, verbosity, binding and description;
- a value set through the environment shows: Open MPI's
  OMPI_MCA_pml_ob1_free_list_num, MPICH's MPIR_CVAR_BCAST_MIN_PROCS, set
  to two different values in two runs;
- the logfile lists exactly the cvars mpi_t.cvars names, with their value;
- a rank's own file has that rank's cvars;
- "mpi_t": {"enabled": false}: no MPI_T at all (no cvars, no pvar read even
  with pvars selected), and the outputs say so."""
from mpitlib import *

require_launcher()
N = 2
EXE = mpit_program("queues")
if library() == "ompi-c":
    VAR, ENV, VALUES = "pml_ob1_free_list_num", "OMPI_MCA_pml_ob1_free_list_num", (7, 9)
    OTHER = "pml_ob1_free_list_max"
else:
    VAR, ENV, VALUES = "MPIR_CVAR_BCAST_MIN_PROCS", "MPIR_CVAR_BCAST_MIN_PROCS", (5, 6)
    OTHER = "MPIR_CVAR_BCAST_SHORT_MSG_SIZE"
SCOPES = {"constant", "readonly", "local", "group", "group_eq", "all", "all_eq"}
KEYS = {"name", "value", "type", "scope", "verbosity", "binding", "description"}


def cvar(profile, name):
    found = [c for c in mpi_t(profile).get("cvars", []) if c.get("name") == name]
    check_eq(len(found), 1, "cvar %s listed once" % name)
    return found[0] if found else {}


for value in VALUES:
    what = "%s=%d" % (ENV, value)
    r = mpirun(EXE, N, args=["0"], env={ENV: str(value)},
               config={"mpi_t": {"cvars": ["^%s$" % VAR]}, "mpi": {"rank_files": [1]}})
    check_status(r, 0, what)
    p = r.summary()
    m = mpi_t(p)
    cvars = m.get("cvars", [])
    check(m.get("initialized") is True and len(cvars) > 100,
          "%s: MPI_T initialized, every cvar of rank 0 listed (%d)" % (what, len(cvars)))
    check_eq(m.get("cvars_rank"), 0, what + ": the summary has rank 0's cvars")
    check_eq([c.get("name") for c in cvars if not KEYS <= set(c)], [],
             what + ": cvars missing one of %s" % sorted(KEYS))
    check_eq(sorted({c.get("scope") for c in cvars} - SCOPES), [], what + ": scopes are MPI_T's")
    check_eq(cvar(p, VAR).get("value"), value, what + ": the value set in the environment")
    check_eq(cvar(p, VAR).get("type"), "int", what + ": " + VAR + " is an int")
    log = r.text(".log")
    table = log.split("Control variables (MPI_T) of rank 0 matching mpi_t.cvars", 1)
    check(len(table) == 2, what + ": the logfile has the cvar table")
    rows = table[-1].split("\n\n")[1].splitlines() if len(table) == 2 else []
    check_eq([row.split()[:2] for row in rows[1:]], [[VAR, str(value)]],
             what + ": the logfile lists exactly the cvars mpi_t.cvars matches")
    check(bool(cvar(p, OTHER)), what + ": %s is a cvar too" % OTHER)
    check(OTHER not in table[-1].split("\n\n")[1] if len(table) == 2 else False,
          what + ": %s (not matched) is not listed" % OTHER)
    own = r.rank_profile(1)
    if own:
        check_eq(mpi_t(own).get("cvars_rank"), 1, what + ": rank 1's file has rank 1's cvars")
        check_eq(cvar(own, VAR).get("value"), value, what + ": rank 1 sees the value too")

# --- MPI_T off ------------------------------------------------------------------
r = mpirun(EXE, N, args=["3"], config={"mpi_t": {"enabled": False, "pvars": ["."]}})
check_status(r, 0, "mpi_t.enabled false")
p = r.summary()
m = mpi_t(p)
check_eq((m.get("initialized"), m.get("cvars"), m.get("pvars")), (False, [], []),
         "mpi_t.enabled false: (initialized, cvars, pvars)")
check_eq(m.get("status"), "not used (mpi_t.enabled is false)", "mpi_t.enabled false: status")
check("MPI_T:           not used (mpi_t.enabled is false)" in r.text(".log"),
      "mpi_t.enabled false: the logfile header says so")
check_eq(paths_with_pvars(p), [], "mpi_t.enabled false: no stack has \"pvars\"")
for rank, c in sorted(counts(r, N, "mpi_t.enabled false").items()):
    check_eq(c, (0, 0), "mpi_t.enabled false: rank %d: (MPI_T_pvar_read calls, sessions)" % rank)

finish()
