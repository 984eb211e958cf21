/* The outputs of an analysis (each documented field by field in
 * docs/analyze_output.md): the text report, the JSON report, the SVG heatmap,
 * written at the end, and the CSV message list, streamed while the trace
 * is read so that it never has to be held in memory. */
#ifndef HT_ANALYZE_REPORT_H
#define HT_ANALYZE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/analysis.h"
#include "analyze/options.h"

/* Each returns 0, or -1 with "<file>: <problem>" in err. */
int report_text(const struct analysis *a, const char *path, char *err, size_t errsize);
int report_json(const struct analysis *a, const char *path, char *err, size_t errsize);
int report_svg(const struct analysis *a, const char *path, enum svg_value value, char *err,
               size_t errsize);
/* One self-contained page: the wait states and the matrix. */
int report_html(const struct analysis *a, const char *path, char *err, size_t errsize);
/* s with <, >, & and " as entities, for HTML and SVG; ascii_only: control
 * and non-ASCII bytes become '?'. */
void report_markup_text(FILE *f, const char *s, int ascii_only);

/* CSV: one line per matched message and per unmatched end. */
struct csv_writer *csv_open(const char *path, char *err, size_t errsize);
void csv_message(struct csv_writer *csv, const struct trace_clock *clock,
                 const struct endpoint *send, const struct endpoint *receive);
/* keep: complete the file; otherwise remove it (the analysis failed).
 * Returns 0, or -1 with a message in err. */
int csv_close(struct csv_writer *csv, int keep, char *err, size_t errsize);

/* Shared by the reports: the world size used for the matrix (the
 * COMM_LOCATIONS size, or one past the highest rank seen). */
unsigned report_matrix_size(const struct analysis *a, const struct matrix_cell *const *cells,
                            size_t n);

#endif
