/* Writing the archive: name the regions and communicators, unify them
 * across ranks, turn each thread's records into OTF2 events, and have rank
 * 0 write the global definitions. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OTF2_MPI_USE_PMPI
#include <otf2/OTF2_MPI_Collectives.h>

#include "callstack/thread.h"
#include "common/directory.h"
#include "trace/archive_events.h"
#include "trace/archive_internal.h"
#include "trace/buffer.h"
#include "trace/clock_sync.h"
#include "trace/comms.h"
#include "trace/regions.h"
#include "trace/trace.h"
#include "trace/volume.h"
#include "trace/writer.h"

static struct ht_trace_summary summary;

/* OTF2 reports errors through this instead of printing them: the first
 * one is kept for our own message. */
static char otf2_error[512];

static OTF2_ErrorCode on_otf2_error(void *user, const char *file, uint64_t line,
                                    const char *function, OTF2_ErrorCode code, const char *fmt,
                                    va_list va)
{
    (void)user;
    (void)file;
    (void)line;
    (void)function;
    if (!otf2_error[0]) {
        char detail[384] = "";
        if (fmt)
            vsnprintf(detail, sizeof detail, fmt, va);
        snprintf(otf2_error, sizeof otf2_error, "%s%s%s", OTF2_Error_GetDescription(code),
                 detail[0] ? ": " : "", detail);
    }
    return code;
}

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc,
                                void *caller, bool final)
{
    (void)user;
    (void)type;
    (void)loc;
    (void)caller;
    (void)final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, NULL};

/* --- regions ---------------------------------------------------------------- */

/* Every node of every thread, in a list (depth first, iteratively: trees
 * may be deep). */
static struct ht_node **all_nodes(size_t *count)
{
    size_t n = 0, cap = 1024;
    struct ht_node **nodes = malloc(cap * sizeof *nodes);
    if (!nodes)
        return NULL;
    for (struct ht_thread *t = ht_thread_registry(); t; t = t->next) {
        struct ht_node *root = &t->tree.root, *node = root->first_child;
        while (node) {
            if (n == cap) {
                struct ht_node **bigger = realloc(nodes, 2 * cap * sizeof *nodes);
                if (!bigger) {
                    free(nodes);
                    return NULL;
                }
                nodes = bigger;
                cap *= 2;
            }
            nodes[n++] = node;
            if (node->first_child) {
                node = node->first_child;
                continue;
            }
            while (node != root && !node->next_sibling)
                node = node->parent;
            node = node == root ? NULL : node->next_sibling;
        }
    }
    *count = n;
    return nodes;
}

static int region_blob(struct ht_blobs *b, const struct ht_function *fn)
{
    char line[16];
    int n = snprintf(line, sizeof line, "%u", fn->line);
    size_t name = strlen(fn->name), file = fn->file ? strlen(fn->file) : 0;
    char *blob = malloc(name + file + (size_t)n + 3);
    if (!blob)
        return -1;
    memcpy(blob, fn->name, name + 1);
    if (file)
        memcpy(blob + name + 1, fn->file, file);
    blob[name + 1 + file] = '\0';
    memcpy(blob + name + file + 2, line, (size_t)n + 1);
    int rc = ht_blobs_add(b, blob, (uint32_t)(name + file + (size_t)n + 2));
    free(blob);
    return rc;
}

/* Gives every node its unified region id (in node->spare); on rank 0
 * fills global with the unified regions. */
