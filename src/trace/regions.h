/* What the trace says about a region beyond its name: MPI routines are of
 * the MPI paradigm with a role, collectives carry their OTF2 operation. */
#ifndef HT_TRACE_REGIONS_H
#define HT_TRACE_REGIONS_H

#include <otf2/otf2.h>
#include <stdbool.h>

struct ht_region_kind {
    OTF2_Paradigm paradigm;
    OTF2_RegionRole role;
    int collective_op;   /* an OTF2_CollectiveOp, or -1 */
    bool nonblocking;    /* MPI_I<collective> */
};

/* From the region's display name ("MPI_Bcast", "main", ...). */
struct ht_region_kind ht_region_kind_of(const char *name);

#endif
