/* OTF2 writer layer for the analyzer tests (see trace_writer.h). */
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_writer.h"

#define TW_CHECK(call)                                                              \
    do {                                                                            \
        OTF2_ErrorCode tw_rc_ = (call);                                             \
        if (tw_rc_ != OTF2_SUCCESS) {                                               \
            fprintf(stderr, "trace_writer: %s failed: %s\n", #call,                 \
                    OTF2_Error_GetName(tw_rc_));                                    \
            exit(99);                                                               \
        }                                                                           \
    } while (0)

struct tw_location {
    uint64_t ref;
    uint32_t rank;
    OTF2_EvtWriter *writer;
    /* ClockOffset definitions, in order: time, offset */
    uint64_t offset_times[4];
    int64_t offsets[4];
    double deviations[4];
    uint32_t noffsets;
};

struct tw_comm {
    uint32_t name;          /* string ref */
    int inter;
    uint32_t group, group_b;
};

struct tw_group {
    uint8_t type;
    uint32_t flags;
    uint32_t size;
    uint64_t *members;
};

struct tw {
    OTF2_Archive *archive;
    uint32_t nranks;
    int omit_world_group, omit_clock, duplicate_world_comm;
    uint64_t resolution, offset;
    uint64_t first_time, last_time;
    struct tw_location *locations;
    uint32_t nlocations;
    char **strings;
    uint32_t nstrings;
    struct tw_group *groups;
    uint32_t ngroups;
    struct tw_comm *comms;
    uint32_t ncomms;
    uint32_t *regions; /* string ref of each region's name, from region 1 */
    uint32_t nregions;
};

static void *grow(void *p, size_t count, size_t size)
{
    p = realloc(p, (count + 1) * size);
    if (!p) {
        fprintf(stderr, "trace_writer: out of memory\n");
        exit(99);
    }
    return p;
}

static uint32_t add_string(struct tw *tw, const char *s)
{
    tw->strings = grow(tw->strings, tw->nstrings, sizeof *tw->strings);
    tw->strings[tw->nstrings] = strdup(s);
    return tw->nstrings++;
}

static uint32_t add_group(struct tw *tw, uint8_t type, uint32_t flags, uint32_t size,
                          const uint64_t *members)
{
    tw->groups = grow(tw->groups, tw->ngroups, sizeof *tw->groups);
    struct tw_group *g = &tw->groups[tw->ngroups];
    g->type = type;
    g->flags = flags;
    g->size = size;
    g->members = malloc((size ? size : 1) * sizeof *members);
    if (size)
        memcpy(g->members, members, size * sizeof *members);
    return tw->ngroups++;
}

static uint32_t add_comm_def(struct tw *tw, const char *name, int inter, uint32_t group,
                             uint32_t group_b)
{
    tw->comms = grow(tw->comms, tw->ncomms, sizeof *tw->comms);
    struct tw_comm *c = &tw->comms[tw->ncomms];
    c->name = add_string(tw, name);
    c->inter = inter;
    c->group = group;
    c->group_b = group_b;
    return tw->ncomms++;
}

