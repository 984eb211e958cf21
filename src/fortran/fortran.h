/* What the generated Fortran wrappers (src/fortran/wrappers_f.c, from
 * src/fortran/generate_fortran.py) use besides the C wrappers' recording:
 * recognising Fortran's sentinel arguments and the scratch space of the
 * Wait/Test families, in Fortran terms. */
#ifndef HT_FORTRAN_H
#define HT_FORTRAN_H

#include <mpi.h>
#include <stdbool.h>

#include "mpi/call.h"
#include "mpi/record.h"

/* MPI_Fint arrays of counts and displacements are passed on as int arrays. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "MPI_Fint must be a C int");

/* Open MPI calls it MPI_STATUS_SIZE in mpif.h only; MPICH has MPI_F_STATUS_SIZE. */
#ifdef MPI_F_STATUS_SIZE
#define HT_F_STATUS_SIZE MPI_F_STATUS_SIZE
#else
#define HT_F_STATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))
#endif

/* Whether a Fortran status argument is MPI_STATUS_IGNORE (by address). */
bool ht_f_status_ignored(const MPI_Fint *status);

/* A choice buffer as the C recording expects it: Fortran's MPI_IN_PLACE
 * becomes MPI_IN_PLACE, MPI_BOTTOM becomes MPI_BOTTOM. */
void *ht_f_buf(void *buf);

/* MPICH's mpi_f08 entries (mpi_send_f08ts_) take a choice buffer,
 * TYPE(*), DIMENSION(..), as an array descriptor: its first member is the
 * base address, in TS 29113's CFI_cdesc_t as in gfortran's own. */
static inline void *ht_f_desc_addr(void *desc)
{
    return desc ? *(void **)desc : NULL;
}

/* The first index the mpi_f08 binding's Wait/Test any/some return: 1 as
 * the standard says; configure defines 0 for MPICH 4.0, whose mpi_f08
 * binding passes the C indices on (pmodels/mpich#5763, fixed in 4.1). */
#ifndef HT_F08_INDEX_BASE
#define HT_F08_INDEX_BASE 1
#endif

/* Wait/Test families: the C handles as they were before the call, the
 * Fortran statuses MPI writes (the program's, or ours when it passed
 * MPI_STATUSES_IGNORE), and their C form after the call. */
#define HT_F_SCRATCH_LOCAL 16
struct ht_f_scratch {
    int count;
    MPI_Request *handles;
    MPI_Fint *fstatuses;
    MPI_Status *statuses;
    void *heap;
    MPI_Request local_handles[HT_F_SCRATCH_LOCAL];
    MPI_Fint local_fstatuses[HT_F_SCRATCH_LOCAL * 8];
    MPI_Status local_statuses[HT_F_SCRATCH_LOCAL];
};

/* user_statuses NULL: the routine has no statuses (Waitany). false if out
 * of memory (the wrapper then only calls MPI). */
bool ht_f_scratch_init(struct ht_f_scratch *s, int count, const MPI_Fint *requests,
                       MPI_Fint *user_statuses);
const MPI_Status *ht_f_scratch_statuses(struct ht_f_scratch *s);
void ht_f_scratch_free(struct ht_f_scratch *s);

/* The datatype arrays of the *alltoallw routines, converted element-wise:
 * one entry per peer (the communicator's size, the remote group's for an
 * inter-communicator) or, for the neighbourhood forms, per source (recv)
 * or destination (send) of the topology.  NULL if the count is unknown or
 * out of memory: the wrapper then records nothing. */
#define HT_F_TYPES_LOCAL 32
struct ht_f_types {
    MPI_Datatype *heap;
    MPI_Datatype local[HT_F_TYPES_LOCAL];
};
enum ht_f_types_of { HT_F_TYPES_PEERS, HT_F_TYPES_SOURCES, HT_F_TYPES_DESTINATIONS };
const MPI_Datatype *ht_f_types_init(struct ht_f_types *t, const MPI_Fint *f, MPI_Comm comm,
                                    enum ht_f_types_of of);
void ht_f_types_free(struct ht_f_types *t);

/* Waitany/Testany and Waitsome/Testsome: the requests the binding reports
 * done, by their indices counted from `base` (see HT_F08_INDEX_BASE); an
 * index out of range (MPI_UNDEFINED, a binding's bug) is not followed. */
void ht_f_done_any(struct ht_mpi_call *c, struct ht_f_scratch *s, int index, int base,
                   const MPI_Status *st);
void ht_f_done_some(struct ht_mpi_call *c, struct ht_f_scratch *s, int outcount,
                    const int *indices, int base);

#endif
