/* Counts hooktrace's MPI_T calls: the test programs define the MPI_T
 * routines hooktrace uses per call and per thread, count, and pass on to
 * the PMPI_T_ entry points.  A definition in the executable takes the
 * place of the MPI library's for libhooktrace too (the library's are weak
 * or interposable), so the counts are exactly hooktrace's calls: the
 * programs themselves never call MPI_T.
 *
 * print_counts() prints three lines per rank after MPI_Finalize:
 *   "mpit rank R: reads N sessions S"
 *   "mpit calls rank R: init I cvar_num G cvar_reads C pvar_num P"
 *   "mpit cvars rank R: listed L"
 * (MPI_T_init_thread, MPI_T_cvar_get_num, MPI_T_cvar_read and
 * MPI_T_pvar_get_num calls: who starts MPI_T, reads control variables,
 * enumerates performance variables; L: the number of control variables
 * MPI_T_cvar_get_num gave hooktrace, -1 if it was not called; lines of
 * different ranks may interleave in any order).
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
int PMPI_T_init_thread(int required, int *provided);
int PMPI_T_cvar_get_num(int *num);
int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf);
int PMPI_T_pvar_get_num(int *num);

static unsigned long counted_reads, counted_sessions;
static unsigned long counted_inits, counted_cvar_nums, counted_cvar_reads, counted_pvar_nums;
static int listed_cvars = -1;

/* hooktrace may start MPI_T in a thread of its own: atomic counts. */
__attribute__((no_instrument_function)) int MPI_T_init_thread(int required, int *provided)
{
    __atomic_add_fetch(&counted_inits, 1, __ATOMIC_RELAXED);
    return PMPI_T_init_thread(required, provided);
}

__attribute__((no_instrument_function)) int MPI_T_cvar_get_num(int *num)
{
    __atomic_add_fetch(&counted_cvar_nums, 1, __ATOMIC_RELAXED);
    int rc = PMPI_T_cvar_get_num(num);
    if (rc == MPI_SUCCESS)
        __atomic_store_n(&listed_cvars, *num, __ATOMIC_RELAXED);
    return rc;
}

__attribute__((no_instrument_function)) int MPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    __atomic_add_fetch(&counted_cvar_reads, 1, __ATOMIC_RELAXED);
    return PMPI_T_cvar_read(handle, buf);
}

__attribute__((no_instrument_function)) int MPI_T_pvar_get_num(int *num)
{
    __atomic_add_fetch(&counted_pvar_nums, 1, __ATOMIC_RELAXED);
    return PMPI_T_pvar_get_num(num);
}

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
    printf("mpit calls rank %d: init %lu cvar_num %lu cvar_reads %lu pvar_num %lu\n", rank,
           counted_inits, counted_cvar_nums, counted_cvar_reads, counted_pvar_nums);
    printf("mpit cvars rank %d: listed %d\n", rank, __atomic_load_n(&listed_cvars, __ATOMIC_RELAXED));
    fflush(stdout);
}

#endif
