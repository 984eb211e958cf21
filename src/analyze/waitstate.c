/* Point-to-point wait states and the result table. */
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/fail.h"
#include "analyze/waitstate.h"

static const char *const pattern_names[WAIT_PATTERN_COUNT] = {
    [WAIT_LATE_SENDER] = "late_sender",
    [WAIT_LATE_RECEIVER] = "late_receiver",
    [WAIT_AT_NXN] = "wait_at_nxn",
    [WAIT_AT_BARRIER] = "wait_at_barrier",
    [WAIT_LATE_BROADCAST] = "late_broadcast",
    [WAIT_EARLY_REDUCE] = "early_reduce",
};

const char *wait_pattern_name(enum wait_pattern pattern)
{
    return pattern_names[pattern];
}

static void add(struct waits *w, enum wait_pattern pattern, uint32_t rank, uint32_t callpath,
                uint64_t ticks, uint64_t count)
{
    uint64_t k1 = (uint64_t)pattern << 32 | rank;
    struct wait_entry *e = hashmap_get(&w->entries, k1, callpath);
    if (!e) {
        e = pool_alloc(&w->entry_pool);
        memset(e, 0, sizeof *e);
        e->pattern = pattern;
        e->rank = rank;
        e->callpath = callpath;
        hashmap_put(&w->entries, k1, callpath, e);
    }
    e->count += count;
    e->ticks += ticks;
}

static void on_collective_wait(void *context, enum wait_pattern pattern, uint32_t rank,
                               uint32_t callpath, uint64_t ticks)
{
    add(context, pattern, rank, callpath, ticks, 1);
}

void waits_init(struct waits *w)
{
    memset(w, 0, sizeof *w);
    calltree_init(&w->tree);
    hashmap_init(&w->entries);
    pool_init(&w->entry_pool, sizeof(struct wait_entry));
    collectives_init(&w->collectives, on_collective_wait, w);
}

void waits_start(struct waits *w, struct rankmap *ranks)
{
    w->ranks = ranks;
    w->nlocations = ranks->nlocations;
    w->locs = xcalloc(w->nlocations ? w->nlocations : 1, sizeof *w->locs);
    for (uint32_t i = 0; i < w->nlocations; i++)
        locstate_init(&w->locs[i]);
}

static const char *string_of(const void *ranks, uint32_t ref)
{
    return rankmap_string(ranks, ref);
}

/* The kind of a frame's region, looked up once per frame: the records
 * inside one call of a routine ask again. */
static enum region_kind kind_of(struct waits *w, struct locstate_frame *f)
{
    if (f->kind < 0)
        f->kind = (int32_t)calltree_region_kind(&w->tree, f->region, string_of, w->ranks);
    return (enum region_kind)f->kind;
}

void waits_leave(struct waits *w, uint32_t location_index, uint64_t time)
{
    struct locstate *s = &w->locs[location_index];
    uint64_t enter;
    uint32_t region;
    if (!locstate_leave(s, &enter, &region))
        return;
    /* Only the last send region is remembered (waits_message); asking
     * the kind of every region left would cost a lookup per Leave. */
    if (s->send_pending_enter == enter && s->send_pending) {
        s->send_enter = enter;
        s->send_leave = time;
        s->send_left = 1;
        s->send_pending = 0;
    }
}

void waits_stamp(struct waits *w, const struct rankmap_location *loc, struct endpoint *e,
                 int completion)
{
    struct locstate *s = &w->locs[loc->index];
    struct locstate_frame *f = locstate_top(s);
    enum region_kind kind = f ? kind_of(w, f) : REGION_OTHER;
    e->region_kind = (uint8_t)kind;
    e->callpath = CALLTREE_ROOT;
    /* Outside an MPI routine (a writer without Enter/Leave for it), the
     * record's own time is all that is known. */
    e->region_enter = kind == REGION_OTHER ? e->time : f->enter;
    if (!completion)
        e->posted = e->region_enter;
    if (kind == REGION_RECV || kind == REGION_WAIT || kind == REGION_SEND)
        e->callpath = locstate_callpath(s, &w->tree);
    if (kind == REGION_SEND && e->is_send) {
        s->send_pending = 1;
        s->send_pending_enter = f->enter;
    }
}

static struct locstate *state_of(struct waits *w, uint64_t location)
{
    const struct rankmap_location *loc = rankmap_location(w->ranks, location);
    return loc ? &w->locs[loc->index] : NULL;
}

static int64_t diff(uint64_t later, uint64_t earlier)
{
    return (int64_t)(later - earlier);
}

/* The receive waited from its region's enter until the send began (no
 * later than the receive's own record, the end of its waiting).  One
 * wait completing several receives counts once, up to its latest send. */
static void late_sender(struct waits *w, const struct endpoint *s, const struct endpoint *r)
{
    if (r->region_kind != REGION_RECV && r->region_kind != REGION_WAIT)
        return;
    uint64_t until = diff(s->posted, r->time) < 0 ? s->posted : r->time;
    if (diff(until, r->region_enter) <= 0)
        return;
    struct locstate *ls = state_of(w, r->location);
    if (!ls)
        return;
    uint64_t from = r->region_enter, count = 1;
    if (ls->late_sender_open && ls->late_sender_enter == r->region_enter) {
        if (diff(until, ls->late_sender_until) <= 0)
            return;
        from = ls->late_sender_until;
        count = 0;
    }
    ls->late_sender_open = 1;
    ls->late_sender_enter = r->region_enter;
    ls->late_sender_until = until;
    add(w, WAIT_LATE_SENDER, r->self, r->callpath, until - from, count);
}

