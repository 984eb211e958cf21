#include "trace/regions.h"

#include <string.h>
#include <strings.h>

/* The collectives OTF2 3.0 has an operation for (it has none for the
 * neighbourhood collectives: those are plain MPI regions in the trace). */
static const struct {
    const char *name; /* without "MPI_" and without the non-blocking "I" */
    OTF2_CollectiveOp op;
    OTF2_RegionRole role;
} collectives[] = {
    {"Barrier", OTF2_COLLECTIVE_OP_BARRIER, OTF2_REGION_ROLE_BARRIER},
    {"Bcast", OTF2_COLLECTIVE_OP_BCAST, OTF2_REGION_ROLE_COLL_ONE2ALL},
    {"Gather", OTF2_COLLECTIVE_OP_GATHER, OTF2_REGION_ROLE_COLL_ALL2ONE},
    {"Gatherv", OTF2_COLLECTIVE_OP_GATHERV, OTF2_REGION_ROLE_COLL_ALL2ONE},
    {"Scatter", OTF2_COLLECTIVE_OP_SCATTER, OTF2_REGION_ROLE_COLL_ONE2ALL},
    {"Scatterv", OTF2_COLLECTIVE_OP_SCATTERV, OTF2_REGION_ROLE_COLL_ONE2ALL},
    {"Allgather", OTF2_COLLECTIVE_OP_ALLGATHER, OTF2_REGION_ROLE_COLL_ALL2ALL},
    {"Allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV, OTF2_REGION_ROLE_COLL_ALL2ALL},
    {"Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL, OTF2_REGION_ROLE_COLL_ALL2ALL},
    {"Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV, OTF2_REGION_ROLE_COLL_ALL2ALL},
    {"Alltoallw", OTF2_COLLECTIVE_OP_ALLTOALLW, OTF2_REGION_ROLE_COLL_ALL2ALL},
    {"Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, OTF2_REGION_ROLE_COLL_ALL2ALL},
    {"Reduce", OTF2_COLLECTIVE_OP_REDUCE, OTF2_REGION_ROLE_COLL_ALL2ONE},
    {"Reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER, OTF2_REGION_ROLE_COLL_ALL2ALL},
    {"Reduce_scatter_block", OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK,
     OTF2_REGION_ROLE_COLL_ALL2ALL},
    {"Scan", OTF2_COLLECTIVE_OP_SCAN, OTF2_REGION_ROLE_COLL_OTHER},
    {"Exscan", OTF2_COLLECTIVE_OP_EXSCAN, OTF2_REGION_ROLE_COLL_OTHER},
};

/* Case-blind: the non-blocking forms lower-case the first letter
 * (MPI_Ibcast). */
static int find_collective(const char *name)
{
    for (size_t i = 0; i < sizeof collectives / sizeof collectives[0]; i++)
        if (strcasecmp(name, collectives[i].name) == 0)
            return (int)i;
    return -1;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

struct ht_region_kind ht_region_kind_of(const char *name)
{
    struct ht_region_kind k = {OTF2_PARADIGM_COMPILER, OTF2_REGION_ROLE_FUNCTION, -1, false};
    if (!starts_with(name, "MPI_"))
        return k;
    k.paradigm = OTF2_PARADIGM_MPI;
    const char *rest = name + 4;
    int i = find_collective(rest);
    if (i < 0 && rest[0] == 'I' && (i = find_collective(rest + 1)) >= 0)
        k.nonblocking = true;
    if (i >= 0) {
        k.collective_op = (int)collectives[i].op;
        k.role = collectives[i].role;
        return k;
    }
    if (starts_with(rest, "Neighbor_") || starts_with(rest, "Ineighbor_"))
        k.role = OTF2_REGION_ROLE_COLL_OTHER;
    else if (strstr(rest, "send") || strstr(rest, "recv") || strstr(rest, "Send") ||
             strstr(rest, "Recv") || starts_with(rest, "Wait") || starts_with(rest, "Test") ||
             starts_with(rest, "Start") || strstr(rest, "probe") || strstr(rest, "Probe"))
        k.role = OTF2_REGION_ROLE_POINT2POINT;
    else if (starts_with(rest, "Put") || starts_with(rest, "Get") || starts_with(rest, "Rput") ||
             starts_with(rest, "Rget") || starts_with(rest, "Win_") ||
             strstr(rest, "ccumulate") || starts_with(rest, "Fetch_and_op") ||
             starts_with(rest, "Compare_and_swap"))
        k.role = OTF2_REGION_ROLE_RMA;
    return k;
}
