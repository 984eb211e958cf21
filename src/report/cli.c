/* hooktrace-report's help and usage errors (cli.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/cli.h"

const char ht_report_usage[] =
    "usage: " HT_REPORT_PROGRAM " PROFILE.json [-o OUT.html]\n"
    "       " HT_REPORT_PROGRAM " --compare BASE.json NEW.json [-o OUT.html] [--json OUT.json]\n"
    "              [--fail-above R] [--min-share F] [--min-time S] [--top N] [--force]\n"
    "              [--base-phase NAME] [--new-phase NAME]\n"
    "       " HT_REPORT_PROGRAM " --compare A1.json,A2.json,... B1.json,B2.json,... [...]\n"
    "       " HT_REPORT_PROGRAM " --scaling P1.json P2.json... [-o OUT.html] [--json OUT.json]\n"
    "              [--top N]\n"
    "Writes the HTML report of a hooktrace profile: one file that opens offline\n"
    "(flame graph, function table, communication matrix, time per rank).\n"
    "  -o OUT.html   where to write it ('-': standard output); default: PROFILE\n"
    "                with .json replaced by .html\n"
    "  -h, --help    print this help and exit\n"
    "  --version     print the version and exit\n"
    "--compare: the stacks of two runs matched by call path, sorted by the change\n"
    "of their inclusive time; several runs a side (comma-separated) give each\n"
    "stack the median of its runs and their range. Writes a page (default: NEW\n"
    "with .json replaced by .compare.html) and a table of the most changed stacks\n"
    "on standard output (standard error when -o - or --json - takes it):\n"
    "  --json FILE      also the comparison as JSON ('-': standard output)\n"
    "  --fail-above R   exit 3 if a counted stack's median inclusive time grew by\n"
    "                   more than R times (new/base > R) and, with several runs,\n"
    "                   its fastest new run is slower than its slowest base run;\n"
    "                   the stacks on stderr, by the growth of exclusive time,\n"
    "                   those ending in an MPI call last\n"
    "  --min-share F    a stack counts if its base time is at least F of the base\n"
    "                   run's total (default 0.01)\n"
    "  --min-time S     and at least S seconds (default 0.001)\n"
    "  --top N          the table's rows (default 20; 0: no table)\n"
    "  --force          let --fail-above judge profiles of different rank counts\n"
    "  --base-phase NAME, --new-phase NAME\n"
    "                   that side's named phase alone (hooktrace_phase), matched\n"
    "                   by the call path below it: two phases of one run with\n"
    "                   the same file twice\n"
    "--scaling: time per stack against ranks, profiles of one program at\n"
    "different rank counts (default page: scaling.html):\n"
    "  --top N          the N stacks with the most time (default 10)\n"
    "Exit status: 0 written, 1 a profile cannot be read or an output written,\n"
    "2 usage error, 3 (--fail-above) a counted stack slowed by more than R,\n"
    "4 (--fail-above without --force) the profiles' rank counts differ.\n"
    "More: hooktrace-report(1), " HT_DOCDIR "/docs/report.md; --compare and\n"
    "--scaling: " HT_DOCDIR "/docs/compare.md\n";

int ht_report_usage_error(const char *what, const char *arg)
{
    fprintf(stderr, HT_REPORT_PROGRAM ": ");
    fprintf(stderr, what, arg);
    fprintf(stderr, "\n%s", ht_report_usage);
    return HT_REPORT_USAGE;
}

int ht_report_number(const char *option, const char *text, double min, double *value)
{
    char *end;
    double v = text ? strtod(text, &end) : 0;
    if (!text)
        return ht_report_usage_error("%s needs a value", option);
    if (end == text || *end != '\0' || !isfinite(v) || v < min) {
        fprintf(stderr, HT_REPORT_PROGRAM ": %s: '%s' is not a number >= %g\n", option, text, min);
        fprintf(stderr, "%s", ht_report_usage);
        return HT_REPORT_USAGE;
    }
    *value = v;
    return 0;
}