/* A blocking send waited from its enter until the receive was posted, if
 * it was posted before the send ended (an eager send that returned
 * earlier did not wait). */
static void late_receiver(struct waits *w, const struct endpoint *s, const struct endpoint *r)
{
    if (s->region_kind != REGION_SEND || diff(r->posted, s->region_enter) <= 0)
        return;
    struct locstate *ls = state_of(w, s->location);
    if (!ls)
        return;
    const struct locstate_frame *top = locstate_top(ls);
    int open = ls->send_pending && ls->send_pending_enter == s->region_enter && top
               && top->enter == s->region_enter;
    if (!open) {
        uint64_t end = ls->send_left && ls->send_enter == s->region_enter ? ls->send_leave
                                                                         : s->time;
        if (diff(end, r->posted) <= 0)
            return;
    }
    add(w, WAIT_LATE_RECEIVER, s->self, s->callpath, r->posted - s->region_enter, 1);
}

void waits_message(struct waits *w, const struct endpoint *send, const struct endpoint *receive)
{
    late_sender(w, send, receive);
    late_receiver(w, send, receive);
}

void waits_collective_begin(struct waits *w, const struct rankmap_location *loc, uint64_t time)
{
    w->locs[loc->index].collective_begin = time;
}

void waits_collective_end(struct waits *w, const struct rankmap_location *loc, uint64_t time,
                          uint8_t op, uint32_t comm, uint32_t root)
{
    struct locstate *s = &w->locs[loc->index];
    uint64_t seq = locstate_next_collective(s, comm);
    if (loc->world_rank == RANKMAP_NONE)
        return;
    const struct rankmap_comm *c = hashmap_get(&w->ranks->comms, comm, 0);
    if (!c || c->kind != RANKMAP_INTRA)
        return; /* inter-communicator collectives: not judged */
    struct locstate_frame *f = locstate_top(s);
    struct coll_member m;
    m.enter = f && kind_of(w, f) != REGION_OTHER ? f->enter : s->collective_begin;
    m.end = time;
    m.rank = loc->world_rank;
    m.callpath = locstate_callpath(s, &w->tree);
    uint32_t root_rank = root == OTF2_UNDEFINED_UINT32
                             ? RANKMAP_NONE
                             : rankmap_world_rank(w->ranks, comm, loc->world_rank, root);
    collectives_arrive(&w->collectives, comm, seq, rankmap_comm_size(c), op, root_rank, &m);
}

uint32_t waits_path_names(const struct waits *w, uint32_t node, const char **names)
{
    uint32_t depth = calltree_depth(&w->tree, node);
    for (uint32_t i = depth; i > 0; i--) {
        const char *name = rankmap_string(
            w->ranks, calltree_region_name(&w->tree, w->tree.nodes[node].region));
        names[i - 1] = name ? name : "(unnamed region)";
        node = w->tree.nodes[node].parent;
    }
    return depth;
}

static char *join_path(const struct waits *w, uint32_t node)
{
    uint32_t depth = calltree_depth(&w->tree, node);
    const char **names = xmalloc((depth ? depth : 1) * sizeof *names);
    waits_path_names(w, node, names);
    size_t length = 1;
    for (uint32_t i = 0; i < depth; i++)
        length += strlen(names[i]) + 3;
    char *path = xmalloc(length), *p = path;
    *p = '\0';
    for (uint32_t i = 0; i < depth; i++)
        p += sprintf(p, "%s%s", i ? " > " : "", names[i]);
    free(names);
    return path;
}

void waits_finish(struct waits *w)
{
    collectives_finish(&w->collectives);
    for (size_t i = 0; i < hashmap_capacity(&w->entries); i++) {
        struct wait_entry *e = w->entries.slots[i].value;
        if (e && !e->path)
            e->path = join_path(w, e->callpath);
    }
}

void waits_free(struct waits *w)
{
    for (size_t i = 0; i < hashmap_capacity(&w->entries); i++) {
        struct wait_entry *e = w->entries.slots[i].value;
        if (e)
            free(e->path);
    }
    hashmap_free(&w->entries);
    pool_destroy(&w->entry_pool);
    collectives_free(&w->collectives);
    for (uint32_t i = 0; i < w->nlocations; i++)
        locstate_free(&w->locs[i]);
    free(w->locs);
    w->locs = NULL;
    calltree_free(&w->tree);
}

static int compare_entries(const void *x, const void *y)
{
    const struct wait_entry *a = *(const struct wait_entry *const *)x;
    const struct wait_entry *b = *(const struct wait_entry *const *)y;
    if (a->ticks != b->ticks)
        return a->ticks > b->ticks ? -1 : 1;
    if (a->pattern != b->pattern)
        return a->pattern < b->pattern ? -1 : 1;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return strcmp(a->path ? a->path : "", b->path ? b->path : "");
}

const struct wait_entry **waits_sorted(const struct waits *w, size_t *n)
{
    const struct wait_entry **list =
        xmalloc((w->entries.count ? w->entries.count : 1) * sizeof *list);
    *n = 0;
    for (size_t i = 0; i < hashmap_capacity(&w->entries); i++) {
        if (w->entries.slots[i].value)
            list[(*n)++] = w->entries.slots[i].value;
    }
    qsort(list, *n, sizeof *list, compare_entries);
    return list;
}
