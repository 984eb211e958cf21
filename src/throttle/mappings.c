#define _GNU_SOURCE
#include "throttle/mappings.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_MAPPINGS 16384

/* All touched under patch.c's lock only. */
static struct ht_mapping *mappings; /* sorted by address, as the kernel lists them */
static size_t nmappings;

/* One pass over the file with raw reads, a character at a time through a
 * small state machine: no stdio, no allocation, safe in a signal handler. */
bool ht_mappings_load(void)
{
    if (!mappings) {
        void *p = mmap(NULL, MAX_MAPPINGS * sizeof *mappings, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return false;
        mappings = p;
    }
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    enum { LO, HI, PERMS, REST } state = LO;
    struct ht_mapping m = {0, 0, 0};
    int perm_index = 0;
    size_t n = 0;
    char buf[4096];
    ssize_t got;
    while ((got = read(fd, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < got; i++) {
            char c = buf[i];
            int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            switch (state) {
            case LO:
                if (digit >= 0)
                    m.lo = m.lo << 4 | (uintptr_t)digit;
                else if (c == '-')
                    state = HI;
                break;
            case HI:
                if (digit >= 0)
                    m.hi = m.hi << 4 | (uintptr_t)digit;
                else if (c == ' ')
                    state = PERMS;
                break;
            case PERMS:
                if (c == ' ') {
                    state = REST;
                    break;
                }
                if ((perm_index == 0 && c == 'r') || (perm_index == 1 && c == 'w') ||
                    (perm_index == 2 && c == 'x') || (perm_index == 3 && c == 'p'))
                    m.perms |= 1u << perm_index;
                perm_index++;
                break;
            case REST:
                break;
            }
            if (c == '\n') {
                if (n < MAX_MAPPINGS && m.hi > m.lo)
                    mappings[n++] = m;
                m = (struct ht_mapping){0, 0, 0};
                perm_index = 0;
                state = LO;
            }
        }
    }
    close(fd);
    nmappings = n;
    return n > 0;
}

const struct ht_mapping *ht_mapping_of(uintptr_t lo, uintptr_t hi)
{
    size_t a = 0, b = nmappings;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (mappings[mid].hi <= lo)
            a = mid + 1;
        else
            b = mid;
    }
    if (a < nmappings && mappings[a].lo <= lo && hi <= mappings[a].hi)
        return &mappings[a];
    return NULL;
}

bool ht_mapped(uintptr_t lo, uintptr_t hi, unsigned perms, bool *reloaded)
{
    const struct ht_mapping *m = ht_mapping_of(lo, hi);
    if (!m && !*reloaded) {
        *reloaded = true;
        if (ht_mappings_load())
            m = ht_mapping_of(lo, hi);
    }
    return m && (m->perms & perms) == perms;
}

void ht_mappings_forget(void)
{
    nmappings = 0;
}
