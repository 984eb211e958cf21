#include "common/directory.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

int ht_make_directory(const char *directory)
{
    char path[PATH_MAX];
    size_t len = strlen(directory);
    if (len == 0 || len >= sizeof path) {
        errno = len ? ENAMETOOLONG : ENOENT;
        return -1;
    }
    memcpy(path, directory, len + 1);
    for (char *p = path + 1; ; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = saved;
        if (saved == '\0')
            break;
    }
    struct stat st;
    if (stat(directory, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}
