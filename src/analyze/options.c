/* Command-line parsing and --help. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#include "analyze/fail.h"
#include "analyze/options.h"

#define DEFAULT_EXAMPLES 5
#define MAX_EXAMPLES 1000000
#define MAX_THREADS 1024

static const char usage[] =
    "Usage: " ANALYZE_PROGRAM " [OPTION]... ARCHIVE\n"
    "\n"
    "Reads an OTF2 trace, whoever wrote it, and reports its MPI point-to-point\n"
    "messages: each send matched to its receive, the communication matrix by\n"
    "MPI_COMM_WORLD rank, and warnings for records that do not fit.  ARCHIVE is\n"
    "the anchor file (e.g. traces.otf2) or the directory holding it.\n"
    "\n"
    "Outputs (FILE '-' is standard output; only one output may go there):\n"
    "  -t, --text=FILE      the text report (default: standard output, unless\n"
    "                       another output goes there)\n"
    "  -q, --quiet          no text report\n"
    "  -j, --json=FILE      the report as JSON; its \"comm_matrix\" has the shape\n"
    "                       of the hooktrace profile's\n"
    "  -c, --csv=FILE       every message, one line each, as CSV\n"
    "  -s, --svg=FILE       the communication matrix as an SVG heatmap\n"
    "      --svg-value=WHAT what the heatmap colours: bytes (default) or messages\n"
    "      --html=FILE      one HTML page: the wait states and the matrix\n"
    "\n"
    "Other options:\n"
    "  -e, --examples=N     examples shown per kind of warning (default 5;\n"
    "                       0: counts only)\n"
    "  -p, --progress       report progress on stderr (default: only when stderr\n"
    "                       is a terminal)\n"
    "      --no-progress    never report progress\n"
    "      --threads=N      read the events with N threads (default: the CPUs\n"
    "                       available, at most one per location; 1: serial).\n"
    "                       The output does not depend on N.\n"
    "  -h, --help           print this help and exit\n"
    "  -V, --version        print the version and exit\n"
    "\n"
    "Units: bytes; seconds since the trace's clock offset; bytes/s.\n"
    "Exit status: 0 analysed (warnings do not change it), 1 the archive could\n"
    "not be read or an output could not be written, 2 bad command line.\n"
    "Every option and output field is described in hooktrace-analyze(1) and\n"
    HT_DOCDIR "/docs/analyze.md.\n";

enum { OPT_SVG_VALUE = 256, OPT_NO_PROGRESS, OPT_HTML, OPT_THREADS };

static const struct option long_options[] = {
    {"text", required_argument, NULL, 't'},
    {"quiet", no_argument, NULL, 'q'},
    {"json", required_argument, NULL, 'j'},
    {"csv", required_argument, NULL, 'c'},
    {"svg", required_argument, NULL, 's'},
    {"svg-value", required_argument, NULL, OPT_SVG_VALUE},
    {"html", required_argument, NULL, OPT_HTML},
    {"examples", required_argument, NULL, 'e'},
    {"progress", no_argument, NULL, 'p'},
    {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

static int usage_error(int *exit_status, const char *fmt, const char *arg)
{
    fputs(ANALYZE_PROGRAM ": ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry '" ANALYZE_PROGRAM " --help' for more information.\n", stderr);
    *exit_status = EXIT_ANALYZE_USAGE;
    return 1;
}

static int parse_count(const char *s, unsigned *out)
{
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end || v > MAX_EXAMPLES)
        return -1;
    *out = (unsigned)v;
    return 0;
}

/* No two outputs may share a file, "-" included. */
static int check_outputs(const struct options *opt, int *exit_status)
{
    const char *paths[] = {opt->text_path, opt->json_path, opt->csv_path, opt->svg_path,
                           opt->html_path};
    const char *names[] = {"--text", "--json", "--csv", "--svg", "--html"};
    for (int i = 0; i < 5; i++) {
        for (int j = i + 1; j < 5; j++) {
            if (paths[i] && paths[j] && strcmp(paths[i], paths[j]) == 0) {
                char what[64];
                snprintf(what, sizeof what, "%s and %s", names[i], names[j]);
                return usage_error(exit_status, "%s name the same file", what);
            }
        }
    }
    return 0;
}

int options_parse(int argc, char **argv, struct options *opt, int *exit_status)
{
    memset(opt, 0, sizeof *opt);
    opt->svg_value = SVG_VALUE_BYTES;
    opt->examples = DEFAULT_EXAMPLES;
    opt->progress = -1;
    int quiet = 0, text_given = 0;

    opterr = 0; /* our own messages */
    int c;
    while ((c = getopt_long(argc, argv, ":t:qj:c:s:e:phV", long_options, NULL)) != -1) {
        switch (c) {
        case 't': opt->text_path = optarg; text_given = 1; break;
        case 'q': quiet = 1; break;
        case 'j': opt->json_path = optarg; break;
        case 'c': opt->csv_path = optarg; break;
        case 's': opt->svg_path = optarg; break;
        case OPT_HTML: opt->html_path = optarg; break;
        case OPT_SVG_VALUE:
            if (strcmp(optarg, "bytes") == 0)
                opt->svg_value = SVG_VALUE_BYTES;
            else if (strcmp(optarg, "messages") == 0)
                opt->svg_value = SVG_VALUE_MESSAGES;
            else
                return usage_error(exit_status,
                                   "--svg-value: '%s' is neither 'bytes' nor 'messages'", optarg);
            break;
        case 'e':
            if (parse_count(optarg, &opt->examples) != 0)
                return usage_error(exit_status,
                                   "--examples: '%s' is not a number from 0 to 1000000", optarg);
            break;
        case 'p': opt->progress = 1; break;
        case OPT_NO_PROGRESS: opt->progress = 0; break;
        case OPT_THREADS:
            if (parse_count(optarg, &opt->threads) != 0 || opt->threads < 1
                || opt->threads > MAX_THREADS)
                return usage_error(exit_status, "--threads: '%s' is not a number from 1 to 1024",
                                   optarg);
            break;
        case 'h':
            fputs(usage, stdout);
            *exit_status = 0;
            return 1;
        case 'V':
            printf(ANALYZE_PROGRAM " (hooktrace) %s\n", PACKAGE_VERSION);
            *exit_status = 0;
            return 1;
        case ':':
            return usage_error(exit_status, "option '%s' needs a value", argv[optind - 1]);
        default:
            return usage_error(exit_status, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return usage_error(exit_status, "%s", "no ARCHIVE given");
    if (optind + 1 < argc)
        return usage_error(exit_status, "one ARCHIVE only; '%s' is one too many", argv[optind + 1]);
    opt->archive = argv[optind];

    if (quiet && text_given)
        return usage_error(exit_status, "%s", "--quiet and --text contradict each other");
    if (!quiet && !text_given) {
        /* The text report goes to stdout unless something else does. */
        int stdout_taken = (opt->json_path && strcmp(opt->json_path, "-") == 0)
                           || (opt->csv_path && strcmp(opt->csv_path, "-") == 0)
                           || (opt->svg_path && strcmp(opt->svg_path, "-") == 0)
                           || (opt->html_path && strcmp(opt->html_path, "-") == 0);
        opt->text_path = stdout_taken ? NULL : "-";
    }
    return check_outputs(opt, exit_status);
}
