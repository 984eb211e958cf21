/* Helpers for the config unit tests: config text written to a private
 * temporary folder (so each case sits next to its assertions and line
 * numbers are plain to see), and the fixture folder. */
#ifndef HT_TEST_CONFIG_TESTUTIL_H
#define HT_TEST_CONFIG_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"

static char tmp_dir[256];
static char tmp_paths[128][300];
static int tmp_count;

static inline void tmp_ensure_dir(void)
{
    if (!tmp_dir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(tmp_dir, sizeof tmp_dir, "%s/ht_config_test.XXXXXX",
                 base && *base ? base : "/tmp");
        if (!mkdtemp(tmp_dir)) {
            perror("mkdtemp");
            exit(99);
        }
    }
}

/* Writes text to a new file named name in the test's temporary folder and
 * returns its path (valid until tmp_cleanup). */
static inline const char *tmp_file(const char *name, const char *text)
{
    tmp_ensure_dir();
    if (tmp_count == (int)(sizeof tmp_paths / sizeof tmp_paths[0])) {
        fprintf(stderr, "too many temporary files\n");
        exit(99);
    }
    char *path = tmp_paths[tmp_count++];
    snprintf(path, sizeof tmp_paths[0], "%s/%s", tmp_dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
        perror(path);
        exit(99);
    }
    return path;
}

static inline void tmp_cleanup(void)
{
    for (int i = 0; i < tmp_count; i++)
        unlink(tmp_paths[i]);
    if (tmp_dir[0])
        rmdir(tmp_dir);
}

static inline const char *fixture(const char *name)
{
    static char paths[16][512];
    static int next;
    const char *top = getenv("HT_TOP_SRCDIR");
    char *p = paths[next++ % 16];
    snprintf(p, sizeof paths[0], "%s/test/unit/config_files/%s", top && *top ? top : ".", name);
    return p;
}

/* Loads text as a config file named name and returns the message (empty if
 * the file is valid); the config is freed either way. */
static inline const char *load_error(const char *name, const char *text)
{
    static char err[2048];
    struct ht_config cfg;
    ht_config_defaults(&cfg);
    err[0] = '\0';
    if (ht_config_load_file(tmp_file(name, text), &cfg, err, sizeof err) == 0)
        err[0] = '\0';
    ht_config_free(&cfg);
    return err;
}

/* The expected message for a temporary file: "<tmp_dir>/<rest>". */
static inline const char *in_tmp(const char *rest)
{
    static char buf[2048];
    tmp_ensure_dir();
    snprintf(buf, sizeof buf, "%s/%s", tmp_dir, rest);
    return buf;
}

#endif
