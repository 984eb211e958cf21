/* Fortran translation helpers for the generated wrappers (fortran.h), and
 * the handwritten MPI_Pcontrol binding. */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/compiler.h"
#include "fortran/fortran.h"
#include "mpi/abi.h"
#include "mpi/state.h"

/* Fortran's MPI_IN_PLACE, MPI_BOTTOM and MPI_STATUS(ES)_IGNORE are
 * variables (common blocks, bind(C) module variables) whose addresses the
 * binding compares against.  Their names depend on the library and on the
 * compiler's name mangling, so we look up every variant once; whichever
 * exist are the sentinels.  dlsym(RTLD_DEFAULT) returns the definition the
 * program and MPI actually share (the program's own copy if it has one). */
#define HT_F_MAX_ADDRS 8
struct ht_f_sentinel {
    const char *const *names;
    const void *addrs[HT_F_MAX_ADDRS];
    int n;
};

#define HT_F_VARIANTS(lower, upper) lower "_", lower, lower "__", upper
static const char *const in_place_names[] = {
    HT_F_VARIANTS("mpi_fortran_in_place", "MPI_FORTRAN_IN_PLACE"),     /* Open MPI */
    "*MPIR_F_MPI_IN_PLACE", "MPIR_F08_MPI_IN_PLACE", NULL};            /* MPICH */
static const char *const bottom_names[] = {
    HT_F_VARIANTS("mpi_fortran_bottom", "MPI_FORTRAN_BOTTOM"),
    "*MPIR_F_MPI_BOTTOM", "MPIR_F08_MPI_BOTTOM", NULL};
static const char *const status_names[] = {
    HT_F_VARIANTS("mpi_fortran_status_ignore", "MPI_FORTRAN_STATUS_IGNORE"),
    "MPIR_F08_MPI_STATUS_IGNORE_OBJ", NULL};
static const char *const statuses_names[] = {
    HT_F_VARIANTS("mpi_fortran_statuses_ignore", "MPI_FORTRAN_STATUSES_IGNORE"),
    "MPIR_F08_MPI_STATUSES_IGNORE_OBJ", NULL};

static struct ht_f_sentinel in_place = {in_place_names, {0}, 0};
static struct ht_f_sentinel bottom = {bottom_names, {0}, 0};
static struct ht_f_sentinel status_ignore = {status_names, {0}, 0};
static struct ht_f_sentinel statuses_ignore = {statuses_names, {0}, 0};
static int sentinels_ready;

/* A name starting with '*' is a pointer variable holding the sentinel's
 * address: MPICH's MPIR_F_MPI_IN_PLACE points into the common block
 * /MPIPRIV1/, and its Fortran binding fills it in on its first call.
 * Returns false if such a pointer is still NULL (look again later). */
static bool lookup(struct ht_f_sentinel *s)
{
    int n = 0;
    bool complete = true;
    for (const char *const *name = s->names; *name && n < HT_F_MAX_ADDRS; name++) {
        bool indirect = (*name)[0] == '*';
        const void *a = dlsym(RTLD_DEFAULT, *name + indirect);
        if (a && indirect) {
            a = *(const void *const *)a;
            complete &= a != NULL;
        }
        if (a)
            s->addrs[n++] = a;
    }
    s->n = n;
    return complete;
}

/* Only after MPI_Init can MPICH's Fortran sentinels be known, and the
 * wrappers run only after it: looked up on first use.  Two threads racing
 * here store the same values. */
static void sentinels_lookup(void)
{
    bool complete = lookup(&in_place);
    complete &= lookup(&bottom);
    complete &= lookup(&status_ignore);
    complete &= lookup(&statuses_ignore);
    if (complete)
        __atomic_store_n(&sentinels_ready, 1, __ATOMIC_RELEASE);
}

