/* Memory per call-stack node: sizeof(struct ht_node), and what a thread's
 * tree of K nodes really holds (arena chunks + hash index, as reported by
 * ht_tree_memory_bytes) for several K.  Links the callstack module only. */
#include <stddef.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>

#include "callstack/tree.h"

#define NOINSTR __attribute__((no_instrument_function))
#define FANOUT 8

/* Builds a tree of `count` nodes, each node with up to FANOUT children
 * (breadth first, as a program's call tree fills), and prints one table row. */
NOINSTR static int measure(size_t count)
{
    struct ht_tree tree;
    ht_tree_init(&tree, 1u << 30);
    struct ht_node **nodes = malloc(count * sizeof *nodes);
    if (!nodes)
        return 1;
    for (size_t i = 0; i < count; i++) {
        struct ht_node *parent = i < FANOUT ? &tree.root : nodes[i / FANOUT - 1];
        uintptr_t function = 0x400000u + 64u * (i % FANOUT);
        bool throttled = false;
        nodes[i] = ht_tree_find_or_add_child(&tree, parent, function, 0, &throttled);
        if (!nodes[i]) {
            fprintf(stderr, "node_memory: out of memory at %zu nodes\n", i);
            return 1;
        }
    }
    size_t total = ht_tree_memory_bytes(&tree);
    size_t slots = tree.slot_mask + 1;
    size_t index_bytes = slots * sizeof *tree.slots;
    printf("| %zu | %zu | %zu | %.3f | %.1f | %.1f |\n", count, total - index_bytes,
           index_bytes, (double)tree.node_count / (double)slots,
           (double)index_bytes / (double)count, (double)total / (double)count);
    ht_tree_release(&tree);
    free(nodes);
    return 0;
}

NOINSTR int main(void)
{
    printf("sizeof(struct ht_node) = %zu bytes (alignment %zu)\n", sizeof(struct ht_node),
           _Alignof(struct ht_node));
    printf("sizeof(struct ht_tree) = %zu bytes (per thread, inside struct ht_thread)\n\n",
           sizeof(struct ht_tree));
    printf("| nodes | arena bytes | index bytes | index load | index bytes/node | "
           "total bytes/node |\n");
    printf("|---:|---:|---:|---:|---:|---:|\n");
    static const size_t counts[] = {1, 100, 512, 513, 1000, 10000, 65536, 65537, 100000, 1000000};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (measure(counts[i]) != 0)
            return 1;
    return 0;
}
