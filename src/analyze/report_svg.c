/* The communication matrix as an SVG heatmap, for a browser: senders down
 * the left, receivers along the top, one square per pair, coloured on a
 * logarithmic scale; hovering a square shows its numbers (<title>).  Empty
 * pairs stay the light background.  Above SVG_MAX_CELLS ranks per side,
 * each square stands for a block of ranks, so the file stays small enough
 * to open however large the run. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/fail.h"
#include "analyze/output_file.h"
#include "analyze/report.h"

#define SVG_MAX_CELLS 512 /* squares per side */
#define SVG_GRID_PX 720   /* target side of the grid */
#define SVG_MARGIN_LEFT 96
#define SVG_MARGIN_TOP 112
#define SVG_LEGEND_PX 240

/* A sequential palette, light (few) to dark (many). */
static const unsigned char palette[][3] = {
    {255, 255, 204}, {254, 217, 118}, {253, 141, 60}, {227, 26, 28}, {128, 0, 38},
};
#define PALETTE_STOPS (sizeof palette / sizeof palette[0])

static void colour(double t, char out[8])
{
    if (!(t >= 0))
        t = 0;
    if (t > 1)
        t = 1;
    double x = t * (PALETTE_STOPS - 1);
    size_t i = (size_t)x;
    if (i >= PALETTE_STOPS - 1)
        i = PALETTE_STOPS - 2;
    double f = x - (double)i;
    int rgb[3];
    for (int c = 0; c < 3; c++)
        rgb[c] = (int)lround(palette[i][c] + f * (palette[i + 1][c] - palette[i][c]));
    snprintf(out, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

void report_markup_text(FILE *f, const char *s, int ascii_only)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            fputc(ascii_only && ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x80) ? '?' : *s,
                  f);
        }
    }
}

/* Control and non-ASCII bytes may not be valid XML/UTF-8. */
static void xml_text(FILE *f, const char *s)
{
    report_markup_text(f, s, 1);
}

/* One square: the sum over a block of ranks (a single pair when the
 * block size is 1). */
struct svg_square {
    uint32_t row, column;
    uint64_t messages, bytes, timed_bytes, timed_ticks;
};

static int compare_squares(const void *x, const void *y)
{
    const struct svg_square *a = x, *b = y;
    if (a->row != b->row)
        return a->row < b->row ? -1 : 1;
    return a->column < b->column ? -1 : a->column > b->column;
}

/* Squares from the sorted cells, merging cells of the same block. */
static struct svg_square *squares_of(const struct matrix_cell **cells, size_t n, unsigned block,
                                     size_t *count)
{
    struct svg_square *sq = xmalloc((n ? n : 1) * sizeof *sq);
    for (size_t i = 0; i < n; i++) {
        sq[i].row = cells[i]->sender / block;
        sq[i].column = cells[i]->receiver / block;
        sq[i].messages = cells[i]->messages;
        sq[i].bytes = cells[i]->bytes;
        sq[i].timed_bytes = cells[i]->timed_bytes;
        sq[i].timed_ticks = cells[i]->timed_ticks;
    }
    qsort(sq, n, sizeof *sq, compare_squares);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && sq[k - 1].row == sq[i].row && sq[k - 1].column == sq[i].column) {
            sq[k - 1].messages += sq[i].messages;
            sq[k - 1].bytes += sq[i].bytes;
            sq[k - 1].timed_bytes += sq[i].timed_bytes;
            sq[k - 1].timed_ticks += sq[i].timed_ticks;
        } else {
            sq[k++] = sq[i];
        }
    }
    *count = k;
    return sq;
}

/* "rank 3" or "ranks 8-15" */
static void ranks_label(char *buf, size_t size, uint32_t index, unsigned block, unsigned nranks)
{
    uint32_t first = index * block;
    uint32_t last = first + block - 1;
    if (last >= nranks)
        last = nranks - 1;
    if (first == last)
        snprintf(buf, size, "rank %" PRIu32, first);
    else
        snprintf(buf, size, "ranks %" PRIu32 "-%" PRIu32, first, last);
}

static void axis_labels(FILE *f, unsigned grid, unsigned block, double px)
{
    /* Label every step-th rank so that labels are at least 14 px apart. */
    unsigned step = 1;
    while (step * px < 14)
        step *= 2;
    for (unsigned i = 0; i < grid; i += step) {
        double centre = (double)i * px + px / 2.0;
        fprintf(f, "<text x=\"%.1f\" y=\"%u\" text-anchor=\"start\" transform=\"rotate(-60 %.1f %u)\">%u</text>\n",
                SVG_MARGIN_LEFT + centre, SVG_MARGIN_TOP - 6, SVG_MARGIN_LEFT + centre,
                SVG_MARGIN_TOP - 6, i * block);
        fprintf(f, "<text x=\"%u\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\">%u</text>\n",
                SVG_MARGIN_LEFT - 6, SVG_MARGIN_TOP + centre, i * block);
    }
}

static void legend(FILE *f, double low, double high, const char *unit, unsigned x, unsigned y)
{
    fprintf(f, "<defs><linearGradient id=\"scale\">");
    for (size_t i = 0; i < PALETTE_STOPS; i++) {
        char c[8];
        colour((double)i / (PALETTE_STOPS - 1), c);
        fprintf(f, "<stop offset=\"%.2f\" stop-color=\"%s\"/>", (double)i / (PALETTE_STOPS - 1), c);
    }
    fprintf(f, "</linearGradient></defs>\n");
    fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"14\" fill=\"url(#scale)\" stroke=\"#888\"/>\n",
            x, y, SVG_LEGEND_PX);
    fprintf(f, "<text x=\"%u\" y=\"%u\">%.6g</text>\n", x, y + 30, low);
    fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"end\">%.6g</text>\n", x + SVG_LEGEND_PX,
            y + 30, high);
    fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">%s per pair (log scale)</text>\n",
            x + SVG_LEGEND_PX / 2, y + 30, unit);
}

