/* The HTML report: the page generated from src/report/web around the
 * profile JSON, streamed (html.h).  Used at the end of a run (files.c) and
 * by hooktrace-report (src/report/main.c), so it needs nothing but stdio. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "output/html.h"
#include "output/html_page.h"

enum { BLOCK = 64 * 1024 };

/* Copies one block of JSON, '<' escaped; 0, or -1 on a write error. */
static int write_escaped(FILE *html, const char *in, size_t n)
{
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        if (in[i] != '<')
            continue;
        if (fwrite(in + start, 1, i - start, html) != i - start || fputs("\\u003c", html) == EOF)
            return -1;
        start = i + 1;
    }
    return fwrite(in + start, 1, n - start, html) == n - start ? 0 : -1;
}

int ht_output_html_write(FILE *html, FILE *json, bool (*room_left)(void *ctx), void *ctx)
{
    /* On the heap: the profile may be written from any thread (the
     * partial profile's watcher, runtime/signals.c), whose stack we do not
     * size. */
    char *block = malloc(BLOCK);
    if (!block)
        return -1; /* errno: ENOMEM */
    int rc = -1;
    if (fwrite(ht_report_page_head, 1, ht_report_page_head_len, html) != ht_report_page_head_len)
        goto out;
    size_t n;
    while ((n = fread(block, 1, BLOCK, json)) > 0) {
        if (room_left && !room_left(ctx)) {
            errno = ENOSPC;
            goto out;
        }
        if (write_escaped(html, block, n) != 0)
            goto out;
    }
    if (ferror(json)) {
        if (!errno)
            errno = EIO;
        goto out;
    }
    if (fwrite(ht_report_page_tail, 1, ht_report_page_tail_len, html) == ht_report_page_tail_len)
        rc = 0;
out:
    free(block);
    return rc;
}
