/* How hooktrace-analyze reports a problem it cannot work around: one line
 * on stderr, prefixed with the program name, then a non-zero exit status.
 * Problems it can work around are warnings (warnings.h), never these. */
#ifndef HT_ANALYZE_FAIL_H
#define HT_ANALYZE_FAIL_H

#include <stddef.h>

/* Exit statuses, documented in docs/analyze.md. */
enum {
    EXIT_ANALYZE_OK = 0,
    EXIT_ANALYZE_ERROR = 1, /* unreadable or malformed archive, unwritable output */
    EXIT_ANALYZE_USAGE = 2  /* bad command line */
};

#define ANALYZE_PROGRAM "hooktrace-analyze"

/* Prints "hooktrace-analyze: <message>" and a newline on stderr. */
void fail_message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints the message and exits with EXIT_ANALYZE_ERROR. */
void fail_exit(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* malloc failure: one message, exit.  There is nothing sensible to
 * continue with. */
void fail_out_of_memory(void) __attribute__((noreturn, cold));

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);

#endif
