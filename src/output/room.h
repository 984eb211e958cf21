/* Bounded output: how deep paths are written, and the room a file may take.
 *
 * A profile of N stacks must give outputs of O(N) bytes, never O(N x depth):
 * a path is written whole only up to a depth, deeper ones with their middle
 * elided (room.c writes both).  And whatever the size, a file stops before
 * it fills the file system (docs/output.md, "Bounded output"). */
#ifndef HT_OUTPUT_ROOM_H
#define HT_OUTPUT_ROOM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "callstack/profile.h"

/* The logfile's stack list: paths up to HEAD + TAIL + 3 frames whole, deeper
 * ones as the HEAD frames from the root, "... N frames ...", and the TAIL
 * frames down to the stack's own function. */
#define HT_LOG_PATH_HEAD 3
#define HT_LOG_PATH_TAIL 6
/* Folded stacks: the same with a frame "[...N frames]" in the middle, so
 * that every line keeps its root and leaf ends and its time. */
#define HT_FOLDED_PATH_HEAD 64
#define HT_FOLDED_PATH_TAIL 64

/* Space left free on the output's file system when a file is stopped:
 * 64 MiB, or half the free space if that is less than 128 MiB. */
#define HT_OUTPUT_RESERVE_BYTES ((uint64_t)64 << 20)

struct ht_output_room {
    uint64_t limit;     /* file offset not to pass; UINT64_MAX: unknown */
    unsigned countdown; /* writes until the next look at the offset */
    bool stopped;       /* the limit was reached */
};

/* Reads the free space of f's file system (fstatvfs) once. */
void ht_output_room_init(struct ht_output_room *room, FILE *f);

/* Whether another piece (a line, a stack) may be written to f; false from
 * the first time the file's offset passes the limit on, having said so on
 * stderr (what: "logfile", "folded stacks", ...).  Looks at the offset
 * every 64 calls: a piece is O(1) bytes, so the overshoot is bounded. */
bool ht_output_room_left(struct ht_output_room *room, FILE *f, const char *what);

/* How many files this thread stopped so far: a file that was stopped is
 * incomplete, and must not replace a complete one (files.c). */
unsigned ht_output_room_stops(void);

/* Writing paths cut in the middle in O(1) per stack, however deep. */
struct ht_path_cutter {
    const struct ht_profile *profile;
    int max_head, max_tail;
    int *head_stack; /* [nstacks]: the stack's ancestor at depth max_head,
                        or the stack itself if it is not deeper */
};

/* -1 if out of memory. */
int ht_path_cutter_init(struct ht_path_cutter *c, const struct ht_profile *p, int max_head,
                        int max_tail);
void ht_path_cutter_free(struct ht_path_cutter *c);

/* The frames (stack IDs, root first) of stack id to write into out, which
 * holds max_head + max_tail + 3 of them; returns how many.  *elided: the
 * frames left out after the first max_head of out (0: the whole path). */
int ht_path_cut(const struct ht_path_cutter *c, int id, int *out, int *elided);

#endif
