/* The OTF2 reader: set-up, definitions, the event loop and errors. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/archive.h"
#include "analyze/archive_events.h"
#include "analyze/archive_par.h"
#include "analyze/archive_share.h"
#include "analyze/fail.h"
#include "analyze/progress.h"

/* Events read per call of the global reader: progress granularity. */
#define EVENT_BATCH (1u << 20)

/* OTF2 reports an error at every level it passes through; the first one
 * after a reset is the innermost, which says what actually went wrong.
 * The callback also keeps OTF2 from printing on stderr itself. */
/* Per thread: each thread decoding in archive_par.c meets its own errors. */
static __thread struct otf2_errors otf2_errors;

static OTF2_ErrorCode on_otf2_error(void *user_data, const char *file, uint64_t line,
                                    const char *function, OTF2_ErrorCode code,
                                    const char *fmt, va_list va)
{
    (void)user_data;
    (void)file;
    (void)line;
    (void)function;
    if (!otf2_errors.have) {
        otf2_errors.have = 1;
        otf2_errors.code = code;
        if (fmt)
            vsnprintf(otf2_errors.text, sizeof otf2_errors.text, fmt, va);
        else
            otf2_errors.text[0] = '\0';
        /* The message ends up inside our one-line error. */
        for (char *c = otf2_errors.text; *c; c++) {
            if (*c == '\n' || *c == '\r')
                *c = ' ';
        }
    }
    return code;
}

static void reset_errors(void)
{
    otf2_errors.have = 0;
    otf2_errors.text[0] = '\0';
}

void archive_errors_take(struct otf2_errors *out)
{
    *out = otf2_errors;
    reset_errors();
}

/* "<anchor>: <doing>: <OTF2's description> (<OTF2's message>)" */
static int report(char *err, size_t errsize, const char *anchor, const char *doing,
                  OTF2_ErrorCode code)
{
    if (otf2_errors.have && code == OTF2_SUCCESS)
        code = otf2_errors.code;
    const char *description = code != OTF2_SUCCESS ? OTF2_Error_GetDescription(code) : NULL;
    const char *detail = otf2_errors.have && otf2_errors.text[0] ? otf2_errors.text : NULL;
    /* OTF2's wording for damaged data does not say what a user needs to
     * know: that the file is damaged, not the program. */
    const char *plain = code == OTF2_ERROR_INVALID_DATA || code == OTF2_ERROR_INTEGRITY_FAULT
                                || code == OTF2_ERROR_INVALID_RECORD
                            ? "truncated or corrupt data: "
                            : "";
    snprintf(err, errsize, "%s: %s%s%s%s%s%s%s", anchor, doing, description ? ": " : "", plain,
             description ? description : "", detail ? " (" : "", detail ? detail : "",
             detail ? ")" : "");
    return -1;
}

int archive_report(const struct otf2_errors *errors, char *err, size_t errsize,
                   const char *anchor, const char *doing, OTF2_ErrorCode code)
{
    otf2_errors = *errors;
    return report(err, errsize, anchor, doing, code);
}

/* Shorter than an anchor file's fixed header (OTF2 writes over 60 bytes),
 * which OTF2 would read past the end of before saying it is damaged. */
#define ANCHOR_MIN_BYTES 32

static char *checked_anchor(char *anchor, char *err, size_t errsize)
{
    struct stat st;
    if (stat(anchor, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < ANCHOR_MIN_BYTES) {
        snprintf(err, errsize, "%s: not a readable OTF2 archive: %lld bytes, shorter than an "
                               "OTF2 anchor file's header (truncated or corrupt)",
                 anchor, (long long)st.st_size);
        free(anchor);
        return NULL;
    }
    return anchor;
}

char *archive_find_anchor(const char *path, char *err, size_t errsize)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errsize, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (!S_ISDIR(st.st_mode))
        return checked_anchor(xstrdup(path), err, errsize);
    DIR *dir = opendir(path);
    if (!dir) {
        snprintf(err, errsize, "%s: %s", path, strerror(errno));
        return NULL;
    }
    char *found = NULL;
    int count = 0;
    struct dirent *d;
    while ((d = readdir(dir))) {
        size_t n = strlen(d->d_name);
        if (n > 5 && strcmp(d->d_name + n - 5, ".otf2") == 0) {
            if (count++ == 0) {
                found = xmalloc(strlen(path) + n + 2);
                sprintf(found, "%s/%s", path, d->d_name);
            }
        }
    }
    closedir(dir);
    if (count == 1)
        return checked_anchor(found, err, errsize);
    free(found);
    if (count == 0)
        snprintf(err, errsize, "%s: a directory without an OTF2 anchor file (*.otf2)", path);
    else
        snprintf(err, errsize,
                 "%s: a directory with %d OTF2 anchor files (*.otf2); name one of them", path,
                 count);
    return NULL;
}

