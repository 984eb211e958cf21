/* Source paths as a reader wants them: the compiler records a file as it
 * was named on its command line ("../../src/x.c", "./x.c"), relative to
 * the compile unit's DW_AT_comp_dir.  Joined with that directory and
 * normalised lexically ("a/b/../c" -> "a/c"), without asking the file
 * system: the file need not exist where the profile is made, and a
 * symbolic link is left as it was written. */
#include "symbols/internal.h"

#include <stdlib.h>
#include <string.h>

char *ht_path_normal(struct ht_strpool *pool, const char *dir, const char *name)
{
    bool join = name[0] != '/' && dir && dir[0];
    size_t dlen = join ? strlen(dir) : 0, nlen = strlen(name);
    char *joined = malloc(dlen + 1 + nlen + 1);
    if (!joined)
        return NULL;
    if (join) {
        memcpy(joined, dir, dlen);
        joined[dlen] = '/';
        memcpy(joined + dlen + 1, name, nlen + 1);
    } else {
        memcpy(joined, name, nlen + 1);
    }
    /* out is written behind the reading position, never ahead of it:
     * each component kept is copied down; ".." takes the last one back. */
    bool absolute = joined[0] == '/';
    char *out = joined + absolute;
    size_t used = 0, kept = 0; /* kept: components that ".." may remove */
    for (const char *p = joined + absolute; *p;) {
        const char *end = strchr(p, '/');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0 || (len == 1 && p[0] == '.')) {
            /* "//" or "./": nothing */
        } else if (len == 2 && p[0] == '.' && p[1] == '.') {
            if (kept > 0) {
                while (used > 0 && out[used - 1] != '/')
                    used--;
                used -= used > 0; /* the separator before it */
                kept--;
            } else if (!absolute) { /* above where a relative path starts */
                if (used)
                    out[used++] = '/';
                memcpy(out + used, "..", 2);
                used += 2;
            } /* above the root is the root */
        } else {
            if (used)
                out[used++] = '/';
            memmove(out + used, p, len);
            used += len;
            kept++;
        }
        p += len + (end != NULL);
    }
    out[used] = '\0';
    const char *result = used ? joined : absolute ? "/" : ".";
    char *copy = ht_strpool_dup(pool, result);
    free(joined);
    return copy;
}