static int name_regions(bool mpi, const struct ht_function_table *table,
                        const struct ht_config *cfg, struct ht_blobs *global)
{
    size_t n = 0;
    struct ht_node **nodes = all_nodes(&n);
    struct ht_blobs per_node = {0}, distinct = {0};
    uint32_t *local_ids = malloc((n ? n : 1) * sizeof *local_ids);
    uint32_t *unified = NULL;
    int rc = nodes && local_ids ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const struct ht_function *fn =
            table ? ht_function_table_lookup(ht_node_address(nodes[i]), (void *)table) : NULL;
        bool traced = fn && ht_config_function_traced(cfg, fn->name);
        nodes[i]->spare = traced ? 0 : HT_NODE_NOT_TRACED;
        /* Untraced nodes still take part (their blob is ""), so that the
         * lists stay parallel to nodes[]. */
        rc = traced ? region_blob(&per_node, fn) : ht_blobs_add(&per_node, "", 0);
    }
    if (rc == 0)
        rc = ht_trace_unify(false, &per_node, local_ids, &distinct);
    if (rc == 0 && !(unified = malloc((distinct.count ? distinct.count : 1) * sizeof *unified)))
        rc = -1;
    /* Every rank must reach the collective unification, even after a
     * failure here (with nothing to contribute). */
    if (rc != 0)
        distinct.count = 0, distinct.bytes = 0;
    int urc = ht_trace_unify(mpi, &distinct, unified ? unified : local_ids, global);
    if (rc == 0 && urc == 0) {
        /* The kinds come from the names of the local distinct regions. */
        size_t pos = 0;
        const char *blob;
        uint32_t len, d = 0;
        uint64_t *kind_bits = calloc(distinct.count ? distinct.count : 1, sizeof *kind_bits);
        while (kind_bits && ht_blobs_next(&distinct, &pos, &blob, &len)) {
            struct ht_region_kind k = ht_region_kind_of(blob);
            kind_bits[d++] = (uint64_t)(k.collective_op + 1) << 32 | (uint64_t)k.nonblocking << 40;
        }
        for (size_t i = 0; kind_bits && i < n; i++)
            if (nodes[i]->spare != HT_NODE_NOT_TRACED)
                nodes[i]->spare = unified[local_ids[i]] | kind_bits[local_ids[i]];
        if (!kind_bits)
            rc = -1;
        free(kind_bits);
    }
    free(nodes);
    free(local_ids);
    free(unified);
    ht_blobs_free(&per_node);
    ht_blobs_free(&distinct);
    return rc == 0 && urc == 0 ? 0 : -1;
}

/* --- communicators ------------------------------------------------------------ */

static int append_members(char **buf, size_t *len, size_t *cap, const int *m, int n)
{
    for (int i = 0; i < n; i++) {
        if (*len + 16 > *cap) {
            size_t c = *cap * 2 + 64;
            char *bigger = realloc(*buf, c);
            if (!bigger)
                return -1;
            *buf = bigger;
            *cap = c;
        }
        *len += (size_t)snprintf(*buf + *len, *cap - *len, "%s%d", i ? "," : "", m[i]);
    }
    return 0;
}

/* "c:0,1,2" for an intra-communicator, "x:0,1|2,3" for an inter-communicator
 * (its two groups in a fixed order, so both sides agree). */
static char *comm_text(const struct ht_trace_comm *c)
{
    char *a = NULL, *b = NULL;
    size_t alen = 0, acap = 0, blen = 0, bcap = 0;
    if (append_members(&a, &alen, &acap, c->members, c->size) != 0 ||
        append_members(&b, &blen, &bcap, c->members + c->size, c->remote_size) != 0) {
        free(a);
        free(b);
        return NULL;
    }
    size_t len = alen + blen + 8;
    char *text = malloc(len);
    if (text) {
        const char *sa = a ? a : "", *sb = b ? b : "";
        if (!c->inter)
            snprintf(text, len, "c:%s", sa);
        else if (strcmp(sa, sb) <= 0)
            snprintf(text, len, "x:%s|%s", sa, sb);
        else
            snprintf(text, len, "x:%s|%s", sb, sa);
    }
    free(a);
    free(b);
    return text;
}

/* Two communicators with the same members (MPI_Comm_dup) stay apart by
 * the order in which this process first used them: "#k" marks the k-th. */
static int name_comms(bool mpi, uint32_t **ids, struct ht_blobs *global)
{
    uint32_t n = 0;
    const struct ht_trace_comm *comms = ht_trace_comms(&n);
    struct ht_blobs local = {0};
    char **texts = calloc(n ? n : 1, sizeof *texts);
    *ids = calloc(n ? n : 1, sizeof **ids);
    int rc = texts && *ids ? 0 : -1;
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        if (!(texts[i] = comm_text(&comms[i]))) {
            rc = -1;
            break;
        }
        unsigned same = 0;
        for (uint32_t j = 0; j < i; j++)
            same += strcmp(texts[j], texts[i]) == 0;
        size_t len = strlen(texts[i]) + 16;
        char *blob = malloc(len);
        if (!blob) {
            rc = -1;
            break;
        }
        snprintf(blob, len, "%s#%u", texts[i], same);
        rc = ht_blobs_add(&local, blob, (uint32_t)strlen(blob) + 1);
        free(blob);
    }
    if (rc != 0)
        local.count = 0, local.bytes = 0;
    int urc = ht_trace_unify(mpi, &local, *ids, global);
    for (uint32_t i = 0; texts && i < n; i++)
        free(texts[i]);
    free(texts);
    ht_blobs_free(&local);
    return rc == 0 && urc == 0 ? 0 : -1;
}