static bool is_sentinel(struct ht_f_sentinel *s, const void *p)
{
    if (HT_UNLIKELY(!__atomic_load_n(&sentinels_ready, __ATOMIC_ACQUIRE)))
        sentinels_lookup();
    for (int i = 0; i < s->n; i++)
        if (s->addrs[i] == p)
            return true;
    return false;
}

bool ht_f_status_ignored(const MPI_Fint *status)
{
    /* MPI_F_STATUS_IGNORE is the standard's name for the address (MPICH
     * sets it during Fortran initialisation). */
    return status == MPI_F_STATUS_IGNORE || is_sentinel(&status_ignore, status);
}

static bool statuses_ignored(const MPI_Fint *statuses)
{
    return statuses == MPI_F_STATUSES_IGNORE || is_sentinel(&statuses_ignore, statuses);
}

void *ht_f_buf(void *buf)
{
    if (is_sentinel(&in_place, buf))
        return MPI_IN_PLACE;
    if (is_sentinel(&bottom, buf))
        return MPI_BOTTOM;
    return buf;
}

bool ht_f_scratch_init(struct ht_f_scratch *s, int count, const MPI_Fint *requests,
                       MPI_Fint *user_statuses)
{
    if (count < 0)
        count = 0;
    s->count = count;
    s->heap = NULL;
    s->handles = s->local_handles;
    s->fstatuses = user_statuses;
    s->statuses = s->local_statuses;
    bool own = user_statuses != NULL && statuses_ignored(user_statuses);
    if (count > HT_F_SCRATCH_LOCAL || HT_F_STATUS_SIZE > 8) {
        size_t bytes = (size_t)count * (sizeof(MPI_Request) + sizeof(MPI_Status) +
                                        HT_F_STATUS_SIZE * sizeof(MPI_Fint));
        char *p = malloc(bytes ? bytes : 1);
        if (!p)
            return false;
        s->heap = p;
        s->handles = (MPI_Request *)p;
        s->statuses = (MPI_Status *)(p + (size_t)count * sizeof(MPI_Request));
        if (own)
            s->fstatuses = (MPI_Fint *)(p + (size_t)count * (sizeof(MPI_Request) + sizeof(MPI_Status)));
    } else if (own) {
        s->fstatuses = s->local_fstatuses;
    }
    for (int i = 0; i < count; i++)
        s->handles[i] = PMPI_Request_f2c(requests[i]);
    return true;
}

const MPI_Status *ht_f_scratch_statuses(struct ht_f_scratch *s)
{
    for (int i = 0; i < s->count; i++)
        PMPI_Status_f2c(s->fstatuses + (size_t)i * HT_F_STATUS_SIZE, &s->statuses[i]);
    return s->statuses;
}

void ht_f_scratch_free(struct ht_f_scratch *s)
{
    free(s->heap);
}

void ht_f_done_any(struct ht_mpi_call *c, struct ht_f_scratch *s, int index, int base,
                   const MPI_Status *st)
{
    if (index - base >= 0 && index - base < s->count)
        ht_mpi_on_done(c, s->handles[index - base], st);
}

void ht_f_done_some(struct ht_mpi_call *c, struct ht_f_scratch *s, int outcount,
                    const int *indices, int base)
{
    if (outcount == MPI_UNDEFINED)
        return;
    const MPI_Status *st = ht_f_scratch_statuses(s);
    for (int k = 0; k < outcount && k < s->count; k++)
        if (indices[k] - base >= 0 && indices[k] - base < s->count)
            ht_mpi_on_done(c, s->handles[indices[k] - base], &st[k]);
}

