/* The HTML report: the page generated from src/report/web around the
 * profile JSON, streamed (html.h).  Used at the end of a run (files.c) and
 * by hooktrace-report (src/report/main.c), so it needs nothing but stdio.
 *
 * The JSON goes into the page through a streaming filter that keeps the
 * page small (docs/report.md): whitespace outside strings is
 * dropped, and so are the members the page never reads, of which MPI_T's
 * control variables alone were 60% of a small MPI run's page (now in
 * <basename>.mpit.json unless mpi_t.cvars_in_json).  The filter
 * holds one key and the path of the enclosing containers, never the
 * document.  The one value it reads is the top-level "threads" (written
 * before "stacks"): with more than one thread the stacks keep their
 * per-thread figures, which the page's thread selector shows. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/html.h"
#include "output/html_page.h"

enum { BLOCK = 64 * 1024, MAX_DEPTH = 32, PATH_MAX_LEN = 128, KEY_MAX = 64 };

/* Members the page does not read, by path ("[]": any element of an array).
 * Kept short: every other member goes in as written. */
static const struct {
    const char *path;
    bool kept_with_threads; /* kept when the profile has more than one thread */
} left_out[] = {
    {"mpi_t", false},             /* pvars; control variables with mpi_t.cvars_in_json */
    {"thread_tids", false},       /* one per thread */
    {"thread_groups", false},
    {"uninstrumented", false},    /* every name the plugin left out */
    {"throttle.exclude_symbols", false},
    {"throttle.exclude_function_list", false},
    {"functions[].file", false},
    {"functions[].line", false},
    {"stacks[].threads", true},   /* per thread: the thread selector reads them */
    {"stacks[].ranks", false},    /* per-rank message figures of a stack */
    {"stacks[].pvars", false},
};

struct filter {
    FILE *out;
    char buf[BLOCK];
    size_t used;
    int depth;               /* containers open, up to MAX_DEPTH */
    int opaque;              /* containers open beyond MAX_DEPTH: copied as they are */
    char kind[MAX_DEPTH + 1];            /* '{' or '[' */
    unsigned members[MAX_DEPTH + 1];     /* of an object: members written */
    size_t path_len[MAX_DEPTH + 1];      /* SIZE_MAX: too long to match a rule */
    char path[PATH_MAX_LEN];
    char key[KEY_MAX];
    size_t key_len;
    size_t value_path;       /* the path of the member whose value comes next */
    int skip;                /* > 0: inside a left-out value, its containers open + 1 */
    bool reading_threads;    /* in the digits of the top-level "threads" */
    long threads;            /* its value, once read */
    bool in_string, escape, want_key, in_key, key_spilled;
    int error;
};

static void put(struct filter *f, const char *s, size_t n)
{
    if (f->error)
        return;
    if (f->used + n > sizeof f->buf) {
        if (fwrite(f->buf, 1, f->used, f->out) != f->used)
            f->error = errno ? errno : EIO;
        f->used = 0;
    }
    memcpy(f->buf + f->used, s, n);
    f->used += n;
}

/* Every '<' as \u003c: it only occurs inside strings, where the escape
 * means the same, so no function name can end the page's <script>. */
static void emit(struct filter *f, char c)
{
    if (c == '<')
        put(f, "\\u003c", 6);
    else
        put(f, &c, 1);
}

/* The separator and the start of a member that is kept. */
static void open_member(struct filter *f)
{
    if (f->members[f->depth]++ > 0)
        emit(f, ',');
    emit(f, '"');
}

/* The path of the value of key (or of an array's element, key NULL) at
 * the current depth, into f->path after the parent's path. */
static size_t child_path(struct filter *f, const char *key, size_t key_len)
{
    size_t at = f->path_len[f->depth];
    if (at == SIZE_MAX)
        return SIZE_MAX;
    size_t need = key ? key_len + (at > 0) : 2;
    if (at + need >= sizeof f->path)
        return SIZE_MAX;
    if (key) {
        if (at > 0)
            f->path[at++] = '.';
        memcpy(f->path + at, key, key_len);
        at += key_len;
    } else {
        memcpy(f->path + at, "[]", 2);
        at += 2;
    }
    f->path[at] = '\0';
    return at;
}

static bool is_left_out(const struct filter *f, size_t len)
{
    if (len == SIZE_MAX)
        return false;
    for (size_t i = 0; i < sizeof left_out / sizeof left_out[0]; i++)
        if (strlen(left_out[i].path) == len && memcmp(left_out[i].path, f->path, len) == 0)
            return !(left_out[i].kept_with_threads && f->threads > 1);
    return false;
}

/* A byte of a string (the quotes excluded); true at its closing quote. */
static bool string_byte(struct filter *f, char c)
{
    if (f->escape)
        f->escape = false;
    else if (c == '\\')
        f->escape = true;
    else if (c == '"')
        return true;
    return false;
}

