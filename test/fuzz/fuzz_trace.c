/* libFuzzer target: one input is one OTF2 archive, analysed as
 * hooktrace-analyze does (archive_read: OTF2's reader, then our rank map,
 * translation of non-blocking records, matching and warnings; then the
 * summary).  An archive is several files, so the input is a list of them:
 *
 *     @@HT:traces.otf2\n<bytes>@@HT:traces.def\n<bytes>@@HT:traces/100.evt\n...
 *
 * Only the names traces.otf2, traces.def and traces/<digits>.evt|.def are
 * written (into a private temporary directory, emptied before each input),
 * so a mutated name never writes elsewhere.  scripts/fuzz.sh builds it;
 * test/fuzz/pack_trace.py makes seeds from archives; docs/fuzzing.md.
 *
 * The anchor file (traces.otf2) is read by OTF2 alone, and a damaged one
 * keeps OTF2 busy for minutes or asks it for gigabytes (the first runs
 * found nothing else).  With HT_FUZZ_ANCHORS naming a folder of valid
 * anchors (test/fuzz/anchors; scripts/fuzz.sh sets it), an input whose
 * anchor is not byte for byte one of them is skipped, so the time goes to
 * the definitions and events, which reach our code. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/analysis.h"
#include "analyze/archive.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char marker[] = "@@HT:";
static char dir[64];

#define MAX_ANCHORS 32
static struct {
    uint8_t *bytes;
    size_t len;
} anchors[MAX_ANCHORS];
static int nanchors = -1; /* -1: not loaded; 0: any anchor is fuzzed */

static void load_anchors(void)
{
    nanchors = 0;
    const char *folder = getenv("HT_FUZZ_ANCHORS");
    DIR *d = folder ? opendir(folder) : NULL;
    if (!d)
        return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) && nanchors < MAX_ANCHORS) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        uint8_t buf[4096];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        anchors[nanchors].bytes = malloc(n ? n : 1);
        memcpy(anchors[nanchors].bytes, buf, n);
        anchors[nanchors++].len = n;
    }
    closedir(d);
}

static int known_anchor(const uint8_t *bytes, size_t len)
{
    for (int i = 0; i < nanchors; i++)
        if (anchors[i].len == len && memcmp(anchors[i].bytes, bytes, len) == 0)
            return 1;
    return 0;
}

static int valid_name(const char *name, size_t len)
{
    if ((len == 11 && memcmp(name, "traces.otf2", 11) == 0)
        || (len == 10 && memcmp(name, "traces.def", 10) == 0))
        return 1;
    if (len < 12 || len > 27 || memcmp(name, "traces/", 7) != 0)
        return 0;
    size_t digits = 0;
    while (7 + digits < len && name[7 + digits] >= '0' && name[7 + digits] <= '9')
        digits++;
    return digits > 0 && len == 7 + digits + 4
           && (memcmp(name + len - 4, ".evt", 4) == 0 || memcmp(name + len - 4, ".def", 4) == 0);
}

static void empty_dir(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return;
    struct dirent *e;
    char file[256];
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        unlink(file);
    }
    closedir(d);
}

static void write_file(const char *name, size_t namelen, const uint8_t *bytes, size_t len)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%.*s", dir, (int)namelen, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    if (len)
        fwrite(bytes, 1, len, f);
    fclose(f);
}

static const uint8_t *find_marker(const uint8_t *from, const uint8_t *end)
{
    size_t m = sizeof marker - 1;
    for (const uint8_t *p = from; p + m <= end; p++)
        if (memcmp(p, marker, m) == 0)
            return p;
    return end;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (nanchors < 0)
        load_anchors();
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/ht-fuzz-trace-XXXXXX");
        if (!mkdtemp(dir))
            abort();
        char traces[96];
        snprintf(traces, sizeof traces, "%s/traces", dir);
        mkdir(traces, 0700);
    }
    char traces[96];
    snprintf(traces, sizeof traces, "%s/traces", dir);
    empty_dir(traces);
    empty_dir(dir);
    mkdir(traces, 0700);

    const uint8_t *end = data + size;
    const uint8_t *p = find_marker(data, end);
    while (p < end) {
        const uint8_t *name = p + sizeof marker - 1;
        const uint8_t *nl = memchr(name, '\n', (size_t)(end - name));
        if (!nl)
            break;
        const uint8_t *body = nl + 1;
        const uint8_t *next = find_marker(body, end);
        if (nanchors > 0 && nl - name == 11 && memcmp(name, "traces.otf2", 11) == 0
            && !known_anchor(body, (size_t)(next - body)))
            return 0;
        if (valid_name((const char *)name, (size_t)(nl - name)))
            write_file((const char *)name, (size_t)(nl - name), body, (size_t)(next - body));
        p = next;
    }

    char anchor[128], err[1024];
    snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
    struct analysis a;
    analysis_init(&a, 2, NULL);
    if (archive_read(&a, anchor, 0, 1, err, sizeof err) == 0)
        analysis_finish(&a);
    analysis_free(&a);
    return 0;
}
