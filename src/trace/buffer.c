/* Event buffers: append in memory, spill to disk when full, replay at the end. */
#include "trace/buffer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/clock.h"

static char spill_folder[4096] = ".";

void ht_trace_buffer_set_folder(const char *folder)
{
    snprintf(spill_folder, sizeof spill_folder, "%s", folder);
}

struct ht_trace_buffer *ht_trace_buffer_new(size_t bytes)
{
    /* The header lives in the same mapping, before the words. */
    size_t total = bytes + 4096;
    char *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    struct ht_trace_buffer *b = (struct ht_trace_buffer *)p;
    b->base = (uint64_t *)(p + 4096);
    b->pos = b->base;
    b->bytes = bytes;
    /* Room is always kept for the flush record a flush adds. */
    b->end = b->base + bytes / sizeof(uint64_t) - 3;
    b->fd = -1;
    b->next_request = 1;
    return b;
}

/* An unnamed file: created and unlinked at once, so that nothing is left
 * behind whatever happens to the process.  Called from a hook: no stdio,
 * no malloc. */
static int open_spill_file(void)
{
    char path[4200];
    size_t n = strlen(spill_folder);
    if (n + 32 > sizeof path)
        return -1;
    memcpy(path, spill_folder, n);
    memcpy(path + n, "/.hooktrace-spill-XXXXXX", sizeof "/.hooktrace-spill-XXXXXX");
    int fd = mkstemp(path);
    if (fd >= 0)
        unlink(path);
    return fd;
}

static bool write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        len -= (size_t)w;
    }
    return true;
}

void ht_trace_buffer_flush(struct ht_trace_buffer *b, uint64_t now)
{
    int saved_errno = errno;
    size_t len = (size_t)((char *)b->pos - (char *)b->base);
    if (b->fd < 0)
        b->fd = open_spill_file();
    if (b->fd >= 0 && write_all(b->fd, b->base, len)) {
        b->spilled_bytes += len;
        b->flushes++;
    } else {
        b->dropped += b->records;
    }
    b->pos = b->base;
    b->records = 0;
    /* The time the flush took shows in the trace (OTF2 BufferFlush). */
    b->pos[0] = now;
    b->pos[1] = HT_REC_FLUSH | (uint64_t)1 << 8;
    b->pos[2] = ht_clock_now();
    b->pos += 3;
    b->records++;
    errno = saved_errno;
}

static size_t record_words(uint64_t header)
{
    unsigned kind = header & HT_REC_KIND_MASK;
    if (kind == HT_REC_ENTER || kind == HT_REC_LEAVE)
        return 2;
    return 2 + ((header >> 8) & 0xff);
}

/* Calls fn on the whole records in words[0..n); returns how many words
 * were consumed (a record cut at the end is left for the next chunk), or
 * (size_t)-1 if fn asked to stop. */
static size_t replay_words(const uint64_t *words, size_t n, ht_trace_record_fn fn, void *ctx)
{
    size_t i = 0;
    while (i + 2 <= n) {
        size_t len = record_words(words[i + 1]);
        if (i + len > n)
            break;
        if (!fn(ctx, words[i], words[i + 1], words + i + 2))
            return (size_t)-1;
        i += len;
    }
    return i;
}

static int replay_spill(struct ht_trace_buffer *b, ht_trace_record_fn fn, void *ctx, char *err,
                        size_t errlen)
{
    enum { CHUNK_WORDS = 1 << 19 }; /* 4 MiB */
    uint64_t *chunk = malloc(CHUNK_WORDS * sizeof *chunk);
    if (!chunk) {
        snprintf(err, errlen, "out of memory reading the spilled events back");
        return -1;
    }
    size_t have = 0;
    off_t offset = 0;
    int rc = 0;
    for (;;) {
        ssize_t r = pread(b->fd, (char *)(chunk + have), (CHUNK_WORDS - have) * sizeof *chunk, offset);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            snprintf(err, errlen, "reading the spilled events back: %s", strerror(errno));
            rc = -1;
            break;
        }
        if (r == 0)
            break;
        offset += r;
        have += (size_t)r / sizeof *chunk;
        size_t used = replay_words(chunk, have, fn, ctx);
        if (used == (size_t)-1) {
            rc = 1; /* fn asked to stop: the records in memory are not wanted either */
            break;
        }
        memmove(chunk, chunk + used, (have - used) * sizeof *chunk);
        have -= used;
    }
    free(chunk);
    return rc;
}

int ht_trace_buffer_replay(struct ht_trace_buffer *b, ht_trace_record_fn fn, void *ctx, char *err,
                           size_t errlen)
{
    if (b->fd >= 0 && b->spilled_bytes > 0) {
        int rc = replay_spill(b, fn, ctx, err, errlen);
        if (rc != 0)
            return rc < 0 ? -1 : 0;
    }
    replay_words(b->base, (size_t)(b->pos - b->base), fn, ctx);
    return 0;
}
