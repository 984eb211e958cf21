/* Counters through PAPI.
 *
 * Two kinds of events.  A software-defined event ("sde:::LIB::name") is a
 * value of the process: PAPI's SDE component rebases every SDE event
 * whenever any event set holding one starts, so one event set holds them
 * all for the whole process, started once at start-up, and every thread
 * reads it (under a spin lock, since PAPI_read writes into the set).  Any
 * other event (perf::..., PAPI_TOT_INS, ...) counts the thread that
 * started it: each thread gets its own event set, created the first time
 * it records. */
#include <papi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/clock.h"
#include "counters/counters.h"

static struct ht_counters_info info;
static bool configured; /* the config named events */

/* Where the kept events are read: process[k] true for SDE events.  The
 * process set reads them in the order they were added, as does each
 * thread's set the others; slot[] maps both back to the config's order. */
static bool process[HT_CONFIG_MAX_COUNTERS];
static unsigned nprocess, nthread;
static int process_set = PAPI_NULL;
static int process_lock;
static char version[32];

/* Per thread: its event set (PAPI_NULL if it has no per-thread event or
 * could not make one) and the scratch the reads go to. */
struct counter_thread {
    pthread_t owner; /* the thread the set counts (a finished thread's
                        state may be taken over by another: thread_reuse.c) */
    int set;
    long long process_values[HT_CONFIG_MAX_COUNTERS];
    long long thread_values[HT_CONFIG_MAX_COUNTERS];
    /* ticks spent in reads so far (ht_node_read_ticks) */
    uint64_t read_ticks;
};

static bool is_sde(const char *event)
{
    return strncmp(event, "sde:::", 6) == 0;
}

/* PAPI's message for rc: PAPI_strerror gives NULL for a code it does not
 * know (a newer library's, or a version number). */
static const char *papi_error(int rc)
{
    const char *text = PAPI_strerror(rc);
    return text ? text : "unknown error";
}

/* Says something at most once in the process (flag: its own), for what
 * goes wrong on a thread or a read after start-up: that process's counts
 * are the ones it touches, so it speaks for itself. */
static void say_once(int *flag, const char *what, int rc)
{
    if (!__atomic_exchange_n(flag, 1, __ATOMIC_RELAXED))
        fprintf(stderr, "hooktrace: counters: %s (PAPI: %s)\n", what, papi_error(rc));
}

/* Why PAPI refused event: the component's reason when the component the
 * event belongs to is disabled (PAPI itself often just says the event does
 * not exist), else PAPI's message for rc. */
static void explain(const char *event, int rc, char *out, size_t size)
{
    /* The component prefix: "perf" of "perf::TASK-CLOCK", "sde" of
     * "sde:::X::y"; a preset (PAPI_TOT_INS) or a bare native name belongs
     * to the CPU component, the first. */
    const char *colon = strstr(event, "::");
    size_t plen = colon ? (size_t)(colon - event) : 0;
    if (!colon && rc != PAPI_ECMP_DISABLED) {
        /* A name PAPI has no code for is unknown, and said with the
         * lookup's error: PAPI_add_named_event's for it differs with the
         * components active (PAPI 7.0: "Not supported", or "Not supported
         * by component" where perf_event is), the lookup's does not.  A
         * preset PAPI knows has a code even where no counter of this
         * machine can count it (a VM without a PMU); papi_avail lists what
         * the machine has.  Any other error (PAPI_ENOMEM...) is not the
         * name's: the component's or PAPI's, below. */
        int code;
        int known = PAPI_event_name_to_code(event, &code);
        if (known != PAPI_OK) {
            snprintf(out, size, "unknown event (PAPI: %s)", papi_error(known));
            return;
        }
        if (rc == PAPI_ENOEVNT) {
            snprintf(out, size, "exists but is not available on this machine (see papi_avail)");
            return;
        }
    }
    int ncomp = PAPI_num_components();
    for (int c = 0; c < ncomp; c++) {
        const PAPI_component_info_t *ci = PAPI_get_component_info(c);
        if (!ci)
            continue;
        bool owns = colon ? plen > 0 && strncmp(ci->name, event, plen) == 0 : c == 0;
        if (!owns)
            continue;
        if (ci->disabled) {
            snprintf(out, size, "the %s component is disabled: %s", ci->name,
                     ci->disabled_reason[0] ? ci->disabled_reason : papi_error(ci->disabled));
            return;
        }
        break;
    }
    snprintf(out, size, "PAPI cannot read it: %s", papi_error(rc));
}