/* --- the archive ---------------------------------------------------------------- */

/* A previous run's archive of the same name is replaced: OTF2 will not
 * write over one.  Only the files OTF2 makes are removed: the anchor, the
 * global definitions, and the .evt/.def files of the locations. */
static void remove_old_archive(const char *path)
{
    char file[4400];
    snprintf(file, sizeof file, "%s/traces", path);
    DIR *dir = opendir(file);
    struct dirent *e;
    while (dir && (e = readdir(dir)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len > 4 && (strcmp(e->d_name + len - 4, ".evt") == 0 ||
                        strcmp(e->d_name + len - 4, ".def") == 0)) {
            snprintf(file, sizeof file, "%s/traces/%s", path, e->d_name);
            unlink(file);
        }
    }
    if (dir)
        closedir(dir);
    snprintf(file, sizeof file, "%s/traces", path);
    rmdir(file);
    snprintf(file, sizeof file, "%s/traces.def", path);
    unlink(file);
    snprintf(file, sizeof file, "%s/traces.otf2", path);
    unlink(file);
}

static void archive_path(char *out, size_t len, const struct ht_config *cfg, const char *basename)
{
    if (cfg->trace.name)
        snprintf(out, len, "%s/%s", ht_trace_folder(cfg), cfg->trace.name);
    else
        snprintf(out, len, "%s/%s_trace", ht_trace_folder(cfg), basename);
}

/* Sums a counter over ranks (onto rank 0). */
static uint64_t sum_over_ranks(bool mpi, uint64_t value)
{
    unsigned long long mine = value, total = value;
    if (mpi)
        PMPI_Reduce(&mine, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, ht_trace_job());
    return total;
}

/* The rank's clock offsets to rank 0 (clock_sync.c) as ClockOffset
 * definitions of one location. */
static OTF2_ErrorCode write_clock_offsets(OTF2_DefWriter *w)
{
    struct ht_clock_offset m[2];
    int n = ht_trace_clock_offsets(m);
    OTF2_ErrorCode e = OTF2_SUCCESS;
    for (int i = 0; i < n && e == OTF2_SUCCESS; i++)
        e = OTF2_DefWriter_WriteClockOffset(w, m[i].time, m[i].offset, m[i].sd);
    return e;
}

/* This process's locations, written; info[] gets what rank 0 needs. */
static int write_events(OTF2_Archive *archive, int rank, const uint32_t *comm_ids,
                        uint32_t comm_count, struct ht_location_info *info, int nthreads,
                        char *err, size_t errlen)
{
    int i = 0, rc = 0;
    for (struct ht_thread *t = ht_thread_registry(); t && i < nthreads; t = t->next, i++) {
        info[i] = (struct ht_location_info){.id = ht_location_id(rank, t->index),
                                            .rank = rank,
                                            .thread = t->index,
                                            .first_tick = UINT64_MAX};
        if (!t->trace || rc != 0)
            continue;
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(archive, info[i].id);
        if (!w) {
            snprintf(err, errlen, "cannot open the events of thread %d: %s", t->index,
                     otf2_error[0] ? otf2_error : "OTF2 error");
            rc = -1;
            continue;
        }
        rc = ht_trace_write_location(w, t->trace, comm_ids, comm_count, &info[i], err, errlen);
        OTF2_Archive_CloseEvtWriter(archive, w);
    }
    return rc;
}

