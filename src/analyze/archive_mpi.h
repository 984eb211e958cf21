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
/* The outcome every rank agrees on: the worst of the ranks' statuses
 * (collective).  Called where a rank may fail alone (rank 0's outputs),
 * before anything waits on another rank. */
int archive_mpi_agree(int status);
/* Agrees on the status, then MPI_Finalize on every rank (never MPI_Abort:
 * a rank aborting while another finalizes crashed or hung Open MPI's
 * mpirun).  Returns the agreed status, the exit status of every rank. */
int archive_mpi_finish(int status);

#endif