static void drop(const char *event, const char *reason)
{
    struct ht_counter_unavailable *u = &info.unavailable[info.nunavailable++];
    u->event = event;
    u->reason = strdup(reason);
    if (!u->reason)
        u->reason = "out of memory";
    if (ht_counters_speaks_for_job())
        fprintf(stderr, "hooktrace: counter %s: %s; not counted\n", event, reason);
}

/* HOOKTRACE_PAPI_DISABLE=perf_event,...: components PAPI is to leave off,
 * so that a machine that has them can run what one without them does (the
 * tests force the no-perf-events branch this way; docs/counters.md).  Only
 * before PAPI_library_init. */
static void disable_components(void)
{
    const char *list = getenv("HOOKTRACE_PAPI_DISABLE");
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ",");
        char name[64];
        if (n > 0) {
            bool fits = n < sizeof name;
            if (fits) {
                memcpy(name, p, n);
                name[n] = '\0';
            }
            if ((!fits || PAPI_disable_component_by_name(name) != PAPI_OK) &&
                ht_counters_speaks_for_job())
                fprintf(stderr, "hooktrace: HOOKTRACE_PAPI_DISABLE: PAPI has no component"
                                " named %.*s\n", (int)n, p);
        }
        p += n + (p[n] == ',');
    }
}

uint32_t ht_counters_setup(const struct ht_config *cfg)
{
    const struct ht_string_list *names = &cfg->counters;
    if (names->count == 0)
        return 0;
    configured = true;
    snprintf(version, sizeof version, "%d.%d.%d.%d", PAPI_VERSION_MAJOR(PAPI_VERSION),
             PAPI_VERSION_MINOR(PAPI_VERSION), PAPI_VERSION_REVISION(PAPI_VERSION),
             PAPI_VERSION_INCREMENT(PAPI_VERSION));
    info.papi_version = version;
    disable_components();
    int rc = PAPI_library_init(PAPI_VER_CURRENT);
    if (rc == PAPI_VER_CURRENT)
        rc = PAPI_thread_init(pthread_self);
    if (rc != PAPI_OK) {
        char why[256];
        if (rc > 0) /* the library loaded is another version than PAPI_VERSION */
            snprintf(why, sizeof why, "PAPI could not start: its library is version %d.%d, "
                     "hooktrace was built with %d.%d", PAPI_VERSION_MAJOR(rc),
                     PAPI_VERSION_MINOR(rc), PAPI_VERSION_MAJOR(PAPI_VERSION),
                     PAPI_VERSION_MINOR(PAPI_VERSION));
        else
            snprintf(why, sizeof why, "PAPI could not start: %s", papi_error(rc));
        for (unsigned i = 0; i < names->count; i++)
            drop(names->items[i], why);
        return 0;
    }
    /* Each event alone on a test set, so that one bad event's reason is
     * its own; the good ones then go to the process set, or to `combined`,
     * the set every thread's repeats: an event the counters before it
     * leave no room for (hardware counters are few) is dropped here, not
     * left to count 0 on every thread. */
    int combined = PAPI_NULL;
    int combined_rc = PAPI_create_eventset(&combined);
    if (combined_rc != PAPI_OK)
        combined = PAPI_NULL;
    for (unsigned i = 0; i < names->count; i++) {
        const char *event = names->items[i];
        bool duplicate = false;
        for (unsigned k = 0; k < info.nevents; k++)
            duplicate |= strcmp(info.events[k], event) == 0;
        if (duplicate) {
            drop(event, "named twice");
            continue;
        }
        int test = PAPI_NULL;
        rc = PAPI_create_eventset(&test);
        if (rc == PAPI_OK)
            rc = PAPI_add_named_event(test, event);
        if (test != PAPI_NULL) {
            PAPI_cleanup_eventset(test);
            PAPI_destroy_eventset(&test);
        }
        if (rc != PAPI_OK) {
            char why[1280]; /* PAPI's names and reasons fit (at most 1179) */
            explain(event, rc, why, sizeof why);
            drop(event, why);
            continue;
        }
        if (is_sde(event)) {
            if (process_set == PAPI_NULL && (rc = PAPI_create_eventset(&process_set)) != PAPI_OK)
                process_set = PAPI_NULL;
            if (process_set == PAPI_NULL ||
                (rc = PAPI_add_named_event(process_set, event)) != PAPI_OK) {
                char why[256];
                snprintf(why, sizeof why, "PAPI cannot read it: %s", papi_error(rc));
                drop(event, why);
                continue;
            }
            nprocess++;
        } else {
            rc = combined == PAPI_NULL ? combined_rc : PAPI_add_named_event(combined, event);
            if (rc != PAPI_OK) {
                char why[256];
                if (combined == PAPI_NULL)
                    snprintf(why, sizeof why, "PAPI cannot read it: %s", papi_error(rc));
                else
                    snprintf(why, sizeof why, "cannot be counted together with the events "
                                              "before it (PAPI: %s)", papi_error(rc));
                drop(event, why);
                continue;
            }
            nthread++;
        }
        process[info.nevents] = is_sde(event);
        info.events[info.nevents++] = event;
    }
    if (combined != PAPI_NULL) {
        PAPI_cleanup_eventset(combined);
        PAPI_destroy_eventset(&combined);
    }
    if (nprocess > 0 && (rc = PAPI_start(process_set)) != PAPI_OK) {
        /* the sde::: events are dropped, each with its line; the others,
         * on their own sets, are kept */
        char why[256];
        snprintf(why, sizeof why, "PAPI could not start the sde::: events (PAPI: %s)",
                 papi_error(rc));
        unsigned kept = 0;
        for (unsigned k = 0; k < info.nevents; k++) {
            if (process[k]) {
                drop(info.events[k], why);
                continue;
            }
            process[kept] = false;
            info.events[kept++] = info.events[k];
        }
        info.nevents = kept;
        nprocess = 0;
    }
    return info.nevents;
}

