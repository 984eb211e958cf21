/* One thread's records as the OTF2 events of its location. */
#include "trace/archive_events.h"

#include <stdio.h>
#include <stdlib.h>

#include "callstack/tree.h"
#include "trace/archive_internal.h"
#include "trace/buffer.h"
#include "trace/clock_skew.h"

struct replay {
    OTF2_EvtWriter *w;
    const uint32_t *comm_ids; /* registry index -> unified id */
    uint32_t comm_count;
    struct ht_location_info *info;
    /* the traced calls open at this point, innermost last */
    struct ht_node **open;
    size_t open_count, open_cap;
    /* a blocking collective between its Enter and Leave */
    int coll_op;
    bool coll_ended;
    /* the non-blocking collective routine being called, or -1 */
    int nbc_op;
    OTF2_ErrorCode error;
};

static void check(struct replay *r, OTF2_ErrorCode e)
{
    if (e != OTF2_SUCCESS && r->error == OTF2_SUCCESS)
        r->error = e;
}

static void count(struct replay *r, uint64_t tick)
{
    r->info->events++;
    if (tick < r->info->first_tick)
        r->info->first_tick = tick;
    if (tick > r->info->last_tick)
        r->info->last_tick = tick;
}

/* One event written at tick. */
static void emit(struct replay *r, uint64_t tick, OTF2_ErrorCode e)
{
    check(r, e);
    count(r, tick);
}

static bool comm_of(const struct replay *r, uint64_t word, OTF2_CommRef *comm)
{
    uint32_t index = (uint32_t)(word >> 32);
    if (index >= r->comm_count)
        return false;
    *comm = r->comm_ids[index];
    return true;
}

static void enter(struct replay *r, uint64_t tick, struct ht_node *node)
{
    if (node->spare == HT_NODE_NOT_TRACED)
        return;
    if (r->open_count == r->open_cap) {
        size_t cap = r->open_cap ? r->open_cap * 2 : 64;
        struct ht_node **bigger = realloc(r->open, cap * sizeof *bigger);
        if (!bigger) {
            check(r, OTF2_ERROR_MEM_ALLOC_FAILED);
            return;
        }
        r->open = bigger;
        r->open_cap = cap;
    }
    r->open[r->open_count++] = node;
    emit(r, tick, OTF2_EvtWriter_Enter(r->w, NULL, tick, HT_NODE_REGION(node->spare)));
    int op = HT_NODE_OP(node->spare);
    if (op >= 0 && HT_NODE_NONBLOCKING(node->spare)) {
        r->nbc_op = op;
    } else if (op >= 0) {
        r->coll_op = op;
        r->coll_ended = false;
        emit(r, tick, OTF2_EvtWriter_MpiCollectiveBegin(r->w, NULL, tick));
    }
}

static void leave(struct replay *r, uint64_t tick, struct ht_node *node)
{
    if (node->spare == HT_NODE_NOT_TRACED)
        return;
    /* Only the innermost open call can be left: records lost to a failed
     * flush must not make Leaves that match no Enter. */
    if (r->open_count == 0 || r->open[r->open_count - 1] != node)
        return;
    r->open_count--;
    int op = HT_NODE_OP(node->spare);
    if (op >= 0 && !HT_NODE_NONBLOCKING(node->spare)) {
        if (!r->coll_ended) /* the call failed or moved nothing we saw */
            emit(r, tick, OTF2_EvtWriter_MpiCollectiveEnd(r->w, NULL, tick, (OTF2_CollectiveOp)op,
                                                          r->comm_count ? r->comm_ids[0] : 0,
                                                          OTF2_UNDEFINED_UINT32, 0, 0));
        r->coll_op = -1;
    }
    if (op >= 0 && HT_NODE_NONBLOCKING(node->spare))
        r->nbc_op = -1;
    emit(r, tick, OTF2_EvtWriter_Leave(r->w, NULL, tick, HT_NODE_REGION(node->spare)));
}

/* A throttle marker: a parameter "hooktrace throttled after calls" whose
 * value is the count, with the function's region as attribute; the cut at
 * the bound: MeasurementOnOff(OFF) with the bound as attribute. */
static void volume_event(struct replay *r, uint64_t tick, unsigned kind, const uint64_t *p)
{
    OTF2_AttributeList *a = OTF2_AttributeList_New();
    if (!a) {
        check(r, OTF2_ERROR_MEM_ALLOC_FAILED);
        return;
    }
    if (kind == HT_REC_THROTTLED) {
        const struct ht_node *node = (const struct ht_node *)(uintptr_t)p[0];
        if (node->spare != HT_NODE_NOT_TRACED) {
            check(r, OTF2_AttributeList_AddRegionRef(a, HT_TRACE_ATTR_FUNCTION,
                                                     HT_NODE_REGION(node->spare)));
            emit(r, tick, OTF2_EvtWriter_ParameterUnsignedInt(r->w, a, tick,
                                                              HT_TRACE_PARAM_THROTTLED, p[1]));
        }
    } else {
        check(r, OTF2_AttributeList_AddUint64(a, HT_TRACE_ATTR_BOUND, p[0]));
        emit(r, tick, OTF2_EvtWriter_MeasurementOnOff(r->w, a, tick, OTF2_MEASUREMENT_OFF));
    }
    OTF2_AttributeList_Delete(a);
}

