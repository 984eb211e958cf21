/* hooktrace-check-config FILE...: validates config files without running a
 * program, with the same code and messages as the runtime.  Links only the
 * config module, never libhooktrace, so checking a file profiles nothing. */
#include <stdio.h>
#include <string.h>

/* The autoconf header (PACKAGE_VERSION), not config/config.h beside this file. */
#include <config.h>

#include "config/config.h"

static const char usage[] =
    "Usage: hooktrace-check-config FILE...\n"
    "Checks hooktrace config files: prints \"FILE: ok\" for each valid file and\n"
    "exits 0, or prints every problem of each bad file (file, line, key; a JSON\n"
    "syntax error ends the reading of its file) and exits 1.\n"
    "  -h, --help    print this help and exit\n"
    "  --version     print the version and exit\n"
    "The options: hooktrace-config(5), and in detail " HT_DOCDIR "/docs/config.md\n";

static void report(void *arg, const char *message)
{
    (void)arg;
    fprintf(stderr, "hooktrace-check-config: %s\n", message);
}

int main(int argc, char **argv)
{
    /* Files are collected in place at the front of argv; "--" ends the
     * options so that a file named "-x.json" can still be checked. */
    int nfiles = 0;
    int options = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options && strcmp(a, "--") == 0) {
            options = 0;
        } else if (options && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
            fputs(usage, stdout);
            return 0;
        } else if (options && strcmp(a, "--version") == 0) {
            puts("hooktrace-check-config (hooktrace) " PACKAGE_VERSION);
            return 0;
        } else if (options && a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "hooktrace-check-config: unknown option %s\n%s", a, usage);
            return 2;
        } else {
            argv[nfiles++] = argv[i];
        }
    }
    if (nfiles == 0) {
        fputs(usage, stderr);
        return 2;
    }

    int status = 0;
    for (int i = 0; i < nfiles; i++) {
        struct ht_config cfg;
        ht_config_defaults(&cfg);
        if (ht_config_check_file(argv[i], &cfg, report, NULL) == 0) {
            printf("%s: ok\n", argv[i]);
#ifndef HT_HAVE_OTF2
            /* Valid, but this build cannot do what it asks (calls.c). */
            if (cfg.trace.enabled)
                fprintf(stderr,
                        "hooktrace-check-config: %s: trace.enabled: this hooktrace was built "
                        "without OTF2 (configure --without-otf2); a run writes no trace\n",
                        argv[i]);
#endif
        } else {
            status = 1;
        }
        ht_config_free(&cfg);
    }
    return status;
}
