/* Communicator ranks to world ranks (MPI_COMM_WORLD's, or in a sessions
 * program those of the mpi://WORLD process set), and datatype sizes.
 *
 * The translation table of a communicator is cached on the communicator
 * itself as an MPI attribute, so MPI frees it with the communicator and a
 * reused handle can never see a stale table; each thread also keeps the
 * last one it looked up, checked against ht_mpi_comm_generation
 * (ht_last_map).  A table is reference counted: a pending wildcard receive
 * keeps the table of its communicator even if the program frees the
 * communicator before the receive completes; an MPI call's own use of it
 * takes no reference (ht_mpi_rank_map_peek). */
#ifndef HT_MPI_RANKS_H
#define HT_MPI_RANKS_H

#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "common/compiler.h"

struct ht_rank_map {
    int refs;          /* atomic */
    int size;          /* local group, or remote group of an inter-communicator */
    int inter;         /* 1 for an inter-communicator */
    int self;          /* this process's rank in the communicator (its local
                          group), MPI_UNDEFINED if not a member: asked
                          once, as a collective asks it at every call */
    uint32_t trace_id; /* trace mode: 1 + the communicator's index in the
                          trace's registry (src/trace/comms.c), 0 = none yet */
    int world[];       /* world rank of each rank of that group */
};

/* Bumped whenever a communicator that has a table is freed (in any
 * language: MPI itself calls the attribute's delete function), so that
 * what was kept about a communicator handle can be known stale. */
extern unsigned ht_mpi_comm_generation;

/* Sets up the attribute key and the world numbering, that of job (a
 * communicator of every rank of the job in world order: MPI_COMM_WORLD or
 * a duplicate, or the one a sessions program's job made from mpi://WORLD;
 * job.c).  ht_mpi_ranks_end lets the job's group go, at the job's end. */
void ht_mpi_ranks_init(MPI_Comm job);
void ht_mpi_ranks_end(void);

/* Trace mode: comm's index in the trace's communicator registry
 * (trace/comms.h), registering it with its members on first use and
 * caching the index on its table.  0 (world) for MPI_COMM_NULL. */
uint32_t ht_mpi_trace_comm(MPI_Comm comm);

/* The table of comm with a reference taken for the caller; NULL on error. */
struct ht_rank_map *ht_mpi_rank_map_get(MPI_Comm comm);
void ht_mpi_rank_map_put(struct ht_rank_map *map);

/* The communicator whose table this thread looked up last, and that table:
 * MPI_Comm_get_attr costs about 190 instructions (Open MPI 4.1), twice per
 * MPI_Sendrecv.  The handle alone could name a freed communicator's
 * successor, so the entry also holds ht_mpi_comm_generation as it was
 * before the lookup: a communicator with a table cannot die without MPI
 * calling the attribute's delete function first (MPI_Comm_free,
 * MPI_Comm_disconnect, MPI_Finalize, in any language, or another thread's
 * table replacing this one), and that bumps it before the handle can be
 * reused.  The entry holds no reference: it is used only while the
 * generation says the attribute, which holds one, is still there (using a
 * communicator while another thread frees it is erroneous). */
struct ht_last_map {
    MPI_Comm comm;
    unsigned generation;
    struct ht_rank_map *map;
};
extern __thread struct ht_last_map ht_last_map __attribute__((tls_model("initial-exec")));

/* The table of comm without a reference, for the duration of an MPI call
 * on comm (during which comm cannot be freed); NULL on error.  A replaced
 * table (two threads attaching one at once) is never freed (ranks.c). */
struct ht_rank_map *ht_mpi_rank_map_lookup(MPI_Comm comm);

/* The same from this thread's last lookup only: NULL if that was not comm
 * or is stale. */
HT_NOINSTR static inline struct ht_rank_map *ht_mpi_rank_map_cached(MPI_Comm comm)
{
    const struct ht_last_map *last = &ht_last_map;
    if (HT_LIKELY(last->comm == comm &&
                  last->generation == __atomic_load_n(&ht_mpi_comm_generation, __ATOMIC_ACQUIRE)))
        return last->map;
    return NULL;
}

HT_NOINSTR static inline struct ht_rank_map *ht_mpi_rank_map_peek(MPI_Comm comm)
{
    struct ht_rank_map *map = ht_mpi_rank_map_cached(comm);
    return HT_LIKELY(map != NULL) ? map : ht_mpi_rank_map_lookup(comm);
}

/* One more reference, never put back: for records that outlive the
 * communicator. */
void ht_mpi_rank_map_keep(struct ht_rank_map *map);

/* A new table (one reference) for the ranks of group; for windows too. */
struct ht_rank_map *ht_mpi_rank_map_from_group(MPI_Group group, int inter);
HT_NOINSTR static inline int ht_mpi_rank_map_world(const struct ht_rank_map *map, int rank)
{
    if (!map || rank < 0 || rank >= map->size)
        return -1;
    int w = map->world[rank];
    return w == MPI_UNDEFINED ? -1 : w;
}