/* Everything rank 0 needs about the other ranks' locations and hosts. */
static int gather_locations(bool mpi, struct ht_location_info *mine, int n,
                            struct ht_trace_defs *defs)
{
    int size = 1, rank = 0;
    if (mpi) {
        PMPI_Comm_rank(ht_trace_job(), &rank);
        PMPI_Comm_size(ht_trace_job(), &size);
    }
    char host[64] = "localhost";
    gethostname(host, sizeof host - 1);
    host[sizeof host - 1] = '\0';
    if (!mpi) {
        defs->locations = mine;
        defs->location_count = (uint32_t)n;
        defs->hosts = malloc(sizeof *defs->hosts);
        if (!defs->hosts)
            return -1;
        memcpy(defs->hosts[0], host, sizeof host);
        return 0;
    }
    /* Collective: a rank 0 out of memory says so before anyone sends. */
    int bytes = n * (int)sizeof *mine, failed = 0;
    int *all_bytes = NULL, *at = NULL;
    if (rank == 0) {
        all_bytes = calloc((size_t)size, sizeof *all_bytes);
        at = calloc((size_t)size, sizeof *at);
        defs->hosts = calloc((size_t)size, sizeof *defs->hosts);
        failed = !all_bytes || !at || !defs->hosts;
    }
    PMPI_Bcast(&failed, 1, MPI_INT, 0, ht_trace_job());
    if (!failed) {
        PMPI_Gather(host, sizeof host, MPI_CHAR, defs->hosts, sizeof host, MPI_CHAR, 0,
                    ht_trace_job());
        PMPI_Gather(&bytes, 1, MPI_INT, all_bytes, 1, MPI_INT, 0, ht_trace_job());
        long total = 0;
        for (int r = 0; rank == 0 && r < size; r++) {
            at[r] = (int)total;
            total += all_bytes[r];
        }
        if (rank == 0) {
            defs->locations = malloc(total > 0 ? (size_t)total : 1);
            failed = !defs->locations;
            defs->location_count = (uint32_t)(total / (long)sizeof *mine);
        }
        PMPI_Bcast(&failed, 1, MPI_INT, 0, ht_trace_job());
        if (!failed)
            PMPI_Gatherv(mine, bytes, MPI_BYTE, defs->locations, all_bytes, at, MPI_BYTE, 0,
                         ht_trace_job());
    }
    free(all_bytes);
    free(at);
    return failed ? -1 : 0;
}

static OTF2_Archive *open_archive(bool mpi, const char *path, char *err, size_t errlen)
{
    OTF2_Archive *a = OTF2_Archive_Open(path, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                        4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
                                        OTF2_COMPRESSION_NONE);
    if (!a) {
        snprintf(err, errlen, "%s", otf2_error[0] ? otf2_error : "cannot create it");
        return NULL;
    }
    OTF2_Archive_SetFlushCallbacks(a, &flush_callbacks, NULL);
    OTF2_ErrorCode e = mpi ? OTF2_MPI_Archive_SetCollectiveCallbacks(a, ht_trace_job(), MPI_COMM_NULL)
                           : OTF2_Archive_SetSerialCollectiveCallbacks(a);
    if (e == OTF2_SUCCESS)
        e = OTF2_Archive_SetCreator(a, "hooktrace " PACKAGE_VERSION);
    if (e != OTF2_SUCCESS) {
        snprintf(err, errlen, "%s", OTF2_Error_GetDescription(e));
        OTF2_Archive_Close(a);
        return NULL;
    }
    return a;
}

