"""gfortran's main program by its own name on 2 ranks: rank 0 names it for
the job (merge/names.c), and the summary, every rank's own file, the folded
stacks and the logfile's tables show heat_demo, never MAIN__, with exact
counts."""
from flib import *

N = 2
ROOT = "main;heat_demo"
r = mpirun(fortran_program("fheat_demo"), N, config={"mpi": {"rank_files": [0, 1]}})
check_status(r, 0, "fheat_demo")
check_eq(r.stdout, "heat_demo:   0.223229\n", "rank 0's output (the energy summed over 2 ranks)")
p = r.summary()
expect_total_calls(p, {ROOT: N, ROOT + ";heat_solver::step": 10 * N, ROOT + ";clamp": 10 * N,
                       ROOT + ";heat_solver::energy": N, ROOT + ";show_energy": 1,
                       ROOT + ";MPI_Allreduce": N})
for suffix in (".json", ".log", ".folded", "_0.json", "_1.json", "_0.log", "_1.log"):
    if check(r.exists(suffix), "fheat_demo%s written" % suffix):
        check("MAIN__" not in r.text(suffix), "no MAIN__ in fheat_demo%s" % suffix)
for rank in range(N):
    rp = r.rank_profile(rank)
    if rp:
        check_eq(rp.calls(ROOT + ";heat_solver::step"), 10, "rank %d's file: calls of step" % rank)
log = r.text(".log").splitlines()
check(any("MPI_Allreduce" in l and " heat_demo " in l for l in log),
      "log: MPI_Allreduce's caller is heat_demo")
finish()
