/* Writing hooktrace-report's outputs (page.c): any file through a
 * temporary beside it, renamed into place when complete; the compare and
 * scaling page (web/compare.html) around its JSON. */
#ifndef HT_REPORT_PAGE_H
#define HT_REPORT_PAGE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* Calls write(f, ctx) on a temporary file beside out and renames it to out
 * if write returned 0; out "-" is standard output.  0, or -1 with the
 * reason on stderr (prefixed with program). */
int ht_report_write_file(const char *program, const char *out, int (*write)(FILE *f, void *ctx),
                         void *ctx);

/* write() callbacks: ctx is a json_t *. */
int ht_report_write_json(FILE *f, void *data);
int ht_report_write_compare_page(FILE *f, void *data);

/* Pieces of a page written a part at a time (compare.c); 0 or -1.  With
 * escape, every '<' of text becomes \u003c: it only occurs inside JSON
 * strings, where the escape means the same, so no function name can end
 * the page's <script> element. */
int ht_report_put(FILE *f, const char *text, bool escape);
int ht_report_put_json(FILE *f, const json_t *doc, bool escape);
int ht_report_compare_page_head(FILE *f);
int ht_report_compare_page_tail(FILE *f);

#endif
