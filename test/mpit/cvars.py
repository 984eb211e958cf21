"""Control variables (test/mpit/queues.c with K = 0: a barrier, on 2 ranks).

- <basename>.mpit.json lists every control variable of rank 0: exactly as
  many as MPI_T_cvar_get_num gave hooktrace, but those the library cannot
  describe (hooktrace's note counts them), more than 100 with Open MPI 4.1
  and MPICH 4.0, each with name, value, type, scope, verbosity, binding and
  description; the JSON profile says how many and names that file, and
  lists none ("cvars" absent); the logfile's MPI_T line names it too;
- with mpi_t.cvars_in_json the JSON's "mpi_t"."cvars" lists them instead,
  the same names, and no .mpit.json is written;
- a value set through the environment shows: Open MPI's
  OMPI_MCA_pml_ob1_free_list_num, MPICH's MPIR_CVAR_BCAST_MIN_PROCS, set
  to two different values in two runs;
- the logfile lists exactly the cvars mpi_t.cvars names, with their value;
- a rank's own file has that rank's cvars (<basename>_<rank>.mpit.json);
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


def cvar(cvars, name):
    found = [c for c in cvars if c.get("name") == name]
    check_eq(len(found), 1, "cvar %s listed once" % name)
    return found[0] if found else {}


def expect_complete(r, profile, doc, rank, what):
    """doc (a .mpit.json) lists every control variable rank read: the
    number the library gave, but those it could not describe."""
    listed = cvars_listed(r).get(rank)
    cvars = doc.get("cvars", [])
    check(listed is not None and listed > 100, "%s: rank %d: MPI_T_cvar_get_num gave %s"
          % (what, rank, listed))
    check_eq(len(cvars) + cvars_left_out(profile), listed,
             "%s: rank %d: every control variable the library lists (but the ones it cannot"
             " describe) is in its .mpit.json" % (what, rank))
    check_eq((doc.get("cvars_rank"), doc.get("cvars_read")), (rank, len(cvars)),
             "%s: rank %d: the file's cvars_rank and cvars_read" % (what, rank))
    check_eq((mpi_t(profile).get("cvars_read"), "cvars" in mpi_t(profile)), (len(cvars), False),
             "%s: rank %d: the JSON says how many and lists none" % (what, rank))
    return cvars


names = None
for value in VALUES:
    what = "%s=%d" % (ENV, value)
    r = mpirun(EXE, N, args=["0"], env={ENV: str(value)},
               config={"mpi_t": {"cvars": ["^%s$" % VAR]}, "mpi": {"rank_files": [1]}})
    check_status(r, 0, what)
    p = r.summary()
    m = mpi_t(p)
    check_eq((m.get("initialized"), m.get("cvars_rank"), m.get("cvars_file")),
             (True, 0, r.basename + ".mpit.json"),
             what + ": MPI_T initialized; the summary names rank 0's cvars' file")
    doc = mpit_file(r)
    cvars = expect_complete(r, p, doc, 0, what)
    names = [c.get("name") for c in cvars]
    check_eq([c.get("name") for c in cvars if not KEYS <= set(c)], [],
             what + ": cvars missing one of %s" % sorted(KEYS))
    check_eq(sorted({c.get("scope") for c in cvars} - SCOPES), [], what + ": scopes are MPI_T's")
    check_eq(cvar(cvars, VAR).get("value"), value, what + ": the value set in the environment")
    check_eq(cvar(cvars, VAR).get("type"), "int", what + ": " + VAR + " is an int")
    log = r.text(".log")
    check_eq([l for l in log.splitlines() if l.startswith("MPI_T:")],
             ["MPI_T:           %d control variables (rank 0; all in %s.mpit.json, 1 listed below"
              " by mpi_t.cvars); 0 performance variables" % (len(cvars), r.basename)],
             what + ": the logfile's MPI_T line names the file")
    table = log.split("Control variables (MPI_T) of rank 0 matching mpi_t.cvars", 1)
    check(len(table) == 2, what + ": the logfile has the cvar table")
    rows = table[-1].split("\n\n")[1].splitlines() if len(table) == 2 else []
    check_eq([row.split()[:2] for row in rows[1:]], [[VAR, str(value)]],
             what + ": the logfile lists exactly the cvars mpi_t.cvars matches")
    check(bool(cvar(cvars, OTHER)), what + ": %s is a cvar too" % OTHER)
    check(OTHER not in table[-1].split("\n\n")[1] if len(table) == 2 else False,
          what + ": %s (not matched) is not listed" % OTHER)
    own = r.rank_profile(1)
    if own:
        check_eq((mpi_t(own).get("cvars_rank"), mpi_t(own).get("cvars_file")),
                 (1, r.basename + "_1.mpit.json"), what + ": rank 1's file names its own cvars'")
        own_cvars = expect_complete(r, own, mpit_file(r, "_1"), 1, what)
        check_eq(cvar(own_cvars, VAR).get("value"), value, what + ": rank 1 sees the value too")

# --- mpi_t.cvars_in_json: the list in the JSON, as before -----------------------
what = "mpi_t.cvars_in_json"
r = mpirun(EXE, N, args=["0"], config={"mpi_t": {"cvars_in_json": True}})
check_status(r, 0, what)
p = r.summary()
m = mpi_t(p)
cvars = m.get("cvars", [])
check_eq([c.get("name") for c in cvars], names, what + ": the JSON lists the same cvars")
check_eq((m.get("cvars_read"), "cvars_file" in m), (len(cvars), False),
         what + ": how many, and no file named")
check_eq(len(cvars) + cvars_left_out(p), cvars_listed(r).get(0),
         what + ": every one the library lists but those it cannot describe")
check_eq([f for f in r.files() if f.endswith(".mpit.json")], [], what + ": no .mpit.json")
check_eq([l for l in r.text(".log").splitlines() if l.startswith("MPI_T:")],
         ["MPI_T:           %d control variables (rank 0; 0 listed below by mpi_t.cvars);"
          " 0 performance variables" % len(cvars)], what + ": the logfile's MPI_T line")

# --- MPI_T off ------------------------------------------------------------------
r = mpirun(EXE, N, args=["3"], config={"mpi_t": {"enabled": False, "pvars": ["."]}})
check_status(r, 0, "mpi_t.enabled false")
p = r.summary()
m = mpi_t(p)
check_eq((m.get("initialized"), m.get("cvars"), m.get("cvars_read"), m.get("cvars_file"),
          m.get("pvars")), (False, None, 0, None, []),
         "mpi_t.enabled false: (initialized, cvars, cvars_read, cvars_file, pvars)")
check_eq([f for f in r.files() if f.endswith(".mpit.json")], [],
         "mpi_t.enabled false: no .mpit.json")
check_eq(m.get("status"), "not used (mpi_t.enabled is false)", "mpi_t.enabled false: status")
check("MPI_T:           not used (mpi_t.enabled is false)" in r.text(".log"),
      "mpi_t.enabled false: the logfile header says so")
check_eq(paths_with_pvars(p), [], "mpi_t.enabled false: no stack has \"pvars\"")
for rank, c in sorted(counts(r, N, "mpi_t.enabled false").items()):
    check_eq(c, (0, 0), "mpi_t.enabled false: rank %d: (MPI_T_pvar_read calls, sessions)" % rank)

finish()
