/* Reading the config file and writing its messages.  jansson parses; the
 * option tables in config_options.c check the values.  Validation stops at
 * the first problem, in file order, so the user gets exactly one message and
 * fixes the file from the top. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "config/config_internal.h"
#include "config/config_load.h"

/* --- messages -------------------------------------------------------------- */

/* The value as it would be written in JSON, so that the user can search the
 * file for it and see stray spaces or control characters. */
void ht_config_quote(char *buf, size_t size, const char *s)
{
    size_t pos = 0;
    ht_config_appendf(buf, size, &pos, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            ht_config_appendf(buf, size, &pos, "\\%c", c);
        else if (c < 0x20)
            ht_config_appendf(buf, size, &pos, "\\u%04x", c);
        else
            ht_config_appendf(buf, size, &pos, "%c", c);
    }
    ht_config_appendf(buf, size, &pos, "\"");
}

/* "outputs.json", "exclude_functions"[2] */
static void path_name(const struct ht_config_load *ld, size_t depth, char *buf, size_t size)
{
    size_t pos = 0;
    bool open = false;
    for (size_t d = 0; d < depth; d++) {
        const struct ht_config_path_step *s = &ld->path[d];
        if (s->key) {
            ht_config_appendf(buf, size, &pos, "%s%s", open ? "." : "\"", s->key);
            open = true;
        } else {
            ht_config_appendf(buf, size, &pos, "%s[%zu]", open ? "\"" : "", s->index);
            open = false;
        }
    }
    if (open)
        ht_config_appendf(buf, size, &pos, "\"");
}

/* "FILE:LINE: " for the value at the current path, "FILE: " if not found. */
static void prefix(struct ht_config_load *ld, size_t *pos)
{
    unsigned line = ht_config_locate_line(ld->text, ld->len, ld->path, ld->depth);
    if (line)
        ht_config_appendf(ld->err, ld->errlen, pos, "%s:%u: ", ld->file, line);
    else
        ht_config_appendf(ld->err, ld->errlen, pos, "%s: ", ld->file);
}

int ht_config_fail(struct ht_config_load *ld, const char *fmt, ...)
{
    size_t pos = 0;
    va_list ap;
    prefix(ld, &pos);
    va_start(ap, fmt);
    ht_config_vappendf(ld->err, ld->errlen, &pos, fmt, ap);
    va_end(ap);
    return -1;
}

int ht_config_fail_at(struct ht_config_load *ld, const char *fmt, ...)
{
    char name[256];
    size_t pos = 0;
    va_list ap;
    path_name(ld, ld->depth, name, sizeof name);
    prefix(ld, &pos);
    ht_config_appendf(ld->err, ld->errlen, &pos, "%s", name);
    va_start(ap, fmt);
    ht_config_vappendf(ld->err, ld->errlen, &pos, fmt, ap);
    va_end(ap);
    return -1;
}

bool ht_config_go_on(struct ht_config_load *ld)
{
    if (!ld->report)
        return false;
    if (ld->errlen && ld->err[0]) {
        ld->report(ld->report_arg, ld->err);
        ld->err[0] = '\0';
    }
    return true;
}

int ht_config_out_of_memory(struct ht_config_load *ld)
{
    snprintf(ld->err, ld->errlen, "%s: out of memory while reading the config file", ld->file);
    return -1;
}

const char *ht_config_type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a real number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "an unknown JSON value";
}
/* --- the file -------------------------------------------------------------- */

