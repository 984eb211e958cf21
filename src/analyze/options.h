/* The command line of hooktrace-analyze (documented in --help and
 * docs/analyze.md; keep the three in step). */
#ifndef HT_ANALYZE_OPTIONS_H
#define HT_ANALYZE_OPTIONS_H

enum svg_value { SVG_VALUE_BYTES, SVG_VALUE_MESSAGES };

struct options {
    const char *archive;   /* the anchor file, or a directory holding one */
    const char *text_path; /* text report; "-" is stdout; NULL: none */
    const char *json_path;
    const char *csv_path;
    const char *svg_path;
    const char *html_path;
    enum svg_value svg_value;
    unsigned examples;     /* warning examples kept per kind */
    int progress;          /* 1 on, 0 off, -1 when stderr is a terminal */
    unsigned threads;      /* decoding threads; 0: as many as CPUs */
};

/* Parses argv into *opt.  Returns 0 to go on, or 1 to stop at once with
 * *exit_status (0 after --help or --version; EXIT_ANALYZE_USAGE after a
 * message on stderr). */
int options_parse(int argc, char **argv, struct options *opt, int *exit_status);

#endif
