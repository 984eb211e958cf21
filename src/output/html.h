/* The self-contained HTML report (html.c; docs/report.md). */
#ifndef HT_OUTPUT_HTML_H
#define HT_OUTPUT_HTML_H

#include <stdbool.h>
#include <stdio.h>

/* Writes the report page to html with the profile JSON read from json
 * (from its current offset to its end) embedded in it, a block at a time:
 * the profile is never held whole in memory, whatever its size.  Every '<'
 * of the JSON is written as \u003c (it only occurs inside strings, where
 * the escape means the same), so no function name can end the page's
 * <script> element.  room_left (NULL: no limit) is asked before each block
 * whether the file may grow.  Returns 0; -1 on a read or write error or when
 * room_left said no, with errno set (ENOSPC for the latter). */
int ht_output_html_write(FILE *html, FILE *json, bool (*room_left)(void *ctx), void *ctx);

#endif
