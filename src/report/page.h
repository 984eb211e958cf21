/* Writing hooktrace-report's outputs (page.c): any file through a
 * temporary beside it, renamed into place when complete; the compare and
 * scaling page (web/compare.html) around its JSON. */
#ifndef HT_REPORT_PAGE_H
#define HT_REPORT_PAGE_H

#include <jansson.h>
#include <stdio.h>

/* Calls write(f, ctx) on a temporary file beside out and renames it to out
 * if write returned 0; out "-" is standard output.  0, or -1 with the
 * reason on stderr (prefixed with program). */
int ht_report_write_file(const char *program, const char *out, int (*write)(FILE *f, void *ctx),
                         void *ctx);

/* write() callbacks: ctx is a json_t *. */
int ht_report_write_json(FILE *f, void *data);
int ht_report_write_compare_page(FILE *f, void *data);

#endif