/* What a path is when it is not a regular file, for the message. */
static const char *file_kind(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

/* Reads a regular file of at most HT_CONFIG_MAX_FILE_BYTES.  Anything else
 * is refused before a byte is read: /dev/zero never ends, a FIFO blocks
 * the program (and would block before main) until someone writes to it,
 * and a huge file would take the profiled program's memory.  The open
 * itself does not block on a FIFO (O_NONBLOCK).  Returns 0, or an errno
 * value, or -1 after writing *why. */
static int read_all(const char *path, char **text, size_t *len, char *why, size_t whylen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return errno;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return e;
    }
    if (!S_ISREG(st.st_mode)) {
        const char *kind = file_kind(st.st_mode);
        snprintf(why, whylen, "it is %s, not a regular file", kind);
        close(fd);
        return -1;
    }
    if (st.st_size > HT_CONFIG_MAX_FILE_BYTES) {
        snprintf(why, whylen,
                 "it has %lld bytes; a config file may have at most %d bytes (%d MiB)",
                 (long long)st.st_size, HT_CONFIG_MAX_FILE_BYTES,
                 HT_CONFIG_MAX_FILE_BYTES >> 20);
        close(fd);
        return -1;
    }
    /* One byte more than the size says: a file that grows while it is read
     * is noticed, and still held to the limit. */
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        close(fd);
        return ENOMEM;
    }
    for (;;) {
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return e;
        }
        if (got == 0)
            break;
        n += (size_t)got;
        if (n < cap)
            continue;
        if (cap > HT_CONFIG_MAX_FILE_BYTES) {
            snprintf(why, whylen,
                     "it grew while it was read, past %d bytes (%d MiB), the most a config "
                     "file may have",
                     HT_CONFIG_MAX_FILE_BYTES, HT_CONFIG_MAX_FILE_BYTES >> 20);
            free(buf);
            close(fd);
            return -1;
        }
        size_t bigger_cap = cap * 2 > (size_t)HT_CONFIG_MAX_FILE_BYTES + 1
                                ? (size_t)HT_CONFIG_MAX_FILE_BYTES + 1
                                : cap * 2;
        char *bigger = realloc(buf, bigger_cap + 1);
        if (!bigger) {
            free(buf);
            close(fd);
            return ENOMEM;
        }
        buf = bigger;
        cap = bigger_cap;
    }
    close(fd);
    /* The terminator lets the text be scanned as a string. */
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

/* ht_config_parse_text, and with report, ht_config_check_file's reading. */
static int parse_text(const char *path, const char *text, size_t len, struct ht_config *cfg,
                      char *err, size_t errlen, void (*report)(void *, const char *), void *arg)
{
    struct ht_config_load ld = {.file = path, .cfg = cfg, .err = err, .errlen = errlen,
                                .report = report, .report_arg = arg};
    if (errlen)
        err[0] = '\0';
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (!root) {
        size_t pos = 0;
        ht_config_appendf(err, errlen, &pos, "%s:%d:%d: syntax error: %s", path, jerr.line,
                          jerr.column, jerr.text);
        if (strspn(text, " \t\r\n") == len)
            ht_config_appendf(err, errlen, &pos,
                              " (the file is empty; a config file with "
                              "every option at its default is {})");
        ht_config_go_on(&ld);
        return -1;
    }
    ld.text = text;
    ld.len = len;

    int rc;
    if (!json_is_object(root))
        rc = ht_config_fail(&ld, "the top level must be a JSON object ({ ... }), not %s",
                            ht_config_type_name(root));
    else
        rc = ht_config_apply_options(&ld, root);
    if (rc == 0) {
        char *copy = strdup(path);
        if (!copy) {
            rc = ht_config_out_of_memory(&ld);
        } else {
            free(cfg->source_file);
            cfg->source_file = copy;
        }
    }
    json_decref(root);
    if (rc != 0)
        ht_config_go_on(&ld); /* the last problem's message, if not yet given */
    return rc;
}

int ht_config_parse_text(const char *path, const char *text, size_t len, struct ht_config *cfg,
                         char *err, size_t errlen)
{
    return parse_text(path, text, len, cfg, err, errlen, NULL, NULL);
}

/* ht_config_load, with report as in parse_text. */
static int load(const char *path, const char *named_by, struct ht_config *cfg, char *err,
                size_t errlen, void (*report)(void *, const char *), void *arg)
{
    char *text = NULL;
    size_t len = 0;
    char why[160] = "";

    if (errlen)
        err[0] = '\0';
    int e = read_all(path, &text, &len, why, sizeof why);
    if (e) {
        const char *reason = e > 0 ? strerror(e) : why;
        if (named_by)
            snprintf(err, errlen, "%s: cannot read the config file named by %s: %s", path, named_by,
                     reason);
        else
            snprintf(err, errlen, "%s: cannot read the config file: %s", path, reason);
        if (report)
            report(arg, err);
        return -1;
    }
    int rc = parse_text(path, text, len, cfg, err, errlen, report, arg);
    free(text);
    return rc;
}

int ht_config_load(const char *path, const char *named_by, struct ht_config *cfg, char *err,
                   size_t errlen)
{
    return load(path, named_by, cfg, err, errlen, NULL, NULL);
}

int ht_config_check_file(const char *path, struct ht_config *cfg,
                         void (*report)(void *arg, const char *message), void *arg)
{
    char err[2048];
    return load(path, NULL, cfg, err, sizeof err, report, arg);
}

int ht_config_load_file(const char *path, struct ht_config *cfg, char *err, size_t errlen)
{
    return ht_config_load(path, NULL, cfg, err, errlen);
}