/* World rank of `rank` in comm (for an inter-communicator: in its remote
 * group, which is what peer arguments name).  -1 for MPI_PROC_NULL,
 * MPI_ANY_SOURCE, MPI_ROOT or a rank out of range. */
HT_NOINSTR static inline int ht_mpi_world_rank(MPI_Comm comm, int rank)
{
    if (rank < 0) /* MPI_PROC_NULL, MPI_ANY_SOURCE, MPI_ROOT are negative */
        return -1;
    if (comm == MPI_COMM_WORLD)
        return rank;
    return ht_mpi_rank_map_world(ht_mpi_rank_map_peek(comm), rank);
}

/* count elements of type, in bytes (0 for MPI_DATATYPE_NULL or an error).
 * 64-bit throughout: a count that fits an int may still move more than
 * INT_MAX bytes, and the large-count routines (MPI_Send_c) pass an
 * MPI_Count. */
uint64_t ht_mpi_bytes_asked(MPI_Count count, MPI_Datatype type);

/* The sizes of the predefined datatypes a thread used last.  Only those
 * are kept: they live as long as MPI, whereas a derived type's handle may
 * name another type after MPI_Type_free (in C, Fortran or mpi_f08, which
 * hooktrace does not all see).  Asking MPI costs about 50 instructions. */
#define HT_TYPE_SIZES 4
struct ht_type_size {
    MPI_Datatype type;
    MPI_Count size; /* 0: empty */
};
extern __thread struct ht_type_size ht_type_sizes[HT_TYPE_SIZES]
    __attribute__((tls_model("initial-exec")));

HT_NOINSTR static inline size_t ht_type_slot(MPI_Datatype type)
{
    uint64_t h = 0;
    memcpy(&h, &type, sizeof type < sizeof h ? sizeof type : sizeof h);
    return (size_t)((h * 0x9E3779B97F4A7C15ull) >> 62);
}

/* Whether type is a predefined datatype whose size this thread keeps
 * (ht_mpi_bytes asked it before). */
HT_NOINSTR static inline int ht_mpi_type_is_kept(MPI_Datatype type)
{
    const struct ht_type_size *e = &ht_type_sizes[ht_type_slot(type)];
    return e->size > 0 && e->type == type;
}

/* The size of type if this thread keeps it, else 0. */
HT_NOINSTR static inline MPI_Count ht_mpi_type_size_kept(MPI_Datatype type)
{
    const struct ht_type_size *e = &ht_type_sizes[ht_type_slot(type)];
    return e->type == type ? e->size : 0;
}

HT_NOINSTR static inline uint64_t ht_mpi_bytes(MPI_Count count, MPI_Datatype type)
{
    MPI_Count size = ht_mpi_type_size_kept(type);
    if (HT_LIKELY(count > 0 && size > 0))
        return (uint64_t)count * (uint64_t)size;
    return ht_mpi_bytes_asked(count, type);
}

/* Bytes of a received message, from its status (64-bit: MPI_Get_count's
 * int gives MPI_UNDEFINED past INT_MAX bytes).  MPI_Get_elements_x (or
 * MPI_Get_count_c) with MPI_BYTE costs about 100 instructions per receive
 * (Open MPI 4.1); both libraries keep that byte count in the status itself
 * (Open MPI's _ucount, MPICH's count_lo and count_hi_and_cancelled), and
 * where ht_mpi_ranks_init found that field to hold exactly what
 * MPI_Status_set_elements_x writes, it is read from there. */
extern int ht_mpi_status_count_direct;
uint64_t ht_mpi_status_bytes_asked(const MPI_Status *st);

#if defined(OPEN_MPI)
#define HT_MPI_STATUS_COUNT_FIELD 1
HT_NOINSTR static inline uint64_t ht_mpi_status_count_field(const MPI_Status *st)
{
    return (uint64_t)st->_ucount;
}
#elif defined(MPICH_NUMVERSION)
#define HT_MPI_STATUS_COUNT_FIELD 1
/* MPICH's MPIR_STATUS_GET_COUNT: bit 0 of the high word is the cancelled
 * flag. */
HT_NOINSTR static inline uint64_t ht_mpi_status_count_field(const MPI_Status *st)
{
    return ((uint64_t)((unsigned)st->count_hi_and_cancelled >> 1) << (8 * sizeof(int))) +
           (unsigned)st->count_lo;
}
#else
#define HT_MPI_STATUS_COUNT_FIELD 0
#endif

HT_NOINSTR static inline uint64_t ht_mpi_status_bytes(const MPI_Status *st)
{
#if HT_MPI_STATUS_COUNT_FIELD
    if (HT_LIKELY(ht_mpi_status_count_direct))
        return ht_mpi_status_count_field(st);
#endif
    return ht_mpi_status_bytes_asked(st);
}

#endif
