/* Bump allocator for symbol strings: freed all at once at close. */
#include "symbols/internal.h"

#include <stdlib.h>
#include <string.h>

#define HT_STRPOOL_CHUNK 65536

struct ht_strpool_chunk {
    struct ht_strpool_chunk *next;
    size_t used, size;
    char data[];
};

char *ht_strpool_alloc(struct ht_strpool *pool, size_t size)
{
    struct ht_strpool_chunk *c = pool->head;
    if (!c || c->size - c->used < size) {
        /* A string longer than a chunk gets a chunk of its own, placed
         * second so the current chunk's free space is not wasted. */
        size_t cap = size > HT_STRPOOL_CHUNK / 4 ? size : HT_STRPOOL_CHUNK;
        struct ht_strpool_chunk *n = malloc(sizeof *n + cap);
        if (!n)
            return NULL;
        n->used = 0;
        n->size = cap;
        if (c && cap == size) {
            n->next = c->next;
            c->next = n;
        } else {
            n->next = c;
            pool->head = n;
        }
        c = n;
    }
    char *p = c->data + c->used;
    c->used += size;
    return p;
}

char *ht_strpool_dupn(struct ht_strpool *pool, const char *s, size_t n)
{
    char *p = ht_strpool_alloc(pool, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

char *ht_strpool_dup(struct ht_strpool *pool, const char *s)
{
    return ht_strpool_dupn(pool, s, strlen(s));
}

void ht_strpool_free(struct ht_strpool *pool)
{
    struct ht_strpool_chunk *c = pool->head;
    while (c) {
        struct ht_strpool_chunk *next = c->next;
        free(c);
        c = next;
    }
    pool->head = NULL;
}
