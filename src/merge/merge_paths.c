/* Path sets: the call stacks of one or several ranks, keyed by path.
 *
 * A path is kept as a tree, not as strings: node = (parent node, function),
 * a function being its name, file and line as the output shows them.  So a
 * set of G stacks costs O(G) whatever their depth, and merging a set into
 * another is one hash lookup per node (parents come before children).
 *
 * Wire form: a uint64 node count, then per node an int32 parent (position
 * in the buffer, -1 for a root), a uint32 line, a flag byte (1: has a file),
 * the name and, if flagged, the file, each NUL-terminated.  Machine byte
 * order: every rank runs the same library on the same kind of machine. */
#include <stdlib.h>
#include <string.h>

#include "merge/merge_internal.h"

void ht_pathset_init(struct ht_pathset *set)
{
    memset(set, 0, sizeof *set);
}

void ht_pathset_free(struct ht_pathset *set)
{
    for (size_t i = 0; i < set->nbuffers; i++)
        free(set->buffers[i]);
    free(set->buffers);
    free(set->nodes);
    free(set->slots);
    memset(set, 0, sizeof *set);
}

static uint64_t hash_string(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001B3ull;
    return h;
}

static size_t slot_of(const struct ht_pathset *set, int parent, const char *name,
                      const char *file, unsigned line)
{
    uint64_t h = 0xCBF29CE484222325ull ^ ((uint64_t)(unsigned)parent * 0x9E3779B97F4A7C15ull);
    h = hash_string(h, name);
    h = hash_string(h * 31 + (file ? 1 : 0), file ? file : "");
    h ^= (uint64_t)line * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    return (size_t)h & set->slot_mask;
}

static bool same(const struct ht_path_node *n, int parent, const char *name, const char *file,
                 unsigned line)
{
    if (n->parent != parent || n->line != line || (n->file == NULL) != (file == NULL))
        return false;
    return strcmp(n->name, name) == 0 && (!file || strcmp(n->file, file) == 0);
}

static int grow_slots(struct ht_pathset *set)
{
    size_t old = set->slots ? set->slot_mask + 1 : 0;
    size_t size = old ? old * 2 : 1024;
    int *slots = calloc(size, sizeof *slots);
    if (!slots)
        return -1;
    free(set->slots);
    set->slots = slots;
    set->slot_mask = size - 1;
    for (size_t i = 0; i < set->count; i++) {
        const struct ht_path_node *n = &set->nodes[i];
        size_t s = slot_of(set, n->parent, n->name, n->file, n->line);
        while (slots[s])
            s = (s + 1) & set->slot_mask;
        slots[s] = (int)i + 1;
    }
    return 0;
}

int ht_pathset_find(const struct ht_pathset *set, int parent, const char *name,
                    const char *file, unsigned line)
{
    if (!set->slots)
        return -1;
    for (size_t s = slot_of(set, parent, name, file, line); set->slots[s];
         s = (s + 1) & set->slot_mask)
        if (same(&set->nodes[set->slots[s] - 1], parent, name, file, line))
            return set->slots[s] - 1;
    return -1;
}

int ht_pathset_add(struct ht_pathset *set, int parent, const char *name, const char *file,
                   unsigned line)
{
    if ((set->count + 1) * 2 > (set->slots ? set->slot_mask + 1 : 0) && grow_slots(set) != 0)
        return -1;
    size_t s = slot_of(set, parent, name, file, line);
    for (; set->slots[s]; s = (s + 1) & set->slot_mask)
        if (same(&set->nodes[set->slots[s] - 1], parent, name, file, line))
            return set->slots[s] - 1;
    if (set->count == set->capacity) {
        size_t cap = set->capacity ? set->capacity * 2 : 256;
        struct ht_path_node *nodes = realloc(set->nodes, cap * sizeof *nodes);
        if (!nodes)
            return -1;
        set->nodes = nodes;
        set->capacity = cap;
    }
    set->nodes[set->count] = (struct ht_path_node){parent, line, name, file};
    set->slots[s] = (int)++set->count;
    return (int)set->count - 1;
}

int ht_pathset_add_profile(struct ht_pathset *set, const struct ht_profile *profile,
                           int *index_of)
{
    /* Stack IDs are depth first: a parent's ID is below its children's. */
    for (size_t id = 0; id < profile->nstacks; id++) {
        const struct ht_stack *s = &profile->stacks[id];
        int parent = s->parent < 0 ? -1 : index_of[s->parent];
        const struct ht_function *f = s->function;
        index_of[id] = ht_pathset_add(set, parent, f->name ? f->name : "", f->file, f->line);
        if (index_of[id] < 0)
            return -1;
    }
    return 0;
}

