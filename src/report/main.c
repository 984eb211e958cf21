/* hooktrace-report: the self-contained HTML report of a profile JSON
 * (docs/report.md), the same page a run writes beside its
 * JSON (src/output/html.c writes both).
 *
 *   hooktrace-report PROFILE.json [-o OUT.html]
 *   hooktrace-report --compare BASE.json NEW.json ...   (compare.c)
 *   hooktrace-report --compare A1.json,A2.json B1.json,B2.json ...
 *   hooktrace-report --scaling P1.json P2.json ...      (scaling.c)
 *
 * Exit status: 0 written; 1 the profile cannot be read, is not JSON or not
 * a hooktrace profile, or the page cannot be written; 2 usage error; 3
 * --compare --fail-above R found a stack slower by more than R; 4
 * --compare --fail-above on profiles of different rank counts. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "output/html.h"
#include "report/cli.h"
#include "report/page.h"

#define PROGRAM HT_REPORT_PROGRAM

static int usage_error(const char *what, const char *arg)
{
    return ht_report_usage_error(what, arg);
}

/* Whether path holds a hooktrace profile; says why not on stderr.  The
 * whole document is parsed once to tell (jansson), then freed: the page is
 * written from the file itself. */
static int check_profile(const char *path, FILE *f)
{
    json_error_t error;
    json_t *doc = json_loadf(f, 0, &error);
    if (!doc) {
        fprintf(stderr, PROGRAM ": %s is not JSON: %s (line %d, column %d)\n", path, error.text,
                error.line, error.column);
        return -1;
    }
    int ok = json_is_object(doc) && json_is_string(json_object_get(doc, "hooktrace_version")) &&
             json_is_array(json_object_get(doc, "stacks"));
    json_decref(doc);
    if (!ok) {
        fprintf(stderr,
                PROGRAM ": %s is not a hooktrace profile: it has no \"hooktrace_version\" "
                "and \"stacks\"\n", path);
        return -1;
    }
    return 0;
}

/* PROFILE.json -> PROFILE.html; any other name gets .html added. */
static char *default_output(const char *in)
{
    size_t n = strlen(in);
    char *out = malloc(n + 6);
    if (!out)
        return NULL;
    memcpy(out, in, n + 1);
    if (n > 5 && strcmp(in + n - 5, ".json") == 0)
        out[n - 5] = '\0';
    strcat(out, ".html");
    return out;
}

static int write_report(FILE *f, void *json)
{
    return ht_output_html_write(f, json, NULL, NULL);
}

/* Through a temporary file beside out, renamed into place when complete,
 * so that a reader never sees half a page. */
static int write_page(FILE *json, const char *out)
{
    return ht_report_write_file(PROGRAM, out, write_report, json);
}

int main(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(ht_report_usage, stdout);
            return 0;
        } else if (strcmp(argv[i], "--version") == 0) {
            puts(PROGRAM " (hooktrace) " PACKAGE_VERSION);
            return 0;
        }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--compare") == 0)
            return ht_report_compare_main(argc, argv);
        if (strcmp(argv[i], "--scaling") == 0)
            return ht_report_scaling_main(argc, argv);
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0) {
            if (i + 1 >= argc)
                return usage_error("-o needs a file name", NULL);
            out = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage_error("unknown option '%s'", argv[i]);
        } else if (in) {
            return usage_error("more than one profile: '%s'", argv[i]);
        } else {
            in = argv[i];
        }
    }
    if (!in)
        return usage_error("no profile given", NULL);

    FILE *json = fopen(in, "re");
    if (!json) {
        fprintf(stderr, PROGRAM ": cannot read %s: %s\n", in, strerror(errno));
        return 1;
    }
    char *fallback = NULL;
    int status = 1;
    if (check_profile(in, json) == 0 && fseek(json, 0, SEEK_SET) == 0) {
        if (!out)
            out = fallback = default_output(in);
        if (!out)
            fprintf(stderr, PROGRAM ": out of memory\n");
        else if (write_page(json, out) == 0)
            status = 0;
    }
    fclose(json);
    free(fallback);
    return status;
}
