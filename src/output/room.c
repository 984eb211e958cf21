/* Bounded output (room.h): paths cut in the middle, files stopped before
 * the file system is full. */
#include "output/room.h"

#include <stdlib.h>
#include <sys/statvfs.h>

static __thread unsigned stops;

unsigned ht_output_room_stops(void)
{
    return stops;
}

void ht_output_room_init(struct ht_output_room *room, FILE *f)
{
    room->limit = UINT64_MAX;
    room->countdown = 0;
    room->stopped = false;
    struct statvfs fs;
    long start = ftell(f);
    if (start < 0 || fstatvfs(fileno(f), &fs) != 0)
        return; /* a pipe, a special file: nothing to fill */
    uint64_t free_bytes = (uint64_t)fs.f_bavail * (uint64_t)fs.f_frsize;
    uint64_t reserve = free_bytes / 2 < HT_OUTPUT_RESERVE_BYTES ? free_bytes / 2
                                                                 : HT_OUTPUT_RESERVE_BYTES;
    uint64_t room_bytes = free_bytes - reserve;
    room->limit = (uint64_t)start + room_bytes;
}

bool ht_output_room_left(struct ht_output_room *room, FILE *f, const char *what)
{
    if (room->stopped)
        return false;
    if (room->limit == UINT64_MAX || room->countdown-- > 0)
        return true;
    room->countdown = 63;
    long offset = ftell(f);
    if (offset < 0 || (uint64_t)offset < room->limit)
        return true;
    room->stopped = true;
    stops++;
    fprintf(stderr, "hooktrace: the %s stopped at %ld bytes, incomplete: its file system is"
                    " nearly full (hooktrace leaves 64 MiB free, or half of what was free)\n",
            what, offset);
    return false;
}

int ht_path_cutter_init(struct ht_path_cutter *c, const struct ht_profile *p, int max_head,
                        int max_tail)
{
    c->profile = p;
    c->max_head = max_head;
    c->max_tail = max_tail;
    c->head_stack = malloc((p->nstacks ? p->nstacks : 1) * sizeof *c->head_stack);
    if (!c->head_stack)
        return -1;
    /* Stacks are numbered depth-first, a caller before its callees. */
    for (size_t i = 0; i < p->nstacks; i++) {
        const struct ht_stack *s = &p->stacks[i];
        if (s->depth <= max_head || s->parent < 0) {
            c->head_stack[i] = (int)i;
        } else if ((size_t)s->parent < i) {
            c->head_stack[i] = c->head_stack[s->parent];
        } else { /* not expected: climb */
            int a = (int)i;
            while (p->stacks[a].depth > max_head && p->stacks[a].parent >= 0)
                a = p->stacks[a].parent;
            c->head_stack[i] = a;
        }
    }
    return 0;
}

void ht_path_cutter_free(struct ht_path_cutter *c)
{
    free(c->head_stack);
    c->head_stack = NULL;
}

/* Fills out[0..n-1] with stack id and its n - 1 nearest callers, root side
 * first; stops at a root. */
static int climb(const struct ht_profile *p, int id, int n, int *out)
{
    int k = 0;
    for (int s = id; s >= 0 && k < n; s = p->stacks[s].parent)
        out[k++] = s;
    for (int j = 0; j < k / 2; j++) {
        int swap = out[j];
        out[j] = out[k - 1 - j];
        out[k - 1 - j] = swap;
    }
    return k;
}

int ht_path_cut(const struct ht_path_cutter *c, int id, int *out, int *elided)
{
    const struct ht_profile *p = c->profile;
    int depth = p->stacks[id].depth;
    /* Eliding fewer than 4 frames would save less than the marker costs. */
    if (depth <= c->max_head + c->max_tail + 3) {
        *elided = 0;
        return climb(p, id, depth, out);
    }
    int head = climb(p, c->head_stack[id], c->max_head, out);
    int tail = climb(p, id, c->max_tail, out + head);
    *elided = depth - head - tail;
    return head + tail;
}
