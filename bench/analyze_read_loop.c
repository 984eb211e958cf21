/* analyze_read_loop ARCHIVE: the baseline of `make bench-analyze`, a bare
 * OTF2 read loop.  It reads the archive the way hooktrace-analyze does
 * (global definitions, local definitions, every location's events merged
 * by the global event reader, in batches of 2^20 events) with a callback
 * for each of the same seven MPI records that only counts, and prints the
 * number of events and records.  Whatever hooktrace-analyze takes beyond
 * this is the analysis itself. */
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>

#define BATCH (1u << 20)

static uint64_t *refs;
static size_t nrefs;
static uint64_t records;

#define CHECK(call)                                                              \
    do {                                                                         \
        OTF2_ErrorCode rc_ = (call);                                             \
        if (rc_ != OTF2_SUCCESS) {                                               \
            fprintf(stderr, "analyze_read_loop: %s: %s\n", #call,                \
                    OTF2_Error_GetDescription(rc_));                             \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

static OTF2_CallbackCode on_location(void *ud, OTF2_LocationRef ref, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t events,
                                     OTF2_LocationGroupRef group)
{
    (void)ud, (void)name, (void)type, (void)events, (void)group;
    refs = realloc(refs, (nrefs + 1) * sizeof *refs);
    refs[nrefs++] = ref;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_p2p(OTF2_LocationRef l, OTF2_TimeStamp t, void *ud,
                                OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c,
                                uint32_t tag, uint64_t len)
{
    (void)l, (void)t, (void)ud, (void)a, (void)peer, (void)c, (void)tag, (void)len;
    records++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_p2p_request(OTF2_LocationRef l, OTF2_TimeStamp t, void *ud,
                                        OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c,
                                        uint32_t tag, uint64_t len, uint64_t request)
{
    (void)l, (void)t, (void)ud, (void)a, (void)peer, (void)c, (void)tag, (void)len,
        (void)request;
    records++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_request(OTF2_LocationRef l, OTF2_TimeStamp t, void *ud,
                                    OTF2_AttributeList *a, uint64_t request)
{
    (void)l, (void)t, (void)ud, (void)a, (void)request;
    records++;
    return OTF2_CALLBACK_SUCCESS;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: analyze_read_loop ANCHOR\n");
        return 2;
    }
    OTF2_Reader *reader = OTF2_Reader_Open(argv[1]);
    if (!reader) {
        fprintf(stderr, "analyze_read_loop: cannot open %s\n", argv[1]);
        return 1;
    }
    CHECK(OTF2_Reader_SetSerialCollectiveCallbacks(reader));
    OTF2_Boolean global = OTF2_TRUE;
    CHECK(OTF2_Reader_SetHint(reader, OTF2_HINT_GLOBAL_READER, &global));

    OTF2_GlobalDefReader *defs = OTF2_Reader_GetGlobalDefReader(reader);
    OTF2_GlobalDefReaderCallbacks *dcb = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dcb, on_location);
    CHECK(OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, dcb, NULL));
    OTF2_GlobalDefReaderCallbacks_Delete(dcb);
    uint64_t ndefs;
    CHECK(OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &ndefs));
    CHECK(OTF2_Reader_CloseGlobalDefReader(reader, defs));

    for (size_t i = 0; i < nrefs; i++)
        CHECK(OTF2_Reader_SelectLocation(reader, refs[i]));
    if (OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS) {
        for (size_t i = 0; i < nrefs; i++) {
            OTF2_DefReader *d = OTF2_Reader_GetDefReader(reader, refs[i]);
            if (d) {
                uint64_t n;
                CHECK(OTF2_Reader_ReadAllLocalDefinitions(reader, d, &n));
                CHECK(OTF2_Reader_CloseDefReader(reader, d));
            }
        }
        CHECK(OTF2_Reader_CloseDefFiles(reader));
    }
    CHECK(OTF2_Reader_OpenEvtFiles(reader));
    for (size_t i = 0; i < nrefs; i++) {
        if (!OTF2_Reader_GetEvtReader(reader, refs[i])) {
            fprintf(stderr, "analyze_read_loop: no event reader\n");
            return 1;
        }
    }
    OTF2_GlobalEvtReader *events = OTF2_Reader_GetGlobalEvtReader(reader);
    OTF2_GlobalEvtReaderCallbacks *ecb = OTF2_GlobalEvtReaderCallbacks_New();
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(ecb, on_p2p);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(ecb, on_p2p);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(ecb, on_p2p_request);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(ecb, on_p2p_request);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(ecb, on_request);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(ecb, on_request);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRequestCancelledCallback(ecb, on_request);
    CHECK(OTF2_Reader_RegisterGlobalEvtCallbacks(reader, events, ecb, NULL));
    OTF2_GlobalEvtReaderCallbacks_Delete(ecb);
    uint64_t total = 0, n = BATCH;
    while (n == BATCH) {
        CHECK(OTF2_Reader_ReadGlobalEvents(reader, events, BATCH, &n));
        total += n;
    }
    CHECK(OTF2_Reader_CloseGlobalEvtReader(reader, events));
    CHECK(OTF2_Reader_CloseEvtFiles(reader));
    CHECK(OTF2_Reader_Close(reader));
    free(refs);
    printf("%llu events, %llu MPI point-to-point records\n", (unsigned long long)total,
           (unsigned long long)records);
    return 0;
}
