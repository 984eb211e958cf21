/* hooktrace-analyze started by an MPI launcher (mpirun, mpiexec, srun
 * with PMI) replaces itself with hooktrace-analyze-mpi-FAMILY, the same
 * analyzer built against that MPI, so that the plain program links no MPI
 * (docs/analyze.md, "mpirun"). */
#ifndef HT_ANALYZE_LAUNCHER_H
#define HT_ANALYZE_LAUNCHER_H

/* Returns when not started by a launcher, or by one with a single rank;
 * otherwise execs the MPI program with argv, or exits with a message. */
void launcher_exec(char **argv);

#endif
