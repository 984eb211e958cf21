"""A file size limit at the end of an MPI job (docs/output_mpi.md): rank 0
writes the logfile, folded file and MPI_T file on a second thread while it
writes the JSON and the page.  test/mpi/file_limit.c lowers rank 0's
RLIMIT_FSIZE before MPI_Finalize (SIGXFSZ at its default action) to a
limit between the JSON's size and the other files' sizes, measured in a
run without it:

- the job exits as the program built without hooktrace does, with its
  standard output;
- stderr says the JSON failed with "File too large";
- the logfile, the folded file and the MPI_T file (which the logfile
  names) are written whole, as in the run without the limit;
- no page (it embeds the JSON);
- no temporary file left."""
import json
import os

from mpilib import *

require_launcher()
EXE, PLAIN = mpi_program("file_limit"), mpi_program("file_limit_plain")
NAME, RANKS = "file_limit", 2


def sizes(run):
    return {ext: os.path.getsize(run.path(ext)) for ext in (".json", ".mpit.json", ".log", ".folded",
                                                            ".html") if run.exists(ext)}


reference = mpirun(PLAIN, RANKS, ["0"])
check_status(reference, 0, "plain")
free = mpirun(EXE, RANKS, ["0"])
check_status(free, 0, "without a limit")
whole = sizes(free)
check_eq(sorted(whole), sorted([".json", ".mpit.json", ".log", ".folded", ".html"]),
         "without a limit: the files")
others = max(v for k, v in whole.items() if k not in (".json", ".html"))
check(whole.get(".json", 0) > others, "the JSON (%r) is larger than every other file but the page: %r"
      % (whole.get(".json"), whole))
limit = (others + whole.get(".json", 0)) // 2

plain_limited = mpirun(PLAIN, RANKS, [str(limit)])
check_status(plain_limited, 0, "plain, limited")
r = mpirun(EXE, RANKS, [str(limit)])
what = "rank 0 limited to %d bytes" % limit
check_eq(r.returncode, plain_limited.returncode, what + ": exit status as without hooktrace")
check_eq(r.stdout, plain_limited.stdout, what + ": standard output as without hooktrace")
check_eq(r.stdout, reference.stdout, what + ": standard output as without a limit")
check("hooktrace: cannot write ./%s.json: File too large" % NAME in r.stderr,
      what + ": the JSON's failure said: %r" % r.stderr)
check_eq(sorted(f for f in r.files() if f.startswith(NAME)),
         [NAME + ".folded", NAME + ".log", NAME + ".mpit.json"],
         what + ": the logfile, the folded file and the MPI_T file; no page")
check_eq([f for f in r.files() if f.startswith(".")], [], what + ": no temporary file left")
for ext in (".log", ".folded", ".mpit.json"):
    got = os.path.getsize(r.path(ext)) if r.exists(ext) else 0
    check(abs(got - whole[ext]) <= 0.1 * whole[ext], "%s: %s written whole: %d bytes (%d without "
          "the limit)" % (what, ext, got, whole[ext]))
check(("all in %s.mpit.json" % NAME) in (r.text(".log") if r.exists(".log") else ""),
      what + ": the logfile names the MPI_T file")
check("\ncall stacks:     1644, the deepest 3 functions deep" in (r.text(".log") if r.exists(".log") else ""),
      what + ": the logfile counts main, 4 MPI calls, 40 mid<i> and 40 x 40 leaf<j> stacks")
if r.exists(".mpit.json"):
    got, want = (json.loads(x.text(".mpit.json")) for x in (r, free))
    # by name: some values hold the run's own folder
    names = [[c["name"] for c in doc["cvars"]] for doc in (got, want)]
    check((got["cvars_read"], len(names[0])) == (want["cvars_read"], len(names[1]))
          and names[0] == names[1], "%s: the MPI_T file lists the same %d control variables (%d here)"
          % (what, want["cvars_read"], got["cvars_read"]))
finish()