/* Whether a location has an event file.  Writers need not create one for
 * a location that recorded nothing (OTF2 makes the file only when an event
 * writer is requested), and OTF2 fails on a missing file; such a location
 * is simply not read.  Only the POSIX substrate can be checked; for any
 * other, every location is read. */
static int has_event_file(OTF2_Reader *reader, const char *anchor, uint64_t ref)
{
    OTF2_FileSubstrate substrate;
    if (OTF2_Reader_GetFileSubstrate(reader, &substrate) != OTF2_SUCCESS
        || substrate != OTF2_SUBSTRATE_POSIX)
        return 1;
    size_t n = strlen(anchor);
    if (n < 5 || strcmp(anchor + n - 5, ".otf2") != 0)
        return 1;
    /* "<dir>/<name>.otf2" -> "<dir>/<name>/<ref>.evt" */
    char *path = xmalloc(n + 32);
    snprintf(path, n + 32, "%.*s/%" PRIu64 ".evt", (int)(n - 5), anchor, ref);
    struct stat st;
    int exists = stat(path, &st) == 0;
    free(path);
    return exists;
}

/* --- definitions ------------------------------------------------------- */

static OTF2_CallbackCode def_clock(void *ud, uint64_t resolution, uint64_t offset,
                                   uint64_t length, uint64_t realtime)
{
    struct analysis *a = ud;
    (void)length;
    (void)realtime;
    if (resolution > 0) {
        a->clock.resolution = resolution;
        a->clock.offset = offset;
        a->clock.known = 1;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *ud, OTF2_StringRef ref, const char *string)
{
    rankmap_add_string(&((struct analysis *)ud)->ranks, ref, string);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *ud, OTF2_LocationRef ref, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t events,
                                      OTF2_LocationGroupRef group)
{
    (void)name;
    (void)type;
    rankmap_add_location(&((struct analysis *)ud)->ranks, ref, group, events);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *ud, OTF2_GroupRef ref, OTF2_StringRef name,
                                   OTF2_GroupType type, OTF2_Paradigm paradigm,
                                   OTF2_GroupFlag flags, uint32_t size, const uint64_t *members)
{
    (void)name;
    rankmap_add_group(&((struct analysis *)ud)->ranks, ref, type, paradigm, flags, size, members);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *ud, OTF2_CommRef ref, OTF2_StringRef name,
                                  OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
    (void)parent;
    (void)flags;
    rankmap_add_comm(&((struct analysis *)ud)->ranks, ref, name, group);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_inter_comm(void *ud, OTF2_CommRef ref, OTF2_StringRef name,
                                        OTF2_GroupRef group_a, OTF2_GroupRef group_b,
                                        OTF2_CommRef common, OTF2_CommFlag flags)
{
    (void)common;
    (void)flags;
    rankmap_add_inter_comm(&((struct analysis *)ud)->ranks, ref, name, group_a, group_b);
    return OTF2_CALLBACK_SUCCESS;
}

/* *read and *wanted are set when fewer definitions were read than the
 * anchor file announces. */
static OTF2_ErrorCode read_global_definitions(OTF2_Reader *reader, struct analysis *a,
                                              uint64_t *read, uint64_t *wanted)
{
    reset_errors();
    OTF2_GlobalDefReader *defs = OTF2_Reader_GetGlobalDefReader(reader);
    if (!defs)
        return OTF2_ERROR_FILE_INTERACTION;
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    if (!cb)
        fail_out_of_memory();
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
    archive_wait_definitions(cb);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
    OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(cb, def_inter_comm);
    OTF2_ErrorCode rc = OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, cb, a);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    uint64_t n = 0;
    if (rc == OTF2_SUCCESS)
        rc = OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &n);
    OTF2_ErrorCode rc_close = OTF2_Reader_CloseGlobalDefReader(reader, defs);
    if (rc == OTF2_SUCCESS)
        rc = rc_close;
    /* A damaged definition file can end early without an error from
     * OTF2; the anchor file knows how many there should be. */
    uint64_t expected = 0;
    if (rc == OTF2_SUCCESS
        && OTF2_Reader_GetNumberOfGlobalDefinitions(reader, &expected) == OTF2_SUCCESS
        && n < expected) {
        *read = n;
        *wanted = expected;
        return OTF2_ERROR_INTEGRITY_FAULT;
    }
    return rc;
}

