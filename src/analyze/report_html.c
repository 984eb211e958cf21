/* The HTML page: one self-contained file (no scripts, no external
 * resources) with the wait states per pattern, rank and call path, each
 * with a bar for its share of the biggest, and the communication matrix
 * as a table. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/output_file.h"
#include "analyze/report.h"

/* The page is UTF-8: names pass as they are. */
static void html_text(FILE *f, const char *s)
{
    report_markup_text(f, s, 0);
}

static const char style[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222}"
    "table{border-collapse:collapse;margin-bottom:2em}"
    "th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}"
    "th{background:#eee}td.l{text-align:left}"
    /* a long path or name wraps anywhere: no sideways scrolling at 1,280 px */
    "p,td.l{overflow-wrap:anywhere}"
    ".bar{display:inline-block;height:0.8em;background:#c0392b}";

static void waits_table(FILE *f, const struct analysis *a)
{
    size_t n;
    const struct wait_entry **list = waits_sorted(&a->waits, &n);
    fprintf(f, "<h2>Wait states</h2>\n");
    if (n == 0) {
        fprintf(f, "<p>None found.</p>\n");
        free(list);
        return;
    }
    double biggest = (double)list[0]->ticks;
    fprintf(f, "<table>\n<tr><th>pattern</th><th>rank</th><th>count</th><th>time (s)</th>"
               "<th></th><th>call path</th></tr>\n");
    for (size_t i = 0; i < n; i++) {
        const struct wait_entry *e = list[i];
        double share = biggest > 0 ? (double)e->ticks / biggest : 0;
        fprintf(f,
                "<tr><td class=\"l\">%s</td><td>%" PRIu32 "</td><td>%" PRIu64
                "</td><td>%.9f</td><td class=\"l\"><span class=\"bar\" style=\"width:%.0fpx\">"
                "</span></td><td class=\"l\">",
                wait_pattern_name(e->pattern), e->rank, e->count,
                (double)e->ticks / (double)a->clock.resolution, 1 + 120 * share);
        html_text(f, e->path);
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table>\n");
    free(list);
}

static void matrix_table(FILE *f, const struct analysis *a)
{
    size_t n;
    const struct matrix_cell **cells = matrix_sorted(&a->matrix, &n);
    fprintf(f, "<h2>Communication matrix</h2>\n");
    if (n == 0) {
        fprintf(f, "<p>No messages.</p>\n");
    } else {
        fprintf(f, "<table>\n<tr><th>sender</th><th>receiver</th><th>messages</th>"
                   "<th>bytes</th><th>mean bandwidth (bytes/s)</th></tr>\n");
        for (size_t i = 0; i < n; i++) {
            const struct matrix_cell *c = cells[i];
            double bw = matrix_cell_bandwidth(c, a->clock.resolution);
            fprintf(f, "<tr><td>%" PRIu32 "</td><td>%" PRIu32 "</td><td>%" PRIu64
                       "</td><td>%" PRIu64 "</td>",
                    c->sender, c->receiver, c->messages, c->bytes);
            if (bw < 0)
                fprintf(f, "<td>-</td></tr>\n");
            else
                fprintf(f, "<td>%.6g</td></tr>\n", bw);
        }
        fprintf(f, "</table>\n");
    }
    free(cells);
}

int report_html(const struct analysis *a, const char *path, char *err, size_t errsize)
{
    struct output_file out;
    if (output_file_open(&out, path, err, errsize) != 0)
        return -1;
    FILE *f = out.f;
    fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>hooktrace-analyze: ");
    html_text(f, a->archive_path);
    fprintf(f, "</title>\n<style>%s</style></head><body>\n<h1>hooktrace-analyze</h1>\n<p>",
            style);
    html_text(f, a->archive_path);
    fprintf(f, ": %" PRIu64 " events, %" PRIu64 " messages matched, %" PRIu32 " ranks</p>\n",
            a->summary.events, a->summary.messages, a->ranks.world_size);
    waits_table(f, a);
    matrix_table(f, a);
    fprintf(f, "</body></html>\n");
    return output_file_commit(&out, err, errsize);
}
