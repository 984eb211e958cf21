/* Counts hooktrace's MPI_T calls: the test programs define the MPI_T
 * routines hooktrace uses per call and per thread, count, and pass on to
 * the PMPI_T_ entry points.  A definition in the executable takes the
 * place of the MPI library's for libhooktrace too (the library's are weak
 * or interposable), so the counts are exactly hooktrace's calls: the
 * programs themselves never call MPI_T.
 *
 * print_counts() prints one line per rank after MPI_Finalize:
 *   "mpit rank R: reads N sessions S"
 * (lines of different ranks may interleave in any order).
 *
 * MPIT_TEST_FAIL_EVERY=k makes every k-th MPI_T_pvar_read fail (with
 * MPI_T_ERR_INVALID_HANDLE, without reading), to test how hooktrace copes. */
#ifndef HT_TEST_MPIT_COUNTING_H
#define HT_TEST_MPIT_COUNTING_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* MPICH declares the PMPI_T_ routines in mpi_proto.h, Open MPI in mpi.h;
 * declaring them again is harmless and keeps one source for both. */
int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf);
int PMPI_T_pvar_session_create(MPI_T_pvar_session *session);

static unsigned long counted_reads, counted_sessions;

__attribute__((no_instrument_function)) int MPI_T_pvar_read(MPI_T_pvar_session session,
                                                            MPI_T_pvar_handle handle, void *buf)
{
    static long fail_every = -1;
    if (fail_every < 0) {
        const char *e = getenv("MPIT_TEST_FAIL_EVERY");
        fail_every = e ? atol(e) : 0;
    }
    unsigned long n = __atomic_add_fetch(&counted_reads, 1, __ATOMIC_RELAXED);
    if (fail_every > 0 && n % (unsigned long)fail_every == 0)
        return MPI_T_ERR_INVALID_HANDLE;
    return PMPI_T_pvar_read(session, handle, buf);
}

__attribute__((no_instrument_function)) int MPI_T_pvar_session_create(
    MPI_T_pvar_session *session)
{
    __atomic_add_fetch(&counted_sessions, 1, __ATOMIC_RELAXED);
    return PMPI_T_pvar_session_create(session);
}

static void print_counts(int rank)
{
    printf("mpit rank %d: reads %lu sessions %lu\n", rank, counted_reads, counted_sessions);
    fflush(stdout);
}

#endif