static OTF2_FlushType pre_flush(void *user_data, OTF2_FileType file_type,
                                OTF2_LocationRef location, void *caller_data, bool final)
{
    (void)user_data;
    (void)file_type;
    (void)location;
    (void)caller_data;
    (void)final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user_data, OTF2_FileType file_type,
                                 OTF2_LocationRef location)
{
    (void)user_data;
    (void)file_type;
    (void)location;
    return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {
    .otf2_pre_flush = pre_flush,
    .otf2_post_flush = post_flush,
};

static struct tw_location *add_location(struct tw *tw, uint64_t ref, uint32_t rank)
{
    tw->locations = grow(tw->locations, tw->nlocations, sizeof *tw->locations);
    struct tw_location *l = &tw->locations[tw->nlocations++];
    l->ref = ref;
    l->rank = rank;
    l->noffsets = 0;
    l->writer = OTF2_Archive_GetEvtWriter(tw->archive, ref);
    if (!l->writer) {
        fprintf(stderr, "trace_writer: no event writer for location %llu\n",
                (unsigned long long)ref);
        exit(99);
    }
    return l;
}

struct tw *tw_create(const char *directory, uint32_t nranks)
{
    struct tw *tw = calloc(1, sizeof *tw);
    tw->nranks = nranks;
    tw->resolution = 1000000000u;
    tw->first_time = UINT64_MAX;
    tw->archive = OTF2_Archive_Open(directory, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                    4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
                                    OTF2_COMPRESSION_NONE);
    if (!tw->archive) {
        fprintf(stderr, "trace_writer: cannot create an archive in %s\n", directory);
        exit(99);
    }
    TW_CHECK(OTF2_Archive_SetFlushCallbacks(tw->archive, &flush_callbacks, NULL));
    TW_CHECK(OTF2_Archive_SetSerialCollectiveCallbacks(tw->archive));
    TW_CHECK(OTF2_Archive_SetCreator(tw->archive, "hooktrace analyzer tests"));
    TW_CHECK(OTF2_Archive_OpenEvtFiles(tw->archive));
    for (uint32_t r = 0; r < nranks; r++)
        add_location(tw, tw_rank_location(tw, r), r);

    /* Group 0: COMM_LOCATIONS; 1: the world group; 2: COMM_SELF.
     * Comm 0: MPI_COMM_WORLD; 1: MPI_COMM_SELF. */
    uint64_t *members = malloc((nranks ? nranks : 1) * sizeof *members);
    for (uint32_t r = 0; r < nranks; r++)
        members[r] = tw_rank_location(tw, r);
    add_group(tw, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_GROUP_FLAG_NONE, nranks, members);
    for (uint32_t r = 0; r < nranks; r++)
        members[r] = r;
    add_group(tw, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_GROUP_FLAG_NONE, nranks, members);
    add_group(tw, OTF2_GROUP_TYPE_COMM_SELF, OTF2_GROUP_FLAG_NONE, 0, NULL);
    free(members);
    add_comm_def(tw, "MPI_COMM_WORLD", 0, 1, 0);
    add_comm_def(tw, "MPI_COMM_SELF", 0, 2, 0);
    return tw;
}

void tw_omit_world_group(struct tw *tw)
{
    tw->omit_world_group = 1;
}

void tw_omit_clock(struct tw *tw)
{
    tw->omit_clock = 1;
}

void tw_duplicate_world_comm(struct tw *tw)
{
    tw->duplicate_world_comm = 1;
}

void tw_set_clock(struct tw *tw, uint64_t resolution, uint64_t offset)
{
    tw->resolution = resolution;
    tw->offset = offset;
}

uint64_t tw_rank_location(const struct tw *tw, uint32_t rank)
{
    return 100 + (uint64_t)(tw->nranks - 1 - rank);
}

uint64_t tw_add_thread(struct tw *tw, uint32_t rank)
{
    return add_location(tw, 500 + tw->nlocations, rank)->ref;
}

uint32_t tw_add_comm(struct tw *tw, const char *name, uint32_t size, const uint32_t *members,
                     uint32_t flags)
{
    uint64_t *m = malloc((size ? size : 1) * sizeof *m);
    for (uint32_t i = 0; i < size; i++)
        m[i] = members[i];
    uint32_t g = add_group(tw, OTF2_GROUP_TYPE_COMM_GROUP, flags, size, m);
    free(m);
    return add_comm_def(tw, name, 0, g, 0);
}

uint32_t tw_add_inter_comm(struct tw *tw, const char *name, uint32_t size_a, const uint32_t *a,
                           uint32_t size_b, const uint32_t *b)
{
    uint64_t *m = malloc((size_a + size_b + 1) * sizeof *m);
    for (uint32_t i = 0; i < size_a; i++)
        m[i] = a[i];
    uint32_t ga = add_group(tw, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_GROUP_FLAG_NONE, size_a, m);
    for (uint32_t i = 0; i < size_b; i++)
        m[i] = b[i];
    uint32_t gb = add_group(tw, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_GROUP_FLAG_NONE, size_b, m);
    free(m);
    return add_comm_def(tw, name, 1, ga, gb);
}

static struct tw_location *find_location(struct tw *tw, uint64_t loc)
{
    for (uint32_t i = 0; i < tw->nlocations; i++) {
        if (tw->locations[i].ref == loc)
            return &tw->locations[i];
    }
    fprintf(stderr, "trace_writer: unknown location %llu\n", (unsigned long long)loc);
    exit(99);
}

void tw_clock_offset(struct tw *tw, uint64_t loc, uint64_t time, int64_t offset, double deviation)
{
    struct tw_location *l = find_location(tw, loc);
    if (l->noffsets == 4) {
        fprintf(stderr, "trace_writer: more than 4 clock offsets\n");
        exit(99);
    }
    l->offset_times[l->noffsets] = time;
    l->offsets[l->noffsets] = offset;
    l->deviations[l->noffsets++] = deviation;
}

static OTF2_EvtWriter *writer(struct tw *tw, uint64_t loc, uint64_t time)
{
    if (time < tw->first_time)
        tw->first_time = time;
    if (time > tw->last_time)
        tw->last_time = time;
    for (uint32_t i = 0; i < tw->nlocations; i++) {
        if (tw->locations[i].ref == loc)
            return tw->locations[i].writer;
    }
    fprintf(stderr, "trace_writer: unknown location %llu\n", (unsigned long long)loc);
    exit(99);
}

void tw_send(struct tw *tw, uint64_t loc, uint64_t time, uint32_t peer, uint32_t comm,
             uint32_t tag, uint64_t bytes)
{
    TW_CHECK(OTF2_EvtWriter_MpiSend(writer(tw, loc, time), NULL, time, peer, comm, tag, bytes));
}

void tw_isend(struct tw *tw, uint64_t loc, uint64_t time, uint32_t peer, uint32_t comm,
              uint32_t tag, uint64_t bytes, uint64_t request)
{
    TW_CHECK(OTF2_EvtWriter_MpiIsend(writer(tw, loc, time), NULL, time, peer, comm, tag, bytes,
                                     request));
}

void tw_isend_complete(struct tw *tw, uint64_t loc, uint64_t time, uint64_t request)
{
    TW_CHECK(OTF2_EvtWriter_MpiIsendComplete(writer(tw, loc, time), NULL, time, request));
}

void tw_recv(struct tw *tw, uint64_t loc, uint64_t time, uint32_t peer, uint32_t comm,
             uint32_t tag, uint64_t bytes)
{
    TW_CHECK(OTF2_EvtWriter_MpiRecv(writer(tw, loc, time), NULL, time, peer, comm, tag, bytes));
}

void tw_irecv_request(struct tw *tw, uint64_t loc, uint64_t time, uint64_t request)
{
    TW_CHECK(OTF2_EvtWriter_MpiIrecvRequest(writer(tw, loc, time), NULL, time, request));
}

void tw_irecv(struct tw *tw, uint64_t loc, uint64_t time, uint32_t peer, uint32_t comm,
              uint32_t tag, uint64_t bytes, uint64_t request)
{
    TW_CHECK(OTF2_EvtWriter_MpiIrecv(writer(tw, loc, time), NULL, time, peer, comm, tag, bytes,
                                     request));
}

void tw_cancelled(struct tw *tw, uint64_t loc, uint64_t time, uint64_t request)
{
    TW_CHECK(OTF2_EvtWriter_MpiRequestCancelled(writer(tw, loc, time), NULL, time, request));
}

void tw_enter(struct tw *tw, uint64_t loc, uint64_t time)
{
    TW_CHECK(OTF2_EvtWriter_Enter(writer(tw, loc, time), NULL, time, 0));
}

void tw_leave(struct tw *tw, uint64_t loc, uint64_t time)
{
    TW_CHECK(OTF2_EvtWriter_Leave(writer(tw, loc, time), NULL, time, 0));
}

uint32_t tw_region(struct tw *tw, const char *name)
{
    tw->regions = grow(tw->regions, tw->nregions, sizeof *tw->regions);
    tw->regions[tw->nregions] = add_string(tw, name);
    return ++tw->nregions;
}

void tw_enter_region(struct tw *tw, uint64_t loc, uint64_t time, uint32_t region)
{
    TW_CHECK(OTF2_EvtWriter_Enter(writer(tw, loc, time), NULL, time, region));
}

void tw_leave_region(struct tw *tw, uint64_t loc, uint64_t time, uint32_t region)
{
    TW_CHECK(OTF2_EvtWriter_Leave(writer(tw, loc, time), NULL, time, region));
}

void tw_collective(struct tw *tw, uint64_t loc, uint64_t begin, uint64_t end, uint8_t op,
                   uint32_t comm, uint32_t root)
{
    TW_CHECK(OTF2_EvtWriter_MpiCollectiveBegin(writer(tw, loc, begin), NULL, begin));
    TW_CHECK(OTF2_EvtWriter_MpiCollectiveEnd(writer(tw, loc, end), NULL, end, op, comm, root,
                                             0, 0));
}

static void write_definitions(struct tw *tw, const uint64_t *events)
{
    OTF2_GlobalDefWriter *d = OTF2_Archive_GetGlobalDefWriter(tw->archive);
    if (!d) {
        fprintf(stderr, "trace_writer: no global definition writer\n");
        exit(99);
    }
    uint64_t first = tw->first_time == UINT64_MAX ? tw->offset : tw->first_time;
    if (!tw->omit_clock)
        TW_CHECK(OTF2_GlobalDefWriter_WriteClockProperties(
            d, tw->resolution, tw->offset, tw->last_time > first ? tw->last_time - first : 1,
            OTF2_UNDEFINED_TIMESTAMP));
    uint32_t s_node = add_string(tw, "node"), s_machine = add_string(tw, "machine");
    uint32_t s_region = add_string(tw, "work"), s_group = add_string(tw, "group");
    for (uint32_t i = 0; i < tw->nstrings; i++)
        TW_CHECK(OTF2_GlobalDefWriter_WriteString(d, i, tw->strings[i]));
    TW_CHECK(OTF2_GlobalDefWriter_WriteRegion(d, 0, s_region, s_region, s_region,
                                              OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
                                              OTF2_REGION_FLAG_NONE, s_region, 0, 0));
    for (uint32_t r = 0; r < tw->nregions; r++) {
        const char *name = tw->strings[tw->regions[r]];
        int mpi = strncmp(name, "MPI_", 4) == 0;
        TW_CHECK(OTF2_GlobalDefWriter_WriteRegion(
            d, r + 1, tw->regions[r], tw->regions[r], tw->regions[r],
            mpi ? OTF2_REGION_ROLE_POINT2POINT : OTF2_REGION_ROLE_FUNCTION,
            mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_COMPILER, OTF2_REGION_FLAG_NONE, s_region,
            0, 0));
    }
    TW_CHECK(OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, s_machine, s_node,
                                                      OTF2_UNDEFINED_SYSTEM_TREE_NODE));
    for (uint32_t r = 0; r < tw->nranks; r++) {
        char name[32];
        snprintf(name, sizeof name, "MPI Rank %u", r);
        TW_CHECK(OTF2_GlobalDefWriter_WriteString(d, tw->nstrings + r, name));
        TW_CHECK(OTF2_GlobalDefWriter_WriteLocationGroup(d, r, tw->nstrings + r,
                                                         OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                         OTF2_UNDEFINED_LOCATION_GROUP));
    }
    /* Locations in reference order, which is not rank order. */
    for (uint32_t pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < tw->nlocations; i++) {
            const struct tw_location *l = &tw->locations[i];
            if ((pass == 0) != (l->ref < 500))
                continue;
            TW_CHECK(OTF2_GlobalDefWriter_WriteLocation(d, l->ref, tw->nstrings + l->rank,
                                                        OTF2_LOCATION_TYPE_CPU_THREAD,
                                                        events[i], l->rank));
        }
    }
    for (uint32_t g = 0; g < tw->ngroups; g++) {
        if (g == 0 && tw->omit_world_group)
            continue;
        const struct tw_group *gr = &tw->groups[g];
        TW_CHECK(OTF2_GlobalDefWriter_WriteGroup(d, g, s_group, gr->type,
                                                 OTF2_PARADIGM_MPI, gr->flags, gr->size,
                                                 gr->members));
    }
    for (uint32_t c = 0; c < tw->ncomms; c++) {
        const struct tw_comm *cm = &tw->comms[c];
        if (cm->inter)
            TW_CHECK(OTF2_GlobalDefWriter_WriteInterComm(d, c, cm->name, cm->group, cm->group_b,
                                                         TW_COMM_WORLD, OTF2_COMM_FLAG_NONE));
        else
            TW_CHECK(OTF2_GlobalDefWriter_WriteComm(d, c, cm->name, cm->group,
                                                    c == 0 ? OTF2_UNDEFINED_COMM : TW_COMM_WORLD,
                                                    OTF2_COMM_FLAG_NONE));
    }
    if (tw->duplicate_world_comm)
        TW_CHECK(OTF2_GlobalDefWriter_WriteComm(d, TW_COMM_WORLD, tw->comms[0].name, 2,
                                                OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
    (void)s_node;
}

void tw_close(struct tw *tw)
{
    uint64_t *events = calloc(tw->nlocations + 1, sizeof *events);
    for (uint32_t i = 0; i < tw->nlocations; i++) {
        TW_CHECK(OTF2_EvtWriter_GetNumberOfEvents(tw->locations[i].writer, &events[i]));
        TW_CHECK(OTF2_Archive_CloseEvtWriter(tw->archive, tw->locations[i].writer));
    }
    TW_CHECK(OTF2_Archive_CloseEvtFiles(tw->archive));
    /* Local definition files: empty, as most writers leave them, or with
     * the location's ClockOffsets, as Score-P writes them. */
    TW_CHECK(OTF2_Archive_OpenDefFiles(tw->archive));
    for (uint32_t i = 0; i < tw->nlocations; i++) {
        const struct tw_location *l = &tw->locations[i];
        OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(tw->archive, l->ref);
        if (!dw) {
            fprintf(stderr, "trace_writer: no definition writer\n");
            exit(99);
        }
        for (uint32_t k = 0; k < l->noffsets; k++)
            TW_CHECK(OTF2_DefWriter_WriteClockOffset(dw, l->offset_times[k], l->offsets[k],
                                                     l->deviations[k]));
        TW_CHECK(OTF2_Archive_CloseDefWriter(tw->archive, dw));
    }
    TW_CHECK(OTF2_Archive_CloseDefFiles(tw->archive));
    write_definitions(tw, events);
    TW_CHECK(OTF2_Archive_Close(tw->archive));
    free(events);
    for (uint32_t i = 0; i < tw->nstrings; i++)
        free(tw->strings[i]);
    for (uint32_t g = 0; g < tw->ngroups; g++)
        free(tw->groups[g].members);
    free(tw->strings);
    free(tw->groups);
    free(tw->comms);
    free(tw->regions);
    free(tw->locations);
    free(tw);
}
