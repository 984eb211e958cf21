/* Libraries closed with dlclose while the program ran.
 *
 * Names are found at shut-down, when dl_iterate_phdr no longer lists a
 * closed library, so its recorded addresses would show as raw numbers.
 * Just before the C library's dlclose runs (src/runtime/libraries.c), the
 * library's path, load bias and segments are noted here, and its file is
 * kept open: at shut-down ht_symbols_open adds it back to the objects it
 * knows, and reads it through /proc/self/fd, so a file deleted or replaced
 * after dlclose still gives its names.  dlclose is rare and never on the
 * hot path: a mutex and malloc are fine here.
 *
 * Only a library that calls the hooks can have recorded functions: the
 * others (the dozens of components an MPI library opens and closes at
 * MPI_Init) are not noted, and no descriptor stays open for them.  A kept
 * descriptor is close-on-exec and moved above the numbers a program uses
 * (its own loops over low numbers, a daemon's close-everything), and is
 * used at shut-down only if it still is the file noted (device, inode). */
#define _GNU_SOURCE
#include "symbols/symbols.h"
#include "symbols/internal.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* A program that opens and closes many different libraries keeps at most
 * this many files open for us; later ones are not noted (their addresses
 * then show as raw numbers, as without this list). */
#define MAX_CLOSED HT_CLOSED_MAX

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ht_closed_object closed[MAX_CLOSED];
static size_t nclosed;

struct find {
    uintptr_t bias;
    const char *name;
    struct ht_closed_object *out;
    int found;
};

/* The library's loadable segments, as dl_iterate_phdr sees them. */
static int find_segments(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct find *f = arg;
    (void)size;
    if ((uintptr_t)info->dlpi_addr != f->bias || !info->dlpi_name ||
        strcmp(info->dlpi_name, f->name) != 0)
        return 0;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum && f->out->nsegments < HT_CLOSED_SEGMENTS; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
            continue;
        uintptr_t start = f->bias + (uintptr_t)ph->p_vaddr;
        f->out->segments[f->out->nsegments][0] = start;
        f->out->segments[f->out->nsegments][1] = start + (uintptr_t)ph->p_memsz;
        f->out->nsegments++;
    }
    f->found = 1;
    return 1;
}

/* dev and ino are 0 for a file that could not be opened. */
static bool same_file(const struct ht_closed_object *old, const char *path,
                      const struct ht_closed_object *c)
{
    return old->bias == c->bias && strcmp(old->path, path) == 0 && old->dev == c->dev &&
           old->ino == c->ino;
}

/* fd moved to the upper half of the descriptor limit (at most from 512
 * up), close-on-exec; fd itself if there is no room there. */
static int out_of_the_way(int fd)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur < 64)
        return fd;
    rlim_t floor = limit.rlim_cur / 2 < 512 ? limit.rlim_cur / 2 : 512;
    if ((rlim_t)fd >= floor)
        return fd;
    int high = fcntl(fd, F_DUPFD_CLOEXEC, (int)floor);
    if (high < 0)
        return fd;
    close(fd);
    return high;
}

void ht_symbols_note_closing(void *handle)
{
    struct link_map *lm = NULL;
    if (!handle || dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_name ||
        !lm->l_name[0])
        return; /* the executable, or not a handle */
    struct ht_closed_object c = {.bias = (uintptr_t)lm->l_addr, .fd = -1};
    struct find f = {c.bias, lm->l_name, &c, 0};
    pthread_mutex_lock(&lock);
    dl_iterate_phdr(find_segments, &f);
    if (!f.found || c.nsegments == 0)
        goto out;
    /* The same library closed again at the same place (a dlopen/dlclose
     * loop) is noted once. */
    int fd = open(lm->l_name, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) != 0) {
        close(fd);
        fd = -1;
    }
    if (fd >= 0 && !ht_symbols_imports_hooks(fd)) {
        close(fd);
        goto out;
    }
    if (fd >= 0) {
        c.dev = (uint64_t)st.st_dev;
        c.ino = (uint64_t)st.st_ino;
        fd = out_of_the_way(fd);
    }
    for (size_t i = 0; i < nclosed; i++) {
        if (same_file(&closed[i], lm->l_name, &c)) {
            if (fd >= 0)
                close(fd);
            goto out;
        }
    }
    if (nclosed == MAX_CLOSED || !(c.path = strdup(lm->l_name))) {
        if (fd >= 0)
            close(fd);
        goto out;
    }
    c.fd = fd; /* -1: the file is gone already; the name is kept all the same */
    closed[nclosed++] = c;
out:
    pthread_mutex_unlock(&lock);
}

size_t ht_closed_objects(struct ht_closed_object *out, size_t max)
{
    pthread_mutex_lock(&lock);
    size_t n = nclosed < max ? nclosed : max;
    /* Newest first: where two closed libraries used the same addresses,
     * the later one is the likelier owner of what was recorded there. */
    for (size_t i = 0; i < n; i++)
        out[i] = closed[nclosed - 1 - i];
    pthread_mutex_unlock(&lock);
    return n;
}
