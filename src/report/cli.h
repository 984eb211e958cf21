/* hooktrace-report's command line, shared by its modes (cli.c): the help
 * text and the usage error every mode reports the same way. */
#ifndef HT_REPORT_CLI_H
#define HT_REPORT_CLI_H

#define HT_REPORT_PROGRAM "hooktrace-report"

/* Exit statuses (docs/compare.md). */
enum {
    HT_REPORT_OK = 0,
    HT_REPORT_BAD_INPUT = 1,
    HT_REPORT_USAGE = 2,
    HT_REPORT_SLOWER = 3,
    HT_REPORT_RANKS = 4, /* --fail-above on profiles of different rank counts */
};

extern const char ht_report_usage[];

/* Prints "hooktrace-report: " what (a format with at most one %s, arg)
 * and the usage on stderr; returns HT_REPORT_USAGE. */
int ht_report_usage_error(const char *what, const char *arg);

/* A number option's value; 0, or a usage error's status. */
int ht_report_number(const char *option, const char *text, double min, double *value);

/* --compare BASE NEW and --scaling P... (compare.c, scaling.c): argv is
 * the whole command line; the exit status. */
int ht_report_compare_main(int argc, char **argv);
int ht_report_scaling_main(int argc, char **argv);

#endif