int ht_pathset_serialize(const struct ht_pathset *set, const int *order, char **buf,
                         uint64_t *len)
{
    int *position = NULL;
    uint64_t size = sizeof(uint64_t);
    for (size_t i = 0; i < set->count; i++) {
        const struct ht_path_node *n = &set->nodes[i];
        size += 9 + strlen(n->name) + 1 + (n->file ? strlen(n->file) + 1 : 0);
    }
    char *out = malloc(size);
    if (order && set->count)
        position = malloc(set->count * sizeof *position);
    if (!out || (order && set->count && !position)) {
        free(out);
        free(position);
        return -1;
    }
    if (order)
        for (size_t k = 0; k < set->count; k++)
            position[order[k]] = (int)k;
    uint64_t count = set->count;
    memcpy(out, &count, sizeof count);
    char *w = out + sizeof count;
    for (size_t k = 0; k < set->count; k++) {
        const struct ht_path_node *n = &set->nodes[order ? order[k] : (int)k];
        int32_t parent = n->parent < 0 ? -1 : order ? position[n->parent] : n->parent;
        uint32_t line = n->line;
        memcpy(w, &parent, 4);
        memcpy(w + 4, &line, 4);
        w[8] = n->file ? 1 : 0;
        w += 9;
        size_t l = strlen(n->name) + 1;
        memcpy(w, n->name, l);
        w += l;
        if (n->file) {
            l = strlen(n->file) + 1;
            memcpy(w, n->file, l);
            w += l;
        }
    }
    free(position);
    *buf = out;
    *len = size;
    return 0;
}

static int keep_buffer(struct ht_pathset *set, char *buf)
{
    if (set->nbuffers == set->buffer_capacity) {
        size_t cap = set->buffer_capacity ? set->buffer_capacity * 2 : 8;
        char **b = realloc(set->buffers, cap * sizeof *b);
        if (!b)
            return -1;
        set->buffers = b;
        set->buffer_capacity = cap;
    }
    set->buffers[set->nbuffers++] = buf;
    return 0;
}

/* The end of the NUL-terminated string at p, or NULL if it runs past end. */
static const char *string_end(const char *p, const char *end)
{
    const char *z = memchr(p, '\0', (size_t)(end - p));
    return z ? z + 1 : NULL;
}

long ht_pathset_merge_wire(struct ht_pathset *set, char *buf, uint64_t len, int **map_out)
{
    if (map_out)
        *map_out = NULL;
    uint64_t count;
    if (!buf || len < sizeof count || keep_buffer(set, buf) != 0) {
        free(buf);
        return -1;
    }
    memcpy(&count, buf, sizeof count);
    if (count > len)
        return -1;
    int *map = malloc((count ? count : 1) * sizeof *map);
    if (!map)
        return -1;
    const char *p = buf + sizeof count, *end = buf + len;
    long rc = (long)count;
    for (uint64_t k = 0; k < count; k++) {
        int32_t parent;
        uint32_t line;
        if (end - p < 10) {
            rc = -1;
            break;
        }
        memcpy(&parent, p, 4);
        memcpy(&line, p + 4, 4);
        bool has_file = p[8] != 0;
        const char *name = p + 9;
        const char *file = NULL;
        p = string_end(name, end);
        if (p && has_file) {
            file = p;
            p = p < end ? string_end(file, end) : NULL;
        }
        if (!p || parent < -1 || (int64_t)parent >= (int64_t)k) {
            rc = -1;
            break;
        }
        map[k] = ht_pathset_add(set, parent < 0 ? -1 : map[parent], name, file, line);
        if (map[k] < 0) {
            rc = -1;
            break;
        }
    }
    if (map_out && rc >= 0)
        *map_out = map;
    else
        free(map);
    return rc;
}

static const struct ht_pathset *sort_set;

static int by_function(const void *pa, const void *pb)
{
    const struct ht_path_node *a = &sort_set->nodes[*(const int *)pa];
    const struct ht_path_node *b = &sort_set->nodes[*(const int *)pb];
    return ht_function_compare(a->name, a->file, a->line, b->name, b->file, b->line);
}

int *ht_pathset_number(const struct ht_pathset *set)
{
    size_t n = set->count;
    /* Children of node i are children[start[i + 1] .. start[i + 2]);
     * the roots (parent -1) are children[start[0] .. start[1]). */
    int *start = calloc(n + 2, sizeof *start);
    int *fill = calloc(n + 1, sizeof *fill);
    int *children = malloc((n ? n : 1) * sizeof *children);
    int *todo = malloc((n ? n : 1) * sizeof *todo);
    int *order = malloc((n ? n : 1) * sizeof *order);
    if (!start || !fill || !children || !todo || !order) {
        free(order);
        order = NULL;
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        start[set->nodes[i].parent + 2]++;
    for (size_t i = 0; i < n + 1; i++)
        start[i + 1] += start[i];
    for (size_t i = 0; i < n; i++) {
        int slot = set->nodes[i].parent + 1;
        children[start[slot] + fill[slot]++] = (int)i;
    }
    sort_set = set;
    for (size_t i = 0; i < n + 1; i++)
        qsort(children + start[i], (size_t)(start[i + 1] - start[i]), sizeof *children,
              by_function);
    /* Pre-order; children pushed in reverse so the first is numbered first. */
    size_t top = 0, next = 0;
    for (int k = start[1] - 1; k >= start[0]; k--)
        todo[top++] = children[k];
    while (top > 0) {
        int m = todo[--top];
        order[next++] = m;
        for (int k = start[m + 2] - 1; k >= start[m + 1]; k--)
            todo[top++] = children[k];
    }
out:
    free(start);
    free(fill);
    free(children);
    free(todo);
    return order;
}
