/* Temporary file, then rename. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/fail.h"
#include "analyze/output_file.h"

int output_file_open(struct output_file *o, const char *path, char *err, size_t errsize)
{
    o->path = path;
    o->temporary = NULL;
    o->f = NULL;
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    /* Only a regular file (or a new one) is replaced by rename.  Anything
     * else is written in place: renaming over /dev/null, a FIFO or a
     * symbolic link would replace the special file or the link itself. */
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        o->f = fopen(path, "w");
        if (!o->f) {
            snprintf(err, errsize, "%s: cannot write: %s", path, strerror(errno));
            return -1;
        }
        return 0;
    }
    o->temporary = xmalloc(strlen(path) + 16);
    sprintf(o->temporary, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(o->temporary);
    if (fd < 0) {
        snprintf(err, errsize, "%s: cannot write: %s", path, strerror(errno));
        free(o->temporary);
        o->temporary = NULL;
        return -1;
    }
    /* mkstemp creates the file 0600; a report gets the usual mode.  A
     * failure here is harmless: the report is still written. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    o->f = fdopen(fd, "w");
    if (!o->f) {
        snprintf(err, errsize, "%s: cannot write: %s", path, strerror(errno));
        close(fd);
        unlink(o->temporary);
        free(o->temporary);
        o->temporary = NULL;
        return -1;
    }
    return 0;
}

int output_file_commit(struct output_file *o, char *err, size_t errsize)
{
    int failed = fflush(o->f) != 0 || ferror(o->f);
    int saved = errno;
    if (!o->temporary) {
        if (o->f != stdout) {
            if (fclose(o->f) != 0 && !failed) {
                failed = 1;
                saved = errno;
            }
            o->f = NULL;
        }
        if (failed) {
            snprintf(err, errsize, "%s: write error: %s",
                     strcmp(o->path, "-") == 0 ? "standard output" : o->path, strerror(saved));
            return -1;
        }
        return 0;
    }
    if (fclose(o->f) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    o->f = NULL;
    if (!failed && rename(o->temporary, o->path) != 0) {
        failed = 1;
        saved = errno;
    }
    if (failed) {
        snprintf(err, errsize, "%s: cannot write: %s", o->path, strerror(saved));
        unlink(o->temporary);
    }
    free(o->temporary);
    o->temporary = NULL;
    return failed ? -1 : 0;
}

void output_file_abort(struct output_file *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    if (o->temporary) {
        unlink(o->temporary);
        free(o->temporary);
        o->temporary = NULL;
    }
    o->f = NULL;
}
