/* The directory the program's own sources share, so that the logfile can
 * print "src/solver.c:12" under one "source root:" line instead of the
 * same long prefix on every function.  The symbols module gives absolute,
 * normalised paths (docs/symbols.md, "File and line"); files under the
 * system's directories (/usr, /lib: headers inlined into the program, a
 * library's own sources) are not the program's and would pull the root up
 * to "/", so they are left out, and shown in full. */
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

static bool is_system(const char *file)
{
    static const char *const prefixes[] = {"/usr/", "/lib/", "/lib32/", "/lib64/"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (strncmp(file, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
    return false;
}

/* Length of the longest directory prefix of file that is also one of
 * root[0, len), component by component ("/a/bc" and "/a/b" share "/a"). */
static size_t common_dir(const char *root, size_t len, const char *file)
{
    size_t i = 0, dir_end = 0;
    while (i < len && file[i] && root[i] == file[i]) {
        if (file[i] == '/')
            dir_end = i;
        i++;
    }
    /* root itself is a directory: all of it is shared if file goes on
     * below it */
    if (i == len && file[i] == '/')
        dir_end = len;
    return dir_end;
}

char *ht_output_source_root(const struct ht_profile *p)
{
    const char *root = NULL;
    size_t len = 0;
    for (size_t i = 0; i < p->nstacks; i++) {
        const char *file = p->stacks[i].function->file;
        if (!file || file[0] != '/' || is_system(file))
            continue;
        if (!root) {
            root = file;
            len = (size_t)(strrchr(file, '/') - file);
        } else {
            len = common_dir(root, len, file);
        }
    }
    /* "/" alone (len 0) shortens nothing */
    if (!root || len == 0)
        return NULL;
    char *out = malloc(len + 1);
    if (out) {
        memcpy(out, root, len);
        out[len] = '\0';
    }
    return out;
}

const char *ht_output_relative(const char *file, const char *root)
{
    size_t len = root ? strlen(root) : 0;
    if (file && len && strncmp(file, root, len) == 0 && file[len] == '/')
        return file + len + 1;
    return file;
}
