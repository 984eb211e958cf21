/* Temporary files renamed into place under names that never take a
 * concurrent run's (naming.c, docs/files.md). */
#ifndef HT_OUTPUT_NAMING_H
#define HT_OUTPUT_NAMING_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

struct ht_pending_output {
    const char *ext;    /* ".log", ".json", ".folded" */
    char tmp[PATH_MAX]; /* the temporary file's name in the directory */
    int fd;             /* open on it until it is placed; -1: none */
    bool unnamed;       /* no name yet (O_TMPFILE): tmp is the one it will take */
    bool ok;            /* written without error: to be renamed */
    bool cut;           /* stopped for lack of room: replaces no file */
    dev_t dev;          /* once placed: the file, to know it again */
    ino_t ino;
};

/* Renames each ok output in dirfd (dir: its name in messages) to
 * <name><ext>, where name is basename, or
 * basename + forced_suffix if given (an MPI job's rank files take rank 0's
 * suffix), or basename with a suffix if a concurrent run (one that wrote
 * since start) has it.  The name used goes to chosen.  A cut output is
 * renamed only where no file is.  Every fd is closed.  Returns the number
 * of renames that failed (reported, their temporary files removed). */
int ht_output_place(int dirfd, const char *dir, const char *basename, const char *forced_suffix,
                    struct ht_pending_output *out, int n, const struct timespec *start,
                    char *chosen, size_t chosen_len);

#endif
