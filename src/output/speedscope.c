/* The speedscope file (https://www.speedscope.app/file-format-schema.json):
 * every distinct function once in shared.frames, then one "sampled"
 * profile per thread of the profile written (in an MPI summary, per
 * thread index summed over the ranks: the summary has no rank's own
 * exclusive times; the rank files named in mpi.rank_files have them).  Each stack the thread spent
 * time in is one sample, its path of frame indices root first, weighted by
 * the thread's exclusive time there in seconds: the profile carries no
 * timeline, so this is the exact form (speedscope's left-heavy and sandwich
 * views show it as it is; its time-order view shows the samples in stack
 * ID order).
 *
 * A stack of counted inlined copies (profile.h: calls, no time of its own)
 * is a sample of weight 0 on each thread that counted calls there, its
 * last frame "NAME [inlined]" (a frame of its own, beside NAME's): the
 * format has no calls, speedscope's importer accepts the weight and draws
 * nothing for it (it drops samples of weight 0), so the file says where
 * the copies were and the JSON profile how often.
 *
 * Paths are cut in the middle like the folded stacks' (room.h): a path
 * deeper than 32 + 32 + 3 frames keeps its first and last 32 with the
 * frame "[...]" between, so a 100,000-deep recursion still gives O(N)
 * bytes.  Written by hand, one sample at a time: nothing is built whole. */
#include <stdlib.h>

#include "config.h"
#include "output/function_index.h"
#include "output/output.h"
#include "output/room.h"

/* Every stack with time is a sample, however little (the folded file
 * leaves out those under 1 us), so paths are cut shorter than there. */
#define SPEEDSCOPE_PATH_HEAD 32
#define SPEEDSCOPE_PATH_TAIL 32
#define SPEEDSCOPE_SCHEMA "https://www.speedscope.app/file-format-schema.json"
#define INLINED_SUFFIX " [inlined]"

/* suffix: "", or what follows the name (INLINED_SUFFIX). */
static void write_frame(FILE *f, const char *name, const char *suffix, const char *file,
                        unsigned line)
{
    fputs("{\"name\":", f);
    ht_output_json_string_suffixed(f, name, suffix);
    if (file) {
        fputs(",\"file\":", f);
        ht_output_json_string(f, file);
    }
    if (line)
        fprintf(f, ",\"line\":%u", line);
    fputc('}', f);
}

/* In an MPI summary a thread index stands for that thread of every rank,
 * the figures summed: rank 0's tids and thread groups would misname it. */
static void write_profile_name(FILE *f, const struct ht_profile *p, int t, int summed_ranks)
{
    char name[512];
    const struct ht_thread_group *g = p->thread_groups ? &p->thread_groups[t] : NULL;
    if (summed_ranks > 0)
        snprintf(name, sizeof name, "thread %d, summed over %d ranks", t, summed_ranks);
    else if (g && g->threads)
        snprintf(name, sizeof name, "thread %d (%llu threads of %s)", t,
                 (unsigned long long)g->threads, g->start_routine);
    else if (p->thread_tids && p->thread_tids[t])
        snprintf(name, sizeof name, "thread %d (tid %ld)", t, (long)p->thread_tids[t]);
    else
        snprintf(name, sizeof name, "thread %d", t);
    ht_output_json_string(f, name);
}

enum sample { NO_SAMPLE, TIMED, COUNTED };

/* Whether stack i is a sample of thread t's profile, and which. */
static enum sample sample_of(const struct ht_profile *p, size_t i, int t)
{
    const struct ht_stack_stats *st = &p->stacks[i].per_thread[t];
    if (st->time_excl > 0.0)
        return TIMED;
    return p->stacks[i].inlined && st->calls ? COUNTED : NO_SAMPLE;
}

/* One thread's profile; false once the file system is nearly full.
 * frame_of[i]: stack i's frame; inlined_frame_of[i]: its "[inlined]" one. */
