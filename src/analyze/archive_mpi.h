/* hooktrace-analyze-mpi: the analyzer under mpirun (docs/analyze.md,
 * "mpirun").  Every rank reads the definitions; rank r reads share r of
 * the locations and sends its batches of records to rank 0, which merges
 * them with its own share, as the threads of one process are merged
 * (archive_par.c), and alone writes the outputs. */
#ifndef HT_ANALYZE_ARCHIVE_MPI_H
#define HT_ANALYZE_ARCHIVE_MPI_H

/* MPI_Init; with more than one rank, sets archive_distribution.  Returns
 * this rank. */
int archive_mpi_init(int *argc, char ***argv);
/* MPI_Finalize, or MPI_Abort after a failure (other ranks may be waiting
 * for rank 0). */
void archive_mpi_finish(int status);

#endif
