/* Whether the MPI library the process runs is of the ABI libhooktrace was
 * compiled for (abi.c, docs/what_happens.md "A program built with another
 * MPI"). */
#ifndef HT_MPI_ABI_H
#define HT_MPI_ABI_H

#include <stdbool.h>
#include <stdint.h>

/* A handle as the C wrappers take it by value: wide enough for either
 * ABI's (generate.py, BY_VALUE_HANDLES). */
typedef uintptr_t ht_mpi_handle;

/* The program's own routine called name (its library's, else the next
 * after libhooktrace): a C wrapper's PMPI_ routine, or the program's own
 * mpi_f08 entry of the wrapper's name (mpi_wait_f08_, which both MPIs
 * define), found once and kept in *slot: where a wrapper passes a call on
 * when ht_mpi_foreign is set.  Aborts with a message if no loaded library
 * has such a routine. */
typedef void (*ht_mpi_entry)(void);
ht_mpi_entry ht_mpi_foreign_entry(ht_mpi_entry *slot, const char *name);

/* True when the PMPI routines the wrappers call belong to an MPI library
 * of this build's ABI (Open MPI, or the MPICH family).  Decided at the
 * first call, before any MPI constant is used: the entry points that start
 * MPI call it first.  On a mismatch (the first call only) it says so on
 * standard error, once per job, and turns MPI recording off for good:
 * ht_mpi_foreign is set, every wrapper passes its call through, and the
 * runtime writes each process's profile as a non-MPI program's. */
bool ht_mpi_abi_matches(void);
/* The same, decided (at the first call) from the library that defines
 * entry, the routine the program called, next after libhooktrace
 * ("mpi_init_", "mpi_init_f08_", "MPI_Session_init"), as well as from the
 * one the wrappers' PMPI_Init reaches.  ht_mpi_abi_matches(): entry
 * "MPI_Init". */
bool ht_mpi_abi_matches_at(const char *entry);

/* Non-zero once ht_mpi_abi_matches found the process's MPI foreign. */
extern int ht_mpi_foreign;

#endif