/* Local definitions hold the mapping tables from location-local to global
 * references; reading them is what makes OTF2 apply them to the events.
 * They also hold the location's ClockOffsets (clock_correct.h).  Archives
 * written with global references only have no such files, which is
 * fine. */
static OTF2_ErrorCode read_local_definitions(OTF2_Reader *reader, struct analysis *a,
                                             const uint8_t *selected)
{
    clock_correction_init(&a->clocks, a->ranks.nlocations);
    if (OTF2_Reader_OpenDefFiles(reader) != OTF2_SUCCESS) {
        reset_errors();
        return OTF2_SUCCESS;
    }
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    for (uint32_t i = 0; i < a->ranks.nlocations && rc == OTF2_SUCCESS; i++) {
        if (!selected[i])
            continue;
        OTF2_DefReader *defs = OTF2_Reader_GetDefReader(reader, a->ranks.location_list[i]->ref);
        if (!defs) {
            reset_errors(); /* no local definitions for this location */
            continue;
        }
        struct clock_location l = {&a->clocks, i};
        OTF2_DefReaderCallbacks *cb = OTF2_DefReaderCallbacks_New();
        if (!cb)
            fail_out_of_memory();
        OTF2_DefReaderCallbacks_SetClockOffsetCallback(cb, clock_correction_def_offset);
        rc = OTF2_Reader_RegisterDefCallbacks(reader, defs, cb, &l);
        OTF2_DefReaderCallbacks_Delete(cb);
        uint64_t n = 0;
        if (rc == OTF2_SUCCESS)
            rc = OTF2_Reader_ReadAllLocalDefinitions(reader, defs, &n);
        OTF2_ErrorCode rc_close = OTF2_Reader_CloseDefReader(reader, defs);
        if (rc == OTF2_SUCCESS)
            rc = rc_close;
    }
    OTF2_ErrorCode rc_close = OTF2_Reader_CloseDefFiles(reader);
    return rc != OTF2_SUCCESS ? rc : rc_close;
}

/* --- events ------------------------------------------------------------ */

/* The one door of every event time (archive_events.h): the clock
 * correction of the event's location (clock_correct.h). */
uint64_t event_time(const struct analysis *a, const struct rankmap_location *loc, uint64_t time)
{
    return clock_correct(&a->clocks, loc->index, time);
}

