/* hooktrace-report's file writing (page.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/compare_page.h"
#include "report/page.h"

/* Writes through f and closes it: 0, or -1 with the reason in *err. */
static int write_closing(FILE *f, int (*write)(FILE *f, void *ctx), void *ctx, int *err)
{
    errno = 0;
    int rc = write(f, ctx);
    *err = errno ? errno : EIO;
    if (fclose(f) != 0 && rc == 0) {
        rc = -1;
        *err = errno;
    }
    return rc;
}

int ht_report_write_file(const char *program, const char *out, int (*write)(FILE *f, void *ctx),
                         void *ctx)
{
    if (strcmp(out, "-") == 0) {
        errno = 0;
        if (write(stdout, ctx) != 0 || fflush(stdout) != 0) {
            fprintf(stderr, "%s: cannot write to standard output: %s\n", program,
                    strerror(errno ? errno : EIO));
            return -1;
        }
        return 0;
    }
    /* Only a regular file (or a new one) is replaced by rename, as
     * hooktrace-analyze does.  Anything else is written in place: renaming
     * over /dev/null, a FIFO or a symbolic link would replace the special
     * file or the link itself. */
    struct stat st;
    if (lstat(out, &st) == 0 && !S_ISREG(st.st_mode)) {
        FILE *f = fopen(out, "we");
        int err = errno, rc = f ? write_closing(f, write, ctx, &err) : -1;
        if (rc != 0)
            fprintf(stderr, "%s: cannot write %s: %s\n", program, out, strerror(err));
        return rc;
    }
    size_t n = strlen(out) + 16;
    char *tmp = malloc(n);
    if (!tmp) {
        fprintf(stderr, "%s: out of memory\n", program);
        return -1;
    }
    /* A name nobody can guess or plant a link under: mkstemp creates it
     * (O_EXCL), 0600, which the page then gets back as umask allows. */
    snprintf(tmp, n, "%s.tmp.XXXXXX", out);
    int fd = mkostemp(tmp, O_CLOEXEC);
    FILE *f = NULL;
    if (fd >= 0) {
        mode_t mask = umask(0);
        umask(mask);
        (void)fchmod(fd, 0666 & ~mask);
        if (!(f = fdopen(fd, "w"))) {
            int e = errno;
            close(fd);
            unlink(tmp);
            errno = e;
        }
    }
    int rc = -1, err = 0;
    if (!f) {
        err = errno;
    } else {
        rc = write_closing(f, write, ctx, &err);
        if (rc == 0 && rename(tmp, out) != 0) {
            rc = -1;
            err = errno;
        }
        if (rc != 0)
            unlink(tmp);
    }
    if (rc != 0)
        fprintf(stderr, "%s: cannot write %s: %s\n", program, out, strerror(err));
    free(tmp);
    return rc;
}

int ht_report_write_json(FILE *f, void *data)
{
    if (json_dumpf(data, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0)
        return -1;
    return fputc('\n', f) == EOF ? -1 : 0;
}

int ht_report_put(FILE *f, const char *text, bool escape)
{
    if (!escape)
        return fputs(text, f) == EOF ? -1 : 0;
    for (const char *s = text; *s; s++) {
        if (*s == '<' ? fputs("\\u003c", f) == EOF : putc(*s, f) == EOF)
            return -1;
    }
    return 0;
}

int ht_report_put_json(FILE *f, const json_t *doc, bool escape)
{
    char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!text) {
        errno = ENOMEM;
        return -1;
    }
    int rc = ht_report_put(f, text, escape);
    free(text);
    return rc;
}

int ht_report_compare_page_head(FILE *f)
{
    return fwrite(ht_compare_page_head, 1, ht_compare_page_head_len, f) ==
                   ht_compare_page_head_len
               ? 0
               : -1;
}

int ht_report_compare_page_tail(FILE *f)
{
    return fwrite(ht_compare_page_tail, 1, ht_compare_page_tail_len, f) ==
                   ht_compare_page_tail_len
               ? 0
               : -1;
}

int ht_report_write_compare_page(FILE *f, void *data)
{
    return ht_report_compare_page_head(f) == 0 && ht_report_put_json(f, data, true) == 0 &&
                   ht_report_compare_page_tail(f) == 0
               ? 0
               : -1;
}
