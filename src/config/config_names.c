/* The rules for option values that name files and folders. */
#include <stdlib.h>
#include <string.h>

#include "config/config_internal.h"
#include "config/config_load.h"

int ht_config_check_directory(struct ht_config_load *ld, const char *value)
{
    if (!*value)
        return ht_config_fail_at(ld, " must not be empty; use \".\" for the current directory");
    return 0;
}

int ht_config_check_basename(struct ht_config_load *ld, const char *value)
{
    if (!*value)
        return ht_config_fail_at(ld, " must not be empty; leave it out to name the files after the "
                                     "executable");
    if (strchr(value, '/')) {
        char q[256];
        ht_config_quote(q, sizeof q, value);
        return ht_config_fail_at(ld,
                                 " must be a file name without '/', not %s; put the directory in "
                                 "\"output_directory\"",
                                 q);
    }
    char q[256];
    ht_config_quote(q, sizeof q, value);
    /* "." and ".." make files named ".log", "..json": hidden, and ".."
     * reads as the parent folder to every tool that lists them. */
    if (strcmp(value, ".") == 0 || strcmp(value, "..") == 0)
        return ht_config_fail_at(ld, " must be a plain file name, not %s (the files would be "
                                     "hidden and named like the folder itself or its parent)",
                                 q);
    if (strlen(value) > HT_CONFIG_BASENAME_MAX)
        return ht_config_fail_at(ld,
                                 " is %zu bytes long: at most %d, so that every file name made "
                                 "from it (rank, concurrent-run suffix, \".speedscope.json\") "
                                 "stays within the file system's limit of 255 bytes",
                                 strlen(value), HT_CONFIG_BASENAME_MAX);
    return 0;
}

/* trace.name is a folder made inside trace.folder, and an archive of that
 * name already there is replaced (its files deleted): "." or ".." would
 * put the archive in trace.folder itself or in its parent and delete
 * files of the same names there.  Control characters make names nobody
 * can type. */
int ht_config_check_trace_name(struct ht_config_load *ld, const char *value)
{
    char q[256];
    ht_config_quote(q, sizeof q, value);
    if (strcmp(value, ".") == 0 || strcmp(value, "..") == 0)
        return ht_config_fail_at(ld,
                                 " must be a plain file name, not %s: the archive's folder would "
                                 "be \"trace.folder\" itself or its parent",
                                 q);
    if (ht_config_check_basename(ld, value) != 0)
        return -1;
    for (const char *c = value; *c; c++) {
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            return ht_config_fail_at(ld, " must be a file name without control characters, not %s",
                                     q);
    }
    return 0;
}

/* Score-P's tools read a filter file relative to the working directory;
 * here the config file's directory is taken, so that a config and its
 * filter file can be moved together and every rank of a job finds it
 * whatever its working directory. */
int ht_config_load_filter_file(struct ht_config_load *ld, const char *value)
{
    if (!*value)
        return ht_config_fail_at(ld, " must not be empty; leave it out to filter nothing");
    char *path = NULL;
    const char *slash = ld->file ? strrchr(ld->file, '/') : NULL;
    if (value[0] != '/' && slash) {
        size_t dir = (size_t)(slash - ld->file) + 1;
        path = malloc(dir + strlen(value) + 1);
        if (!path)
            return ht_config_out_of_memory(ld);
        memcpy(path, ld->file, dir);
        strcpy(path + dir, value);
    }
    struct ht_region_filter f;
    char err[1024];
    int rc = ht_region_filter_load(&f, path ? path : value, err, sizeof err);
    free(path);
    if (rc != 0)
        return ht_config_fail_at(ld, ": %s", err);
    ht_region_filter_free(&ld->cfg->region_filter);
    ld->cfg->region_filter = f;
    return 0;
}
