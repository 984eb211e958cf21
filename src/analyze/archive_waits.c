/* The records of the wait-state analysis (waitstate.h): Region
 * definitions name the call paths; Enter and Leave keep each location's
 * region stack; MpiCollectiveBegin/End make the collective instances.
 * Non-blocking collectives are not read (docs/analyze.md). */
#include "analyze/archive_events.h"

static OTF2_CallbackCode def_region(void *ud, OTF2_RegionRef ref, OTF2_StringRef name,
                                    OTF2_StringRef canonical_name, OTF2_StringRef description,
                                    OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file,
                                    uint32_t begin_line, uint32_t end_line)
{
    (void)canonical_name;
    (void)description;
    (void)role;
    (void)paradigm;
    (void)flags;
    (void)file;
    (void)begin_line;
    (void)end_line;
    calltree_add_region(&((struct analysis *)ud)->waits.tree, ref, name);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode ev_enter(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                  OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    EVENT_AT(a, ref);
    waits_enter(&a->waits, loc->index, region, time);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode ev_leave(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                  OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    EVENT_AT(a, ref);
    (void)region;
    waits_leave(&a->waits, loc->index, time);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode ev_collective_begin(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                             OTF2_AttributeList *attributes)
{
    EVENT_AT(a, ref);
    waits_collective_begin(&a->waits, loc, time);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode ev_collective_end(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                           OTF2_AttributeList *attributes,
                                           OTF2_CollectiveOp op, OTF2_CommRef comm,
                                           uint32_t root, uint64_t sent, uint64_t received)
{
    EVENT_AT(a, ref);
    (void)sent;
    (void)received;
    waits_collective_end(&a->waits, loc, time, op, comm, root);
    return OTF2_CALLBACK_SUCCESS;
}

void archive_wait_definitions(OTF2_GlobalDefReaderCallbacks *cb)
{
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
}
