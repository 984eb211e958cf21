/* The global definitions rank 0 writes: clock, strings, regions, the
 * system tree, a location group per rank, a location per thread, and the
 * MPI groups and communicators a reader needs to turn communicator ranks
 * into locations (COMM_LOCATIONS lists each rank's first thread by world
 * rank; every communicator's group lists world ranks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/archive_internal.h"
#include "trace/regions.h"

/* Strings are numbered as they are written. */
struct strings {
    OTF2_GlobalDefWriter *w;
    uint32_t next;
    bool ok;
};

static OTF2_StringRef string(struct strings *s, const char *text)
{
    if (OTF2_GlobalDefWriter_WriteString(s->w, s->next, text) != OTF2_SUCCESS)
        s->ok = false;
    return s->next++;
}

static bool ok(OTF2_ErrorCode e)
{
    return e == OTF2_SUCCESS;
}

/* The processes with locations in this archive: every rank, one rank
 * alone, or the process of a program without MPI. */
static int process_count(const struct ht_trace_defs *d)
{
    return d->mpi && d->own_rank < 0 ? d->world_size : 1;
}

static int process_rank(const struct ht_trace_defs *d, int i)
{
    return d->own_rank >= 0 ? d->own_rank : i;
}

static bool write_clock(OTF2_GlobalDefWriter *w, const struct ht_trace_defs *d)
{
    uint64_t first = UINT64_MAX, last = 0;
    for (uint32_t i = 0; i < d->location_count; i++) {
        if (d->locations[i].events == 0)
            continue;
        if (d->locations[i].first_tick < first)
            first = d->locations[i].first_tick;
        if (d->locations[i].last_tick > last)
            last = d->locations[i].last_tick;
    }
    if (first > last)
        first = last = 0;
    return ok(OTF2_GlobalDefWriter_WriteClockProperties(w, (uint64_t)(d->ticks_per_second + 0.5),
                                                        first, last - first,
                                                        OTF2_UNDEFINED_TIMESTAMP));
}

static bool write_regions(OTF2_GlobalDefWriter *w, struct strings *s, const struct ht_trace_defs *d)
{
    size_t pos = 0;
    const char *blob;
    uint32_t len, id = 0;
    OTF2_StringRef empty = string(s, "");
    while (ht_blobs_next(&d->regions, &pos, &blob, &len)) {
        /* "name\0file\0line" */
        const char *name = blob, *file = name + strlen(name) + 1;
        unsigned line = (unsigned)strtoul(file + strlen(file) + 1, NULL, 10);
        struct ht_region_kind k = ht_region_kind_of(name);
        OTF2_StringRef n = string(s, name);
        OTF2_StringRef f = file[0] ? string(s, file) : empty;
        if (!ok(OTF2_GlobalDefWriter_WriteRegion(w, id++, n, n, empty, k.role, k.paradigm,
                                                 OTF2_REGION_FLAG_NONE, f, line, line)))
            return false;
    }
    return s->ok;
}

/* One system-tree node per distinct host under one root. */
static bool write_system_tree(OTF2_GlobalDefWriter *w, struct strings *s,
                              const struct ht_trace_defs *d, uint32_t *host_node)
{
    int hosts = process_count(d);
    OTF2_StringRef machine = string(s, "machine"), node = string(s, "node");
    if (!ok(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, string(s, "hooktrace run"), machine,
                                                     OTF2_UNDEFINED_SYSTEM_TREE_NODE)))
        return false;
    uint32_t next = 1;
    for (int r = 0; r < hosts; r++) {
        host_node[r] = 0;
        for (int q = 0; q < r; q++) {
            if (strcmp(d->hosts[q], d->hosts[r]) == 0) {
                host_node[r] = host_node[q];
                break;
            }
        }
        if (host_node[r])
            continue;
        host_node[r] = next++;
        if (!ok(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, host_node[r], string(s, d->hosts[r]),
                                                         node, 0)))
            return false;
    }
    return s->ok;
}

static bool write_locations(OTF2_GlobalDefWriter *w, struct strings *s,
                            const struct ht_trace_defs *d, const uint32_t *host_node)
{
    char name[96];
    for (int i = 0; i < process_count(d); i++) {
        int r = process_rank(d, i);
        if (d->mpi)
            snprintf(name, sizeof name, "MPI rank %d", r);
        else
            snprintf(name, sizeof name, "%s", d->program ? d->program : "process");
        /* Ids from 0, as readers expect them, also for one rank alone. */
        if (!ok(OTF2_GlobalDefWriter_WriteLocationGroup(w, (uint32_t)i, string(s, name),
                                                        OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                        host_node[i],
                                                        OTF2_UNDEFINED_LOCATION_GROUP)))
            return false;
    }
    for (uint32_t i = 0; i < d->location_count; i++) {
        const struct ht_location_info *l = &d->locations[i];
        if (d->mpi)
            snprintf(name, sizeof name, "rank %d thread %d", l->rank, l->thread);
        else
            snprintf(name, sizeof name, "thread %d", l->thread);
        if (!ok(OTF2_GlobalDefWriter_WriteLocation(w, l->id, string(s, name),
                                                   OTF2_LOCATION_TYPE_CPU_THREAD, l->events,
                                                   (uint32_t)(d->own_rank >= 0 || l->rank < 0
                                                                  ? 0
                                                                  : l->rank))))
            return false;
    }
    return s->ok;
}

