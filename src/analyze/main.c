/* hooktrace-analyze: matched MPI messages and a communication matrix from
 * any OTF2 archive (docs/analyze.md).
 *
 *   archive.c     OTF2 reader: definitions, then all events merged by time
 *   archive_par.c the same events read by several threads, merged again
 *   rankmap.c     communicator rank -> world rank -> location (seed 003)
 *   translate.c   non-blocking records -> sends and receives in issue order
 *   match.c       FIFO per (sender, receiver, communicator, tag) (seed 004)
 *   analysis.c    the sink: summary, matrix, warnings, CSV
 *   waitstate.c   wait states (with locstate.c, collective.c, calltree.c)
 *   report_*.c    text, JSON, CSV, SVG and HTML outputs
 *
 *   archive_mpi.c the same shares read by MPI ranks (hooktrace-analyze-mpi)
 *   launcher.c    under mpirun, hooktrace-analyze becomes hooktrace-analyze-mpi
 *
 * Links neither libhooktrace nor MPI (hooktrace-analyze-mpi, the same
 * program built with HT_ANALYZE_MPI, links MPI). */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analyze/analysis.h"
#include "analyze/archive.h"
#include "analyze/archive_par.h"
#ifdef HT_ANALYZE_MPI
#include "analyze/archive_mpi.h"
#else
#include "analyze/launcher.h"
#endif
#include "analyze/fail.h"
#include "analyze/options.h"
#include "analyze/report.h"

/* The threads when not told: the CPUs this process may run on. */
static unsigned default_threads(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

/* Writes the reports asked for; every failure is reported, the first one
 * decides the status. */
static int write_reports(const struct analysis *a, const struct options *opt)
{
    char err[1024];
    int status = EXIT_ANALYZE_OK;
    if (opt->json_path && report_json(a, opt->json_path, err, sizeof err) != 0) {
        fail_message("%s", err);
        status = EXIT_ANALYZE_ERROR;
    }
    if (opt->svg_path && report_svg(a, opt->svg_path, opt->svg_value, err, sizeof err) != 0) {
        fail_message("%s", err);
        status = EXIT_ANALYZE_ERROR;
    }
    if (opt->html_path && report_html(a, opt->html_path, err, sizeof err) != 0) {
        fail_message("%s", err);
        status = EXIT_ANALYZE_ERROR;
    }
    if (opt->text_path && report_text(a, opt->text_path, err, sizeof err) != 0) {
        fail_message("%s", err);
        status = EXIT_ANALYZE_ERROR;
    }
    return status;
}

/* Under mpirun, only rank 0 writes (archive_mpi.h). */
static void no_outputs(struct options *opt)
{
    opt->text_path = opt->json_path = opt->csv_path = opt->svg_path = opt->html_path = NULL;
    opt->progress = 0;
}

static int analyze(int argc, char **argv, int rank)
{
    struct options opt;
    int status;
    if (options_parse(argc, argv, &opt, &status))
        return status;
    if (rank != 0)
        no_outputs(&opt);

    char err[1024];
    char *anchor = archive_find_anchor(opt.archive, err, sizeof err);
    if (!anchor)
        fail_message("%s", err);
    /* Opened first: an unwritable CSV path fails before a long read. */
    struct csv_writer *csv = NULL;
    if (anchor && opt.csv_path) {
        csv = csv_open(opt.csv_path, err, sizeof err);
        if (!csv)
            fail_message("%s", err);
    }
    int setup = anchor && (csv || !opt.csv_path) ? EXIT_ANALYZE_OK : EXIT_ANALYZE_ERROR;
#ifdef HT_ANALYZE_MPI
    /* Rank 0 alone opens the outputs: every rank learns whether all could
     * start before any of them waits for another in the read. */
    if (archive_mpi_agree(setup) != EXIT_ANALYZE_OK && setup == EXIT_ANALYZE_OK) {
        if (csv)
            csv_close(csv, 0, err, sizeof err);
        setup = EXIT_ANALYZE_ERROR;
        csv = NULL;
    }
#endif
    if (setup != EXIT_ANALYZE_OK) {
        free(anchor);
        return EXIT_ANALYZE_ERROR;
    }
    struct analysis a;
    analysis_init(&a, opt.examples, csv);
    int progress = opt.progress >= 0 ? opt.progress : isatty(STDERR_FILENO);
    unsigned threads = opt.threads ? opt.threads : default_threads();
    if (archive_read(&a, anchor, progress, threads, err, sizeof err) != 0) {
        fail_message("%s", err);
        if (csv)
            csv_close(csv, 0, err, sizeof err);
        analysis_free(&a);
        free(anchor);
        return EXIT_ANALYZE_ERROR;
    }
    analysis_finish(&a);

    status = EXIT_ANALYZE_OK;
    if (csv && csv_close(csv, 1, err, sizeof err) != 0) {
        fail_message("%s", err);
        status = EXIT_ANALYZE_ERROR;
    }
    a.csv = NULL;
    int reports = write_reports(&a, &opt);
    if (status == EXIT_ANALYZE_OK)
        status = reports;
    analysis_free(&a);
    free(anchor);
    return status;
}

int main(int argc, char **argv)
{
#ifdef HT_ANALYZE_MPI
    int rank = archive_mpi_init(&argc, &argv);
    return archive_mpi_finish(analyze(argc, argv, rank));
#else
    launcher_exec(argv);
    return analyze(argc, argv, 0);
#endif
}