static bool on_record(void *ctx, uint64_t tick, uint64_t header, const uint64_t *p)
{
    struct replay *r = ctx;
    unsigned kind = header & HT_REC_KIND_MASK;
    /* The testing aid's simulated node clock, here and nowhere on the hot
     * path. */
    tick = ht_trace_skew(tick);
    OTF2_CommRef comm = 0;
    switch (kind) {
    case HT_REC_ENTER:
        enter(r, tick, (struct ht_node *)(uintptr_t)(header & ~(uint64_t)HT_REC_KIND_MASK));
        return r->error == OTF2_SUCCESS;
    case HT_REC_LEAVE:
        leave(r, tick, (struct ht_node *)(uintptr_t)(header & ~(uint64_t)HT_REC_KIND_MASK));
        return r->error == OTF2_SUCCESS;
    case HT_REC_FLUSH:
        emit(r, tick, OTF2_EvtWriter_BufferFlush(r->w, NULL, tick, ht_trace_skew(p[0])));
        break;
    case HT_REC_THROTTLED:
    case HT_REC_CUT:
        volume_event(r, tick, kind, p);
        break;
    case HT_REC_SEND:
        if (comm_of(r, p[0], &comm))
            emit(r, tick, OTF2_EvtWriter_MpiSend(r->w, NULL, tick, (uint32_t)p[0], comm,
                                            (uint32_t)p[1], p[2]));
        break;
    case HT_REC_RECV:
        if (comm_of(r, p[0], &comm))
            emit(r, tick, OTF2_EvtWriter_MpiRecv(r->w, NULL, tick, (uint32_t)p[0], comm,
                                            (uint32_t)p[1], p[2]));
        break;
    case HT_REC_ISEND:
        if (comm_of(r, p[0], &comm))
            emit(r, tick, OTF2_EvtWriter_MpiIsend(r->w, NULL, tick, (uint32_t)p[0], comm,
                                             (uint32_t)p[1], p[2], p[3]));
        break;
    case HT_REC_ISEND_COMPLETE:
        emit(r, tick, OTF2_EvtWriter_MpiIsendComplete(r->w, NULL, tick, p[0]));
        break;
    case HT_REC_IRECV_REQUEST:
        emit(r, tick, OTF2_EvtWriter_MpiIrecvRequest(r->w, NULL, tick, p[0]));
        break;
    case HT_REC_IRECV:
        if (comm_of(r, p[0], &comm))
            emit(r, tick, OTF2_EvtWriter_MpiIrecv(r->w, NULL, tick, (uint32_t)p[0], comm,
                                             (uint32_t)p[1], p[2], p[3]));
        break;
    case HT_REC_REQUEST_TEST:
        emit(r, tick, OTF2_EvtWriter_MpiRequestTest(r->w, NULL, tick, p[0]));
        break;
    case HT_REC_REQUEST_CANCELLED:
        emit(r, tick, OTF2_EvtWriter_MpiRequestCancelled(r->w, NULL, tick, p[0]));
        break;
    case HT_REC_COLL_END:
        if (r->coll_op >= 0 && !r->coll_ended && comm_of(r, p[0] << 32, &comm)) {
            emit(r, tick, OTF2_EvtWriter_MpiCollectiveEnd(r->w, NULL, tick,
                                                     (OTF2_CollectiveOp)r->coll_op, comm,
                                                     (uint32_t)(p[0] >> 32), p[1], p[2]));
            r->coll_ended = true;
        }
        break;
    case HT_REC_NBC_REQUEST:
        if (r->nbc_op >= 0)
            emit(r, tick, OTF2_EvtWriter_NonBlockingCollectiveRequest(r->w, NULL, tick, p[0]));
        break;
    case HT_REC_NBC_COMPLETE: {
        struct ht_node *node = (struct ht_node *)(uintptr_t)p[0];
        int op = node->spare == HT_NODE_NOT_TRACED ? -1 : HT_NODE_OP(node->spare);
        if (op >= 0 && comm_of(r, p[1] << 32, &comm))
            emit(r, tick, OTF2_EvtWriter_NonBlockingCollectiveComplete(
                         r->w, NULL, tick, (OTF2_CollectiveOp)op, comm, (uint32_t)(p[1] >> 32),
                         p[2], p[3], p[4]));
        break;
    }
    default:
        break;
    }
    return r->error == OTF2_SUCCESS;
}

int ht_trace_write_location(OTF2_EvtWriter *w, struct ht_trace_buffer *b, const uint32_t *comm_ids,
                            uint32_t comm_count, struct ht_location_info *info, char *err,
                            size_t errlen)
{
    struct replay r = {.w = w, .comm_ids = comm_ids, .comm_count = comm_count, .info = info,
                       .coll_op = -1, .nbc_op = -1};
    info->first_tick = UINT64_MAX;
    info->last_tick = 0;
    int rc = ht_trace_buffer_replay(b, on_record, &r, err, errlen);
    /* Calls still open at the end (MPI_Finalize, main, a thread that was
     * still running) end with the last event. */
    uint64_t end = info->last_tick;
    while (rc == 0 && r.error == OTF2_SUCCESS && r.open_count > 0)
        leave(&r, end, r.open[r.open_count - 1]);
    free(r.open);
    if (rc == 0 && r.error != OTF2_SUCCESS) {
        snprintf(err, errlen, "%s", OTF2_Error_GetDescription(r.error));
        rc = -1;
    }
    return rc;
}