static void write_svg(FILE *f, const struct analysis *a, const struct svg_square *sq, size_t n,
                      unsigned nranks, unsigned block, enum svg_value value)
{
    unsigned grid = nranks ? (nranks + block - 1) / block : 1;
    /* Squares of up to 40 px; a large grid fills SVG_GRID_PX with
     * fractional squares. */
    double px = (double)SVG_GRID_PX / grid;
    if (px > 40)
        px = 40;
    unsigned side = (unsigned)ceil(grid * px);
    unsigned width = SVG_MARGIN_LEFT + (side > SVG_LEGEND_PX + 40 ? side : SVG_LEGEND_PX + 40) + 24;
    /* Wide enough for the subtitle too (about 6.5 px per character at
     * 11 px, path plus about 90 characters of figures). */
    unsigned subtitle = (unsigned)(16 + 6.5 * (double)(strlen(a->archive_path) + 90));
    if (width < subtitle)
        width = subtitle;
    unsigned height = SVG_MARGIN_TOP + side + 80;
    const char *unit = value == SVG_VALUE_BYTES ? "bytes" : "messages";

    double low = 0, high = 0;
    for (size_t i = 0; i < n; i++) {
        double v = (double)(value == SVG_VALUE_BYTES ? sq[i].bytes : sq[i].messages);
        if (v > 0 && (low == 0 || v < low))
            low = v;
        if (v > high)
            high = v;
    }

    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
               "viewBox=\"0 0 %u %u\" font-family=\"sans-serif\" font-size=\"11\">\n",
            width, height, width, height);
    fprintf(f, "<title>Communication matrix of ");
    xml_text(f, a->archive_path);
    fprintf(f, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"8\" y=\"18\" font-size=\"14\" font-weight=\"bold\">%s sent, by world rank</text>\n",
            value == SVG_VALUE_BYTES ? "Bytes" : "Messages");
    fprintf(f, "<text x=\"8\" y=\"34\">");
    xml_text(f, a->archive_path);
    fprintf(f, ": %" PRIu64 " messages, %" PRIu64 " bytes, %u ranks%s</text>\n",
            a->summary.messages, a->summary.bytes, nranks,
            block > 1 ? " (each square a block of ranks)" : "");
    fprintf(f, "<text x=\"%u\" y=\"52\" text-anchor=\"start\">receiver &#8594;</text>\n",
            SVG_MARGIN_LEFT);
    fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"end\">sender &#8595;</text>\n",
            SVG_MARGIN_LEFT - 8, SVG_MARGIN_TOP - 22);
    axis_labels(f, grid, block, px);
    fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"#f2f2f2\" stroke=\"#888\"/>\n",
            SVG_MARGIN_LEFT, SVG_MARGIN_TOP, side, side);

    double span = high > low ? log(high) - log(low) : 0;
    for (size_t i = 0; i < n; i++) {
        const struct svg_square *s = &sq[i];
        double v = (double)(value == SVG_VALUE_BYTES ? s->bytes : s->messages);
        char c[8], from[48], to[48];
        colour(span > 0 && v > 0 ? (log(v) - log(low)) / span : 1.0, c);
        ranks_label(from, sizeof from, s->row, block, nranks);
        ranks_label(to, sizeof to, s->column, block, nranks);
        fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">"
                   "<title>%s &#8594; %s: %" PRIu64 " messages, %" PRIu64 " bytes",
                SVG_MARGIN_LEFT + s->column * px, SVG_MARGIN_TOP + s->row * px, px, px, c, from,
                to, s->messages, s->bytes);
        if (s->timed_ticks)
            fprintf(f, ", mean bandwidth %.6g bytes/s",
                    (double)s->timed_bytes * (double)a->clock.resolution / (double)s->timed_ticks);
        fprintf(f, "</title></rect>\n");
    }
    if (n)
        legend(f, low, high, unit, SVG_MARGIN_LEFT, SVG_MARGIN_TOP + side + 24);
    else
        fprintf(f, "<text x=\"%u\" y=\"%u\">no messages</text>\n", SVG_MARGIN_LEFT,
                SVG_MARGIN_TOP + side + 36);
    fprintf(f, "</svg>\n");
}

int report_svg(const struct analysis *a, const char *path, enum svg_value value, char *err,
               size_t errsize)
{
    size_t ncells, nsquares;
    const struct matrix_cell **cells = matrix_sorted(&a->matrix, &ncells);
    unsigned nranks = report_matrix_size(a, cells, ncells);
    unsigned block = nranks > SVG_MAX_CELLS ? (nranks + SVG_MAX_CELLS - 1) / SVG_MAX_CELLS : 1;
    struct svg_square *squares = squares_of(cells, ncells, block, &nsquares);
    free(cells);

    struct output_file out;
    int status = output_file_open(&out, path, err, errsize);
    if (status == 0) {
        write_svg(out.f, a, squares, nsquares, nranks, block, value);
        status = output_file_commit(&out, err, errsize);
    }
    free(squares);
    return status;
}
