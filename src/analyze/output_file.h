/* An output file written whole or not at all: the data goes to a
 * temporary file next to the target, renamed over it only when everything
 * was written.  A failed or interrupted analysis never leaves a truncated
 * report that looks complete.  "-" is stdout; an existing target that is
 * not a regular file (/dev/null, a FIFO, a symbolic link) is written in
 * place. */
#ifndef HT_ANALYZE_OUTPUT_FILE_H
#define HT_ANALYZE_OUTPUT_FILE_H

#include <stddef.h>
#include <stdio.h>

struct output_file {
    FILE *f;
    const char *path; /* as given */
    char *temporary;  /* NULL for stdout and for files written in place */
};

/* Returns 0, or -1 with "<path>: <reason>" in err. */
int output_file_open(struct output_file *o, const char *path, char *err, size_t errsize);
/* Flushes, checks for write errors and renames into place. */
int output_file_commit(struct output_file *o, char *err, size_t errsize);
/* Closes and removes the temporary file. */
void output_file_abort(struct output_file *o);

#endif