static void filter_byte(struct filter *f, char c)
{
    if (f->reading_threads) {
        if (c >= '0' && c <= '9' && f->threads < 1000000000)
            f->threads = f->threads * 10 + (c - '0');
        else if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            f->reading_threads = false;
    }
    if (f->skip > 0) { /* a left-out value: ends at its object's ',' or '}' */
        if (f->in_string) {
            f->in_string = !string_byte(f, c);
            return;
        }
        if (c == '"')
            f->in_string = true;
        else if (c == '{' || c == '[')
            f->skip++;
        else if ((c == '}' || c == ']') && f->skip > 1)
            f->skip--;
        else if ((c == ',' || c == '}') && f->skip == 1)
            f->skip = 0; /* and c is read below */
        if (f->skip > 0)
            return;
    }
    if (f->opaque > 0) { /* deeper than the rules go: copied */
        if (f->in_string)
            f->in_string = !string_byte(f, c);
        else if (c == '"')
            f->in_string = true;
        else if (c == '{' || c == '[')
            f->opaque++;
        else if (c == '}' || c == ']')
            f->opaque--;
        emit(f, c);
        return;
    }
    if (f->in_string) {
        bool end = string_byte(f, c);
        f->in_string = !end;
        if (!f->in_key) {
            emit(f, c);
            return;
        }
        if (end) {
            f->in_key = false;
            if (f->key_spilled)
                emit(f, '"');
        } else if (f->key_spilled) {
            emit(f, c);
        } else if (f->key_len < sizeof f->key) {
            f->key[f->key_len++] = c;
        } else { /* longer than any rule: written as it comes */
            f->key_spilled = true;
            open_member(f);
            for (size_t i = 0; i < f->key_len; i++)
                emit(f, f->key[i]);
            emit(f, c);
        }
        return;
    }
    switch (c) {
    case ' ': case '\t': case '\n': case '\r':
        return;
    case '"':
        f->in_string = true;
        if (f->want_key) {
            f->want_key = false;
            f->in_key = true;
            f->key_spilled = false;
            f->key_len = 0;
            return;
        }
        break;
    case ':':
        if (f->key_spilled) {
            f->value_path = SIZE_MAX;
            break;
        }
        f->value_path = child_path(f, f->key, f->key_len);
        if (is_left_out(f, f->value_path)) {
            f->skip = 1;
            return;
        }
        open_member(f);
        for (size_t i = 0; i < f->key_len; i++)
            emit(f, f->key[i]);
        emit(f, '"');
        f->reading_threads = f->depth == 1 && f->value_path == strlen("threads") &&
                             memcmp(f->path, "threads", strlen("threads")) == 0;
        break;
    case ',':
        if (f->depth > 0 && f->kind[f->depth] == '{') {
            f->want_key = true;
            return; /* written before the next member kept */
        }
        break;
    case '{': case '[': {
        size_t len = f->depth > 0 && f->kind[f->depth] == '[' ? child_path(f, NULL, 0)
                                                               : f->depth > 0 ? f->value_path : 0;
        if (f->depth == MAX_DEPTH) {
            f->opaque = 1;
            break;
        }
        f->depth++;
        f->kind[f->depth] = c;
        f->members[f->depth] = 0;
        f->path_len[f->depth] = len;
        f->want_key = c == '{';
        break;
    }
    case '}': case ']':
        if (f->depth > 0)
            f->depth--;
        f->want_key = false;
        break;
    default:
        break;
    }
    emit(f, c);
}

int ht_output_html_write(FILE *html, FILE *json, bool (*room_left)(void *ctx), void *ctx)
{
    /* On the heap: the profile may be written from any thread (the
     * partial profile's watcher, runtime/signals.c), whose stack we do not
     * size. */
    char *block = malloc(BLOCK);
    struct filter *f = calloc(1, sizeof *f);
    int rc = -1;
    if (!block || !f) {
        errno = ENOMEM;
        goto out;
    }
    f->out = html;
    if (fwrite(ht_report_page_head, 1, ht_report_page_head_len, html) != ht_report_page_head_len)
        goto out;
    size_t n;
    while ((n = fread(block, 1, BLOCK, json)) > 0) {
        if (room_left && !room_left(ctx)) {
            errno = ENOSPC;
            goto out;
        }
        for (size_t i = 0; i < n; i++)
            filter_byte(f, block[i]);
        if (f->error)
            break;
    }
    if (!f->error && f->used && fwrite(f->buf, 1, f->used, html) != f->used)
        f->error = errno ? errno : EIO;
    if (f->error) {
        errno = f->error;
        goto out;
    }
    if (ferror(json)) {
        if (!errno)
            errno = EIO;
        goto out;
    }
    if (fwrite(ht_report_page_tail, 1, ht_report_page_tail_len, html) == ht_report_page_tail_len)
        rc = 0;
out:
    free(f);
    free(block);
    return rc;
}