static bool write_thread(FILE *f, const struct ht_profile *p, int t,
                         const struct ht_path_cutter *cutter, const int *frame_of,
                         const int *inlined_frame_of, int elided_frame, int summed_ranks,
                         struct ht_output_room *room)
{
    double total = 0.0;
    for (size_t i = 0; i < p->nstacks; i++)
        if (p->stacks[i].per_thread[t].time_excl > 0.0)
            total += p->stacks[i].per_thread[t].time_excl;
    fputs("{\"type\":\"sampled\",\"name\":", f);
    write_profile_name(f, p, t, summed_ranks);
    fprintf(f, ",\"unit\":\"seconds\",\"startValue\":0,\"endValue\":%.9g,\n   \"samples\":[", total);
    int path[SPEEDSCOPE_PATH_HEAD + SPEEDSCOPE_PATH_TAIL + 3];
    bool first = true, room_left = true;
    size_t samples = 0;
    for (size_t i = 0; i < p->nstacks && room_left; i++) {
        enum sample kind = sample_of(p, i, t);
        if (kind == NO_SAMPLE)
            continue;
        if (!(room_left = ht_output_room_left(room, f, "speedscope file")))
            break;
        int elided;
        int frames = ht_path_cut(cutter, (int)i, path, &elided);
        fputs(first ? "\n    [" : ",\n    [", f);
        first = false;
        for (int d = 0; d < frames; d++) {
            if (elided && d == SPEEDSCOPE_PATH_HEAD)
                fprintf(f, ",%d", elided_frame);
            bool counted = kind == COUNTED && d == frames - 1;
            fprintf(f, d ? ",%d" : "%d", counted ? inlined_frame_of[i] : frame_of[path[d]]);
        }
        fputc(']', f);
        samples++;
    }
    /* The weights of the samples written, in the same order. */
    fputs("],\n   \"weights\":[", f);
    first = true;
    size_t written = 0;
    for (size_t i = 0; i < p->nstacks && written < samples; i++) {
        enum sample kind = sample_of(p, i, t);
        if (kind == NO_SAMPLE)
            continue;
        double w = kind == TIMED ? p->stacks[i].per_thread[t].time_excl : 0.0;
        fprintf(f, first ? "%.9g" : ",%.9g", w);
        first = false;
        written++;
    }
    fputs("]}", f);
    return room_left;
}

int ht_output_speedscope_write(FILE *f, const struct ht_profile *p, const struct ht_run_info *run,
                               int summed_ranks)
{
    /* fi: the functions' frames; inl: the "[inlined]" frames after them. */
    struct ht_function_index fi, inl;
    struct ht_path_cutter cutter;
    size_t n = p->nstacks ? p->nstacks : 1;
    int *frame_of = malloc(2 * n * sizeof *frame_of);
    int *inlined_frame_of = frame_of ? frame_of + n : NULL;
    bool ok = ht_function_index_init(&fi, p->nstacks);
    ok = ht_function_index_init(&inl, p->nstacks) && ok && frame_of; /* both freed below */
    bool cutter_ok = ok && ht_path_cutter_init(&cutter, p, SPEEDSCOPE_PATH_HEAD,
                                               SPEEDSCOPE_PATH_TAIL) == 0;
    if (!cutter_ok) {
        ht_function_index_free(&fi);
        ht_function_index_free(&inl);
        free(frame_of);
        return -1;
    }
    for (size_t i = 0; i < p->nstacks; i++)
        frame_of[i] = ht_function_index_of(&fi, p->stacks[i].function);
    for (size_t i = 0; i < p->nstacks; i++)
        inlined_frame_of[i] = p->stacks[i].inlined
                                  ? fi.count + ht_function_index_of(&inl, p->stacks[i].function)
                                  : -1;

    fputs("{\"$schema\":\"" SPEEDSCOPE_SCHEMA "\",\n \"exporter\":\"hooktrace " PACKAGE_VERSION
          "\",\n \"name\":", f);
    char title[4096];
    const char *command = run->command ? run->command : "hooktrace";
    if (summed_ranks > 0) /* the summary's threads are sums over ranks */
        snprintf(title, sizeof title, "%s (%d ranks, summed)", command, summed_ranks);
    ht_output_json_string(f, summed_ranks > 0 ? title : command);
    fputs(",\n \"activeProfileIndex\":0,\n \"shared\":{\"frames\":[", f);
    for (int k = 0; k < fi.count; k++) {
        fputs(k ? ",\n  " : "\n  ", f);
        write_frame(f, fi.list[k]->name, "", fi.list[k]->file, fi.list[k]->line);
    }
    for (int k = 0; k < inl.count; k++) {
        fputs(fi.count + k ? ",\n  " : "\n  ", f);
        write_frame(f, inl.list[k]->name, INLINED_SUFFIX, inl.list[k]->file, inl.list[k]->line);
    }
    /* The frame standing for the middle of a cut path: always there, last,
     * so that its index does not depend on the depth of the profile. */
    fputs(fi.count + inl.count ? ",\n  " : "\n  ", f);
    write_frame(f, "[...]", "", NULL, 0);
    fputs("]},\n \"profiles\":[", f);
    struct ht_output_room room;
    ht_output_room_init(&room, f);
    bool room_left = true;
    for (int t = 0; t < p->nthreads && room_left; t++) {
        fputs(t ? ",\n  " : "\n  ", f);
        room_left = write_thread(f, p, t, &cutter, frame_of, inlined_frame_of, fi.count + inl.count,
                                 summed_ranks, &room);
    }
    fputs("]}\n", f);
    ht_path_cutter_free(&cutter);
    ht_function_index_free(&fi);
    ht_function_index_free(&inl);
    free(frame_of);
    return 0;
}