OTF2_CallbackCode ev_send(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                 OTF2_AttributeList *attributes, uint32_t receiver,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    EVENT_LOCATION(a, ref, RECORD_SEND);
    translate_send(&a->translator, loc, time, receiver, comm, tag, length);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode ev_isend(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                  OTF2_AttributeList *attributes, uint32_t receiver,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                  uint64_t request)
{
    EVENT_LOCATION(a, ref, RECORD_ISEND);
    translate_isend(&a->translator, loc, time, receiver, comm, tag, length, request);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode ev_isend_complete(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                           OTF2_AttributeList *attributes, uint64_t request)
{
    EVENT_LOCATION(a, ref, RECORD_ISEND_COMPLETE);
    translate_isend_complete(&a->translator, loc, time, request);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode ev_recv(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                 OTF2_AttributeList *attributes, uint32_t sender,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    EVENT_LOCATION(a, ref, RECORD_RECV);
    translate_recv(&a->translator, loc, time, sender, comm, tag, length);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode ev_irecv_request(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                          OTF2_AttributeList *attributes, uint64_t request)
{
    EVENT_LOCATION(a, ref, RECORD_IRECV_REQUEST);
    translate_irecv_request(&a->translator, loc, time, request);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode ev_irecv(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                  OTF2_AttributeList *attributes, uint32_t sender,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                  uint64_t request)
{
    EVENT_LOCATION(a, ref, RECORD_IRECV);
    translate_irecv(&a->translator, loc, time, sender, comm, tag, length, request);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode ev_cancelled(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                      OTF2_AttributeList *attributes, uint64_t request)
{
    EVENT_LOCATION(a, ref, RECORD_REQUEST_CANCELLED);
    translate_cancelled(&a->translator, loc, time, request);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_ErrorCode register_event_callbacks(OTF2_Reader *reader, OTF2_GlobalEvtReader *events,
                                               struct analysis *a)
{
    OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
    if (!cb)
        fail_out_of_memory();
#define SET_CALLBACK(record, suffix) \
    OTF2_GlobalEvtReaderCallbacks_Set##record##Callback(cb, ev_##suffix);
    ARCHIVE_EVENT_RECORDS(SET_CALLBACK)
#undef SET_CALLBACK
    OTF2_ErrorCode rc = OTF2_Reader_RegisterGlobalEvtCallbacks(reader, events, cb, a);
    OTF2_GlobalEvtReaderCallbacks_Delete(cb);
    return rc;
}

uint64_t expected_events(const struct rankmap *ranks)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < ranks->nlocations; i++)
        total += ranks->location_list[i]->events;
    return total;
}

/* A damaged event file can send OTF2's reader round in circles, handing
 * out events for ever.  Each location's definition says how many events it
 * has; reading more than all of them together is stopped as corruption.
 * The count is summed here, not asked of each location's reader: OTF2's
 * global reader frees a location's reader as soon as its events are
 * exhausted, so the pointers OTF2_Reader_GetEvtReader returned are not
 * ours to use after the first batch (OTF2_EvtReader_GetPos on them read
 * freed memory on every trace).  A selected location that announces 0
 * (unknown) makes the total unknown: then nothing is checked.  Returns
 * the total, 0 if unknown. */
uint64_t announced_events(const struct rankmap *ranks, const uint8_t *selected)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < ranks->nlocations; i++) {
        if (!selected[i])
            continue;
        uint64_t events = ranks->location_list[i]->events;
        if (events == 0 || total + events < total)
            return 0;
        total += events;
    }
    return total;
}

/* Opens the reader of location ref for the global reader; a location
 * without a single event is left out (returns 0).  OTF2 3.0's global
 * reader frees the reader of an empty location while it sets itself up
 * and then follows that reader's link to the next one: a read of freed
 * memory (valgrind sees it on every trace with an idle location).  So the
 * first event is read here, and the reader opened afresh for the global
 * reader.  Returns 1 when opened, -1 if it cannot be opened, -2 if its
 * first event cannot be read. */
int open_event_reader(OTF2_Reader *reader, uint64_t ref)
{
    OTF2_EvtReader *probe = OTF2_Reader_GetEvtReader(reader, ref);
    if (!probe)
        return -1;
    uint64_t n = 0;
    OTF2_ErrorCode rc = OTF2_EvtReader_ReadEvents(probe, 1, &n);
    OTF2_Reader_CloseEvtReader(reader, probe);
    if (rc != OTF2_SUCCESS)
        return -2;
    if (n == 0)
        return 0;
    reset_errors();
    return OTF2_Reader_GetEvtReader(reader, ref) ? 1 : -1;
}

/* Reads the events of the opened readers merged by time. */
static int read_merged(OTF2_Reader *reader, struct analysis *a, const uint8_t *selected,
                       int show_progress, const char *anchor, char *err, size_t errsize)
{
    OTF2_GlobalEvtReader *events = OTF2_Reader_GetGlobalEvtReader(reader);
    if (!events)
        return report(err, errsize, anchor, "cannot set up the event reader", OTF2_SUCCESS);
    OTF2_ErrorCode rc = register_event_callbacks(reader, events, a);
    struct progress progress;
    progress_start(&progress, show_progress, expected_events(&a->ranks));
    const uint64_t announced = announced_events(&a->ranks, selected);
    int runaway = 0;
    uint64_t n = EVENT_BATCH;
    while (rc == OTF2_SUCCESS && n == EVENT_BATCH && !runaway) {
        n = 0;
        rc = OTF2_Reader_ReadGlobalEvents(reader, events, EVENT_BATCH, &n);
        a->summary.events += n;
        runaway = announced && a->summary.events > announced;
        progress_update(&progress, a->summary.events, a->summary.messages,
                        analysis_in_flight(a));
    }
    progress_end(&progress, a->summary.events, a->summary.messages,
                 rc == OTF2_SUCCESS && !runaway);
    OTF2_Reader_CloseGlobalEvtReader(reader, events);
    if (rc != OTF2_SUCCESS) {
        char doing[96];
        snprintf(doing, sizeof doing, "cannot read the events after %" PRIu64 " events",
                 a->summary.events);
        return report(err, errsize, anchor, doing, rc);
    }
    if (runaway) {
        reset_errors();
        char doing[200];
        snprintf(doing, sizeof doing,
                 "the events are corrupt: %" PRIu64
                 " read, but the definitions of the locations announce %" PRIu64,
                 a->summary.events, announced);
        return report(err, errsize, anchor, doing, OTF2_SUCCESS);
    }
    return 0;
}

/* Opens the event files of every selected location and reads them merged. */
static int read_events(OTF2_Reader *reader, struct analysis *a, const uint8_t *selected,
                       unsigned threads, int show_progress, const char *anchor, char *err,
                       size_t errsize)
{
    if (threads > 1 || archive_distribution)
        return archive_read_parallel(a, anchor, selected, threads, show_progress, err, errsize);
    reset_errors();
    OTF2_ErrorCode rc = OTF2_Reader_OpenEvtFiles(reader);
    if (rc != OTF2_SUCCESS)
        return report(err, errsize, anchor, "cannot open the event files", rc);
    /* Opening a location's reader is what selects it for the global
     * reader, which then owns it (and frees it when it is exhausted). */
    uint32_t opened = 0;
    for (uint32_t i = 0; i < a->ranks.nlocations; i++) {
        if (!selected[i])
            continue;
        uint64_t ref = a->ranks.location_list[i]->ref;
        int status = open_event_reader(reader, ref);
        if (status < 0) {
            char doing[96];
            snprintf(doing, sizeof doing, "cannot %s the events of location %" PRIu64,
                     status == -1 ? "open" : "read", ref);
            return report(err, errsize, anchor, doing, OTF2_SUCCESS);
        }
        opened += (uint32_t)status;
    }
    /* Without one event there is nothing for the global reader (which
     * refuses to start without a location). */
    if (opened > 0) {
        int status = read_merged(reader, a, selected, show_progress, anchor, err, errsize);
        if (status != 0)
            return status;
    }
    rc = OTF2_Reader_CloseEvtFiles(reader);
    if (rc != OTF2_SUCCESS)
        return report(err, errsize, anchor, "cannot close the event files", rc);
    return 0;
}

static int read_archive(OTF2_Reader *reader, struct analysis *a, const char *anchor,
                        int show_progress, unsigned threads, char *err, size_t errsize)
{
    OTF2_ErrorCode rc = OTF2_Reader_SetSerialCollectiveCallbacks(reader);
    if (rc == OTF2_SUCCESS) {
        OTF2_Boolean global_reader = OTF2_TRUE;
        rc = OTF2_Reader_SetHint(reader, OTF2_HINT_GLOBAL_READER, &global_reader);
    }
    if (rc != OTF2_SUCCESS)
        return report(err, errsize, anchor, "cannot set up the OTF2 reader", rc);
    uint64_t read = 0, wanted = 0;
    rc = read_global_definitions(reader, a, &read, &wanted);
    if (rc != OTF2_SUCCESS && wanted) {
        char doing[128];
        snprintf(doing, sizeof doing,
                 "the global definitions are truncated or corrupt: %" PRIu64 " of %" PRIu64
                 " read",
                 read, wanted);
        return report(err, errsize, anchor, doing, OTF2_SUCCESS);
    }
    if (rc != OTF2_SUCCESS)
        return report(err, errsize, anchor, "cannot read the global definitions", rc);
    /* Every location with an event file, and every location announcing
     * events (a missing file is then an error). */
    uint8_t *selected = xcalloc(a->ranks.nlocations, 1);
    uint32_t nselected = 0;
    for (uint32_t i = 0; i < a->ranks.nlocations && rc == OTF2_SUCCESS; i++) {
        const struct rankmap_location *loc = a->ranks.location_list[i];
        if (loc->events == 0 && !has_event_file(reader, anchor, loc->ref))
            continue;
        selected[i] = 1;
        nselected++;
        rc = OTF2_Reader_SelectLocation(reader, loc->ref);
    }
    int status;
    if (rc != OTF2_SUCCESS) {
        status = report(err, errsize, anchor, "cannot select a location", rc);
    } else if ((rc = read_local_definitions(reader, a, selected)) != OTF2_SUCCESS) {
        status = report(err, errsize, anchor, "cannot read the local definitions", rc);
    } else {
        analysis_start_events(a);
        threads = threads < nselected ? threads : nselected;
        if (archive_distribution && nselected < archive_distribution->shares)
            archive_distribution = NULL; /* not worth it; every rank reads alone */
        status = nselected ? read_events(reader, a, selected, threads, show_progress, anchor, err,
                                         errsize)
                           : 0;
    }
    free(selected);
    return status;
}

int archive_read(struct analysis *a, const char *anchor, int show_progress, unsigned threads,
                 char *err, size_t errsize)
{
    OTF2_Error_RegisterCallback(on_otf2_error, NULL);
    reset_errors();
    a->archive_path = anchor;
    OTF2_Reader *reader = OTF2_Reader_Open(anchor);
    if (!reader)
        return report(err, errsize, anchor, "not a readable OTF2 archive", OTF2_SUCCESS);
    int status = read_archive(reader, a, anchor, show_progress, threads, err, errsize);
    OTF2_ErrorCode rc = OTF2_Reader_Close(reader);
    if (status == 0 && rc != OTF2_SUCCESS)
        return report(err, errsize, anchor, "cannot close the archive", rc);
    return status;
}