static int types_count(MPI_Comm comm, enum ht_f_types_of of)
{
    int n = -1, inter = 0, topo = MPI_UNDEFINED;
    if (of == HT_F_TYPES_PEERS) {
        if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
            return -1;
        if ((inter ? PMPI_Comm_remote_size(comm, &n) : PMPI_Comm_size(comm, &n)) != MPI_SUCCESS)
            return -1;
        return n;
    }
    if (PMPI_Topo_test(comm, &topo) != MPI_SUCCESS)
        return -1;
    if (topo == MPI_CART) {
        int ndims = 0;
        return PMPI_Cartdim_get(comm, &ndims) == MPI_SUCCESS ? 2 * ndims : -1;
    }
    if (topo == MPI_GRAPH) {
        int rank = 0;
        if (PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
            PMPI_Graph_neighbors_count(comm, rank, &n) != MPI_SUCCESS)
            return -1;
        return n;
    }
    if (topo == MPI_DIST_GRAPH) {
        int indeg = 0, outdeg = 0, weighted = 0;
        if (PMPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted) != MPI_SUCCESS)
            return -1;
        return of == HT_F_TYPES_SOURCES ? indeg : outdeg;
    }
    return -1;
}

const MPI_Datatype *ht_f_types_init(struct ht_f_types *t, const MPI_Fint *f, MPI_Comm comm,
                                    enum ht_f_types_of of)
{
    t->heap = NULL;
    int n = types_count(comm, of);
    if (n < 0)
        return NULL;
    MPI_Datatype *types = t->local;
    if (n > HT_F_TYPES_LOCAL && (types = t->heap = malloc((size_t)n * sizeof *types)) == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        types[i] = PMPI_Type_f2c(f[i]);
    return types;
}

void ht_f_types_free(struct ht_f_types *t)
{
    free(t->heap);
}

/* MPI_PCONTROL(LEVEL) has no ierror; the C routine is variadic. */
extern void pmpi_pcontrol_(MPI_Fint *level);
#pragma weak pmpi_pcontrol_
HT_EXPORT void mpi_pcontrol_(MPI_Fint *level);
HT_EXPORT void mpi_pcontrol_(MPI_Fint *level)
{
    if (ht_mpi_abi_matches())
        ht_mpi_pcontrol((int)*level);
    pmpi_pcontrol_(level);
}
HT_EXPORT void mpi_pcontrol(MPI_Fint *level) __attribute__((alias("mpi_pcontrol_")));
HT_EXPORT void mpi_pcontrol__(MPI_Fint *level) __attribute__((alias("mpi_pcontrol_")));
HT_EXPORT void MPI_PCONTROL(MPI_Fint *level) __attribute__((alias("mpi_pcontrol_")));
/* use mpi_f08: Open MPI's profiling entry is pmpi_pcontrol_f08_, MPICH's
 * pmpir_pcontrol_f08_. */
#if HT_FORTRAN_F08 || HT_FORTRAN_F08TS
#if HT_FORTRAN_F08
#define HT_PMPI_PCONTROL_F08 pmpi_pcontrol_f08_
#else
#define HT_PMPI_PCONTROL_F08 pmpir_pcontrol_f08_
#endif
/* MPICH 4.0's takes an OPTIONAL ierror after the level, which it writes
 * unless NULL: passed on as it came (Open MPI's ignores it). */
extern void HT_PMPI_PCONTROL_F08(MPI_Fint *level, MPI_Fint *ierr);
#if HT_FORTRAN_F08
#pragma weak pmpi_pcontrol_f08_
#else
#pragma weak pmpir_pcontrol_f08_
#endif
HT_EXPORT void mpi_pcontrol_f08_(MPI_Fint *level, MPI_Fint *ierr);
HT_EXPORT void mpi_pcontrol_f08_(MPI_Fint *level, MPI_Fint *ierr)
{
    static ht_mpi_entry next;
    if (!ht_mpi_abi_matches()) { /* the program's own, as the generated wrappers' */
        ((void (*)(MPI_Fint *, MPI_Fint *))ht_mpi_foreign_entry(&next, "mpi_pcontrol_f08_"))(level, ierr);
        return;
    }
    ht_mpi_pcontrol((int)*level);
    HT_PMPI_PCONTROL_F08(level, ierr);
}
#endif
