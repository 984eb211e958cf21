/* Enter and Leave events, derived from the moves of the tree's current node,
 * and the start-up of trace mode. */
#include "trace/trace.h"

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "common/directory.h"
#include "trace/buffer.h"
#include "trace/volume.h"
#include "trace/writer.h"

int ht_trace_enabled;

static size_t buffer_bytes;

const char *ht_trace_folder(const struct ht_config *cfg)
{
    return cfg->trace.folder ? cfg->trace.folder : cfg->output_directory;
}

bool ht_trace_setup(const struct ht_config *cfg)
{
    buffer_bytes = (size_t)cfg->trace.buffer_mib << 20;
    if (!cfg->trace.enabled)
        return false;
#ifndef HT_HAVE_OTF2
    /* configure --without-otf2: no archive writer (no_archive.c). */
    fputs("hooktrace: trace mode needs OTF2, and this hooktrace was built without it "
          "(configure --without-otf2); no trace will be written (the profile still is)\n",
          stderr);
    return false;
#endif
    const char *folder = ht_trace_folder(cfg);
    if (ht_make_directory(folder) != 0) {
        fprintf(stderr,
                "hooktrace: trace folder \"%s\": %s; no trace will be written (the profile "
                "still is)\n",
                folder, strerror(errno));
        return false;
    }
    ht_trace_buffer_set_folder(folder);
    ht_trace_volume_setup(cfg->trace.max_bytes_per_rank);
    ht_trace_enabled = 1;
    return true;
}

void ht_trace_attach(struct ht_thread *t)
{
    if (!ht_trace_enabled)
        return;
    t->trace = ht_trace_buffer_new(buffer_bytes);
    if (t->trace)
        t->tracing = 1;
}

/* Enters the path from `from` (an ancestor or a node at the same depth as
 * an ancestor of `to`) down to `to`, leaving what is not on it.  Depths
 * differ by one in every real case, so the recursion is shallow. */
static void enter_down(struct ht_trace_buffer *b, struct ht_node *from, struct ht_node *to,
                       uint64_t now)
{
    if (to == from)
        return;
    if (to->depth > from->depth) {
        enter_down(b, from, to->parent, now);
    } else {
        ht_trace_put_call(b, HT_REC_LEAVE, from, now);
        enter_down(b, from->parent, to->parent, now);
    }
    ht_trace_put_call(b, HT_REC_ENTER, to, now);
}

/* The same for the MPI routines alone, after the cut at the bound: they
 * are entered and left as if nothing were open around them (the calls open
 * at the cut were closed there). */
static void enter_down_mpi(struct ht_trace_buffer *b, struct ht_node *from, struct ht_node *to,
                           uint64_t now)
{
    if (to == from)
        return;
    if (to->depth > from->depth) {
        enter_down_mpi(b, from, to->parent, now);
    } else {
        if (from->flags & HT_NODE_MPI_ROUTINE)
            ht_trace_put_call(b, HT_REC_LEAVE, from, now);
        enter_down_mpi(b, from->parent, to->parent, now);
    }
    if (to->flags & HT_NODE_MPI_ROUTINE)
        ht_trace_put_call(b, HT_REC_ENTER, to, now);
}

static void moved_mpi(struct ht_trace_buffer *b, struct ht_node *from, struct ht_node *to,
                      uint64_t now)
{
    while (from->depth > to->depth) {
        if (from->flags & HT_NODE_MPI_ROUTINE)
            ht_trace_put_call(b, HT_REC_LEAVE, from, now);
        from = from->parent;
    }
    enter_down_mpi(b, from, to, now);
}

static void moved(struct ht_trace_buffer *b, struct ht_node *from, struct ht_node *to,
                  uint64_t now)
{
    /* One compare per move: the bound is checked when a thread has used
     * what it was given (volume.c). */
    if (HT_UNLIKELY(ht_trace_recorded_bytes(b) >= b->allowed) &&
        !ht_trace_volume_grant(b, from, now)) {
        moved_mpi(b, from, to, now);
        return;
    }
    while (from->depth > to->depth) {
        ht_trace_put_call(b, HT_REC_LEAVE, from, now);
        from = from->parent;
    }
    enter_down(b, from, to, now);
}

enum ht_tree_move ht_trace_enter(struct ht_thread *t, uintptr_t function, uint64_t now,
                                 uintptr_t sp, uintptr_t site)
{
    struct ht_node *before = t->tree.current;
    enum ht_tree_move move;
    struct ht_node *child = ht_tree_cached_child(&t->tree, function, sp, site);
    if (child) {
        ht_tree_push(&t->tree, child, now, sp, site);
        move = HT_MOVED;
    } else {
        move = ht_tree_enter_slow(&t->tree, function, now, sp, site);
    }
    if (t->tree.current != before)
        moved(t->trace, before, t->tree.current, now);
    return move;
}

enum ht_tree_move ht_trace_exit(struct ht_thread *t, uintptr_t function, uint64_t now)
{
    struct ht_node *before = t->tree.current;
    enum ht_tree_move move = ht_tree_exit(&t->tree, function, now);
    if (t->tree.current != before)
        moved(t->trace, before, t->tree.current, now);
    return move;
}

void ht_trace_moved(struct ht_thread *t, struct ht_node *before, uint64_t now)
{
    if (t->tracing && t->tree.current != before)
        moved(t->trace, before, t->tree.current, now);
}

void ht_trace_mpi_node(struct ht_thread *t, struct ht_node *node, uint64_t now)
{
    if (t->trace && t->trace->cut && t->tree.current == node)
        ht_trace_put_call(t->trace, HT_REC_ENTER, node, now);
}