const struct ht_counters_info *ht_counters_info(void)
{
    return configured ? &info : NULL;
}

/* The thread's data and set, made on its first recorded call (mmap and
 * PAPI's own locks: once per thread, never again). */
static struct counter_thread *thread_data(struct ht_thread *t)
{
    struct counter_thread *ct = t->counters;
    if (__builtin_expect(ct != NULL, 1)) {
        if (nthread == 0 || pthread_equal(ct->owner, pthread_self()))
            return ct;
        /* A reused state: the old set counts a thread that ended (PAPI
         * keeps it; it is not ours to stop from here).  A new one. */
    } else {
        /* mmap'ed like the thread's state, which points to it and outlives
         * the thread (and which LeakSanitizer does not scan) */
        ct = mmap(NULL, sizeof *ct, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (ct == MAP_FAILED) {
            t->counting = 0; /* no memory: this thread goes on without */
            return NULL;
        }
    }
    ct->owner = pthread_self();
    ct->set = PAPI_NULL;
    if (nthread > 0) {
        int rc = PAPI_register_thread();
        if (rc == PAPI_OK)
            rc = PAPI_create_eventset(&ct->set);
        for (unsigned k = 0; rc == PAPI_OK && k < info.nevents; k++)
            if (!process[k])
                rc = PAPI_add_named_event(ct->set, info.events[k]);
        if (rc == PAPI_OK)
            rc = PAPI_start(ct->set);
        if (rc != PAPI_OK) {
            if (ct->set != PAPI_NULL) {
                PAPI_cleanup_eventset(ct->set);
                PAPI_destroy_eventset(&ct->set);
            }
            ct->set = PAPI_NULL; /* its per-thread events stay 0 */
            static int said;
            say_once(&said, "PAPI could not start the events of a thread: that thread's "
                            "counts of all but the sde::: events stay 0", rc);
        }
    }
    t->counters = ct;
    return ct;
}

/* Set while this thread is inside PAPI: an SDE callback counter runs the
 * program's own code, whose hooks must not read again (the process set's
 * lock is held) and whose calls are recorded without counts. */
static __thread bool reading __attribute__((tls_model("initial-exec")));

static bool read_inner(struct ht_thread *t, long long *out);

/* The events' values now, in the config's order.  A read of a thread's
 * own events (perf events, presets) goes through the kernel, a system call
 * of about a microsecond: its time is added to the thread's running total.
 * SDE events alone are read in user space in some 20 ns, no more than a
 * hook pair, whose cost is not taken out either: the two clock reads would
 * double theirs. */
static bool read_now(struct ht_thread *t, long long *out)
{
    if (reading)
        return false;
    reading = true;
    struct counter_thread *ct = t->counters;
    bool timed = ct && ct->set != PAPI_NULL;
    uint64_t start = timed ? ht_clock_now() : 0;
    bool ok = read_inner(t, out);
    if (timed)
        ct->read_ticks += ht_clock_now() - start;
    reading = false;
    return ok;
}

static uint64_t read_ticks_so_far(const struct ht_thread *t)
{
    const struct counter_thread *ct = t->counters;
    return ct ? ct->read_ticks : 0;
}

#define READ_FAILED "a read of the events failed: the calls it was for are left out of the counts"

static bool read_inner(struct ht_thread *t, long long *out)
{
    struct counter_thread *ct = thread_data(t);
    if (!ct)
        return false;
    static int said;
    if (nprocess > 0) {
        while (__atomic_exchange_n(&process_lock, 1, __ATOMIC_ACQUIRE))
            __builtin_ia32_pause();
        int rc = PAPI_read(process_set, ct->process_values);
        __atomic_store_n(&process_lock, 0, __ATOMIC_RELEASE);
        if (rc != PAPI_OK) {
            say_once(&said, READ_FAILED, rc);
            return false;
        }
    }
    int rc;
    if (ct->set != PAPI_NULL && (rc = PAPI_read(ct->set, ct->thread_values)) != PAPI_OK) {
        say_once(&said, READ_FAILED, rc);
        return false;
    }
    unsigned p = 0, h = 0;
    for (unsigned k = 0; k < info.nevents; k++)
        out[k] = process[k] ? ct->process_values[p++]
                            : (ct->set != PAPI_NULL ? ct->thread_values[h++] : 0);
    return true;
}

/* In a node's first entry word: its call's entry could not be read (no
 * count is that low). */
#define NOT_READ INT64_MIN

void ht_counters_entered(struct ht_thread *t, struct ht_node *n)
{
    long long v[HT_CONFIG_MAX_COUNTERS];
    /* the call's time began before this read: it is one of the call's */
    if (t->tree.counters)
        ht_node_read_ticks(n, t->tree.counters)[1] = (int64_t)read_ticks_so_far(t);
    int64_t *w = ht_node_counters(n) + t->tree.counters;
    if (!read_now(t, v)) {
        if (t->tree.counters)
            w[0] = NOT_READ; /* the exit adds nothing for this call */
        return;
    }
    for (unsigned k = 0; k < t->tree.counters; k++)
        w[k] = v[k];
}

void ht_counters_left(struct ht_thread *t, struct ht_node *n)
{
    long long v[HT_CONFIG_MAX_COUNTERS];
    bool ok = read_now(t, v);
    uint32_t K = t->tree.counters;
    if (!K)
        return; /* no words behind the node (counting implies some) */
    int64_t *r = ht_node_read_ticks(n, K);
    r[0] += (int64_t)read_ticks_so_far(t) - r[1];
    int64_t *w = ht_node_counters(n);
    if (!ok || w[K] == NOT_READ)
        return;
    for (unsigned k = 0; k < K; k++)
        w[k] += v[k] - w[K + k];
}

void ht_counters_close_open(struct ht_thread *t)
{
    if (!t || !t->counting || !t->tree.counters)
        return;
    for (struct ht_node *n = t->tree.current; n && n != &t->tree.root; n = n->parent)
        ht_counters_left(t, n);
}
