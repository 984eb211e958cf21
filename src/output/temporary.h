/* Temporary output files no other run can take, and those that killed runs
 * left behind (temporary.c; docs/files.md). */
#ifndef HT_OUTPUT_TEMPORARY_H
#define HT_OUTPUT_TEMPORARY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* A temporary file for an output, in dirfd.  Where the file system can
 * (O_TMPFILE: ext4, XFS, Btrfs, tmpfs), the file has no name until
 * ht_output_temporary_name gives it one, just before it is placed, so
 * that a run killed while writing leaves nothing behind (*unnamed true).
 * Elsewhere it is created at once as
 * ".<basename><ext>.tmp-<host>-<pid>-<16 hex digits>" (O_CREAT | O_EXCL |
 * O_NOFOLLOW, so never through a planted link, never another run's file).
 * Either way that name goes to name, and an flock is held on the file
 * until it is closed, which tells a sweeping run the file is live.
 * Returns the descriptor, open for reading and writing, or -1 with errno
 * set. */
int ht_output_temporary_open(int dirfd, const char *basename, const char *ext, char *name,
                             size_t len, bool *unnamed);

/* Links an unnamed temporary file (fd) into dirfd under name; 0 or -1
 * with errno set. */
int ht_output_temporary_name(int fd, int dirfd, const char *name);

/* Removes the temporary files of this host's runs that are gone (the
 * rule is in temporary.c); dir names the folder in messages. */
void ht_output_sweep_stale(int dirfd, const char *dir);

/* While hooktrace writes, a file size limit makes write() fail with EFBIG
 * instead of killing the program with SIGXFSZ.  block saves the calling
 * thread's mask and whether SIGXFSZ was pending already; restore discards
 * a SIGXFSZ that hooktrace's own writes raised, then restores the mask. */
struct ht_xfsz_guard {
    sigset_t saved;
    bool pending_before;
    bool blocked;
};
void ht_output_xfsz_block(struct ht_xfsz_guard *g);
void ht_output_xfsz_restore(struct ht_xfsz_guard *g);

#endif