int64_t ht_trace_write(const struct ht_trace_run *run, const struct ht_function_table *table,
                       const char *basename)
{
    const struct ht_config *cfg = run->config;
    bool mpi = run->mpi;
    /* Every rank reads the same config, so with MPI either all ranks get
     * here or none; a rank that could not set tracing up (its trace folder)
     * still takes part in deciding, so that nobody waits for it. */
    if (!cfg->trace.enabled || cfg->off)
        return 0;
    int rank = 0;
    if (mpi) {
        PMPI_Comm_rank(ht_trace_job(), &rank);
        int everywhere = ht_trace_enabled;
        PMPI_Allreduce(&ht_trace_enabled, &everywhere, 1, MPI_INT, MPI_MIN, ht_trace_job());
        if (!everywhere) {
            if (rank == 0)
                fprintf(stderr, "hooktrace: trace: not every rank could record one (see the "
                                "messages above); no archive written\n");
            return -1;
        }
    } else if (!ht_trace_enabled) {
        return 0;
    }
    OTF2_Error_RegisterCallback(on_otf2_error, NULL);
    char path[4200], err[1024] = "";
    archive_path(path, sizeof path, cfg, basename);

    /* Counters of the run, for the logfile and stderr. */
    int nthreads = 0;
    for (struct ht_thread *t = ht_thread_registry(); t; t = t->next) {
        nthreads++;
        if (t->trace) {
            summary.events += t->trace->events;
            summary.dropped += t->trace->dropped;
            summary.flushes += t->trace->flushes;
            summary.spilled_bytes += t->trace->spilled_bytes;
        }
    }
    summary.enabled = true;

    /* A rank that ends without MPI_Finalize writes an archive of its own,
     * with its MPI events and communicators. */
    bool alone = !mpi && run->mpi_initialized;
    struct ht_trace_defs defs = {.mpi = mpi || alone, .world_size = 1, .own_rank = -1,
                                 .ticks_per_second = 1.0 / run->seconds_per_tick};
    if (mpi)
        PMPI_Comm_size(ht_trace_job(), &defs.world_size);
    if (alone) {
        defs.world_size = run->world_size;
        defs.own_rank = run->world_rank;
    }
    uint32_t *comm_ids = NULL, comm_count = 0;
    if (mpi) /* world is communicator 0 everywhere, used or not */
        ht_trace_comm_index(ht_trace_job(), NULL, 0, NULL);
    ht_trace_comms(&comm_count);
    int failed = name_regions(mpi, table, cfg, &defs.regions) != 0;
    failed |= name_comms(mpi, &comm_ids, &defs.comms) != 0;

    if (rank == 0 && !failed) {
        remove_old_archive(path);
        ht_make_directory(ht_trace_folder(cfg));
    }
    if (mpi) {
        int any = 0;
        PMPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, ht_trace_job());
        failed = any;
    }
    if (failed) {
        if (rank == 0)
            fprintf(stderr, "hooktrace: trace %s: out of memory naming the regions; no trace "
                            "written\n", path);
        free(comm_ids);
        ht_blobs_free(&defs.regions);
        ht_blobs_free(&defs.comms);
        return -1;
    }

    struct ht_location_info *info = calloc(nthreads ? (size_t)nthreads : 1, sizeof *info);
    OTF2_Archive *archive = open_archive(mpi, path, err, sizeof err);
    int rc = archive && info ? 0 : -1;
    if (!info)
        snprintf(err, sizeof err, "out of memory");
    if (archive) {
        OTF2_Archive_OpenEvtFiles(archive);
        if (rc == 0)
            rc = write_events(archive, mpi ? rank : defs.own_rank, comm_ids, comm_count, info,
                              nthreads, err, sizeof err);
        OTF2_Archive_CloseEvtFiles(archive);
        /* Local definitions, one file per location (readers expect it):
         * the rank's clock offsets, else empty. */
        OTF2_Archive_OpenDefFiles(archive);
        for (int i = 0; info && i < nthreads; i++) {
            OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(archive, info[i].id);
            if (dw && mpi && write_clock_offsets(dw) != OTF2_SUCCESS && rc == 0) {
                snprintf(err, sizeof err, "writing the clock offsets: %s",
                         otf2_error[0] ? otf2_error : "OTF2 error");
                rc = -1;
            }
            if (dw)
                OTF2_Archive_CloseDefWriter(archive, dw);
        }
        OTF2_Archive_CloseDefFiles(archive);
    }
    /* Every rank takes part, with no locations if it ran out of memory. */
    if (gather_locations(mpi, info, info ? nthreads : 0, &defs) != 0 && rc == 0) {
        snprintf(err, sizeof err, "out of memory gathering the locations");
        rc = -1;
    }
    if (rank == 0 && archive && rc == 0) {
        defs.program = basename;
        OTF2_GlobalDefWriter *gw = OTF2_Archive_GetGlobalDefWriter(archive);
        if (!gw || !ht_trace_write_definitions(gw, &defs)) {
            snprintf(err, sizeof err, "writing the definitions: %s",
                     otf2_error[0] ? otf2_error : "OTF2 error");
            rc = -1;
        }
    }
    if (archive)
        OTF2_Archive_Close(archive);

    uint64_t written = 0;
    for (int i = 0; info && i < nthreads; i++)
        written += info[i].events;
    uint64_t total_written = sum_over_ranks(mpi, written);
    uint64_t total_dropped = sum_over_ranks(mpi, summary.dropped);
    char volume[96];
    ht_trace_volume_report(mpi, rank, defs.world_size, volume, sizeof volume);
    if (rc != 0)
        fprintf(stderr, "hooktrace: trace %s: %s\n", path, err);
    if (rank == 0 && rc == 0) {
        snprintf(summary.archive, sizeof summary.archive, "%s/traces.otf2", path);
        /* One write, so that the lines of several ranks do not mix. */
        char lost[96] = "";
        if (total_dropped)
            snprintf(lost, sizeof lost, "; %llu events LOST: a flush to disk failed",
                     (unsigned long long)total_dropped);
        fprintf(stderr, "hooktrace: trace: %s (%llu events%s%s)\n", summary.archive,
                (unsigned long long)total_written, volume, lost);
    }
    summary.dropped = total_dropped;
    if (rank == 0 && mpi) {
        free(defs.locations);
    } else if (!mpi) {
        defs.locations = NULL;
    }
    free(defs.hosts);
    free(info);
    free(comm_ids);
    ht_blobs_free(&defs.regions);
    ht_blobs_free(&defs.comms);
    return rc == 0 ? (int64_t)written : -1;
}

void ht_trace_summary(struct ht_trace_summary *out)
{
    *out = summary;
}
