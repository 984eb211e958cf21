/* json_dumpf hands every token to fwrite, most of them a few bytes long,
 * and each fwrite takes the stream's lock: writing a profile's JSON and the
 * MPI_T control variables cost about 45 million instructions at shut-down
 * (callgrind, the finite-element proxy), a fifth of them in fwrite.  The
 * tokens go into a buffer here instead, and the stream gets whole blocks. */
#include "config.h"

#include "output/json_dump.h"

#include <string.h>

struct sink {
    FILE *f;
    size_t used;
    char buf[16384];
};

static int flush(struct sink *s)
{
    size_t n = s->used;
    s->used = 0;
    return n == 0 || fwrite_unlocked(s->buf, 1, n, s->f) == n ? 0 : -1;
}

static int put(const char *data, size_t size, void *arg)
{
    struct sink *s = arg;
    if (size > sizeof s->buf - s->used) {
        if (flush(s) != 0)
            return -1;
        if (size > sizeof s->buf)
            return fwrite_unlocked(data, 1, size, s->f) == size ? 0 : -1;
    }
    memcpy(s->buf + s->used, data, size);
    s->used += size;
    return 0;
}

int ht_json_dumpf(const json_t *value, FILE *f, size_t flags)
{
    struct sink s; /* not zeroed: only buf[0..used) is read */
    s.f = f;
    s.used = 0;
    flockfile(f);
    int rc = json_dump_callback(value, put, &s, flags);
    if (flush(&s) != 0)
        rc = -1;
    funlockfile(f);
    return rc;
}
