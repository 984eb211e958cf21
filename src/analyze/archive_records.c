/* The decoding callbacks (archive_share.h): each event of a share
 * becomes a record in the batch being filled, with the arguments the
 * serial read's callback gets; archive_par.c replays them. */
#include <otf2/otf2.h>

#include "analyze/archive_events.h"
#include "analyze/archive_share.h"
#include "analyze/fail.h"

static inline struct record *append(struct reader *r, enum record_type type, uint64_t location,
                                    uint64_t time)
{
    if (r->fill->n == BATCH_RECORDS)
        r->publish(r, 0);
    struct record *e = &r->fill->records[r->fill->n++];
    e->type = (uint8_t)type;
    e->location = location;
    e->time = time;
    r->appended++;
    return e;
}

#define RECORD(type)    \
    (void)attributes;   \
    struct record *e = append(ud, type, ref, time)

static OTF2_CallbackCode rec_send(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                  OTF2_AttributeList *attributes, uint32_t receiver,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    RECORD(REC_SEND);
    e->peer = receiver, e->comm = comm, e->tag = tag, e->length = length;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_isend(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                   OTF2_AttributeList *attributes, uint32_t receiver,
                                   OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                   uint64_t request)
{
    RECORD(REC_ISEND);
    e->peer = receiver, e->comm = comm, e->tag = tag, e->length = length, e->request = request;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_isend_complete(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                            OTF2_AttributeList *attributes, uint64_t request)
{
    RECORD(REC_ISEND_COMPLETE);
    e->request = request;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_recv(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                  OTF2_AttributeList *attributes, uint32_t sender,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    RECORD(REC_RECV);
    e->peer = sender, e->comm = comm, e->tag = tag, e->length = length;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_irecv_request(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                           OTF2_AttributeList *attributes, uint64_t request)
{
    RECORD(REC_IRECV_REQUEST);
    e->request = request;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_irecv(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                   OTF2_AttributeList *attributes, uint32_t sender,
                                   OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                   uint64_t request)
{
    RECORD(REC_IRECV);
    e->peer = sender, e->comm = comm, e->tag = tag, e->length = length, e->request = request;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_cancelled(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                       OTF2_AttributeList *attributes, uint64_t request)
{
    RECORD(REC_CANCELLED);
    e->request = request;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_enter(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                   OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    RECORD(REC_ENTER);
    e->peer = region;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_leave(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                   OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    RECORD(REC_LEAVE);
    e->peer = region;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_collective_begin(OTF2_LocationRef ref, OTF2_TimeStamp time,
                                              void *ud, OTF2_AttributeList *attributes)
{
    (void)attributes;
    append(ud, REC_COLLECTIVE_BEGIN, ref, time);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_collective_end(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                            OTF2_AttributeList *attributes, OTF2_CollectiveOp op,
                                            OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                            uint64_t received)
{
    RECORD(REC_COLLECTIVE_END);
    e->op = op, e->comm = comm, e->peer = root, e->length = sent, e->request = received;
    return OTF2_CALLBACK_SUCCESS;
}

/* The records of ARCHIVE_EVENT_RECORDS (archive_events.h). */
OTF2_ErrorCode archive_register_records(OTF2_Reader *reader, OTF2_GlobalEvtReader *events,
                                        struct reader *r)
{
    OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
    if (!cb)
        fail_out_of_memory();
#define SET_CALLBACK(record, suffix) \
    OTF2_GlobalEvtReaderCallbacks_Set##record##Callback(cb, rec_##suffix);
    ARCHIVE_EVENT_RECORDS(SET_CALLBACK)
#undef SET_CALLBACK
    OTF2_ErrorCode rc = OTF2_Reader_RegisterGlobalEvtCallbacks(reader, events, cb, r);
    OTF2_GlobalEvtReaderCallbacks_Delete(cb);
    return rc;
}