/* Parses "a,b,c" (up to the end or a stop character) into world ranks. */
static uint64_t *parse_members(const char *text, char stop, uint32_t *count)
{
    uint32_t n = *text && *text != stop ? 1 : 0;
    for (const char *p = text; *p && *p != stop; p++)
        n += *p == ',';
    uint64_t *m = malloc((n ? n : 1) * sizeof *m);
    if (!m)
        return NULL;
    const char *p = text;
    for (uint32_t i = 0; i < n; i++) {
        char *end;
        m[i] = strtoull(p, &end, 10);
        p = *end == ',' ? end + 1 : end;
    }
    *count = n;
    return m;
}

static bool write_group(OTF2_GlobalDefWriter *w, struct strings *s, uint32_t id, const char *text,
                        char stop)
{
    uint32_t n = 0;
    uint64_t *members = parse_members(text, stop, &n);
    if (!members)
        return false;
    bool good = ok(OTF2_GlobalDefWriter_WriteGroup(w, id, string(s, ""),
                                                   OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                                   OTF2_GROUP_FLAG_NONE, n, members));
    free(members);
    return good;
}

static bool write_comms(OTF2_GlobalDefWriter *w, struct strings *s, const struct ht_trace_defs *d)
{
    if (!d->mpi)
        return true;
    /* COMM_LOCATIONS: world rank r is the location of rank r's first
     * thread, whose id is r.  (In a rank's archive of its own, the other
     * ranks' locations are not defined: readers show them as unknown.) */
    uint64_t *world = malloc((size_t)d->world_size * sizeof *world);
    if (!world)
        return false;
    for (int r = 0; r < d->world_size; r++)
        world[r] = ht_location_id(r, 0);
    bool good = ok(OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, string(s, "MPI"),
                                                      OTF2_PARADIGM_CLASS_PROCESS)) &&
                ok(OTF2_GlobalDefWriter_WriteGroup(w, 0, string(s, "MPI_COMM_WORLD locations"),
                                                   OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                                   OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                                   (uint32_t)d->world_size, world));
    free(world);
    size_t pos = 0;
    const char *blob;
    uint32_t len, id = 0, group = 1;
    char name[64];
    while (good && ht_blobs_next(&d->comms, &pos, &blob, &len)) {
        /* "c:<members>#k" or "x:<members>|<members>#k" (see comm_text) */
        if (id == 0)
            snprintf(name, sizeof name, "MPI_COMM_WORLD");
        else
            snprintf(name, sizeof name, "MPI communicator %u", id);
        if (blob[0] == 'c') {
            good = write_group(w, s, group, blob + 2, '#') &&
                   ok(OTF2_GlobalDefWriter_WriteComm(w, id, string(s, name), group,
                                                     OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
            group += 1;
        } else {
            const char *bar = strchr(blob, '|');
            good = bar && write_group(w, s, group, blob + 2, '|') &&
                   write_group(w, s, group + 1, bar + 1, '#') &&
                   ok(OTF2_GlobalDefWriter_WriteInterComm(w, id, string(s, name), group,
                                                          group + 1, 0, OTF2_COMM_FLAG_NONE));
            group += 2;
        }
        id++;
    }
    return good && s->ok;
}

/* What the throttle markers and the cut at the bound name (docs/trace.md). */
static bool write_volume(OTF2_GlobalDefWriter *w, struct strings *s)
{
    return ok(OTF2_GlobalDefWriter_WriteParameter(w, HT_TRACE_PARAM_THROTTLED,
                                                  string(s, "hooktrace throttled after calls"),
                                                  OTF2_PARAMETER_TYPE_UINT64)) &&
           ok(OTF2_GlobalDefWriter_WriteAttribute(w, HT_TRACE_ATTR_FUNCTION,
                                                  string(s, "hooktrace throttled function"),
                                                  string(s, "its later calls are not traced"),
                                                  OTF2_TYPE_REGION)) &&
           ok(OTF2_GlobalDefWriter_WriteAttribute(w, HT_TRACE_ATTR_BOUND,
                                                  string(s, "trace.max_bytes_per_rank"),
                                                  string(s, "function events stop here"),
                                                  OTF2_TYPE_UINT64)) &&
           s->ok;
}

bool ht_trace_write_definitions(OTF2_GlobalDefWriter *w, const struct ht_trace_defs *d)
{
    struct strings s = {w, 0, true};
    uint32_t *host_node = calloc((size_t)process_count(d), sizeof *host_node);
    bool good = host_node && write_clock(w, d) && write_regions(w, &s, d) &&
                write_system_tree(w, &s, d, host_node) && write_locations(w, &s, d, host_node) &&
                write_comms(w, &s, d) && write_volume(w, &s);
    free(host_node);
    return good;
}
