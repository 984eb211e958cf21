/* A stand-in for libpapi, for the tests only (test/integration/papi_states.py,
 * docs/counters.md "What PAPI finds"): it exports the PAPI functions
 * src/counters/counters_papi.c calls, and HT_PAPI_STUB, a comma-separated
 * list of words, chooses what it finds, so that every state hooktrace
 * handles runs on any machine, whatever the real PAPI finds there:
 *
 *   init_fails          PAPI_library_init fails (PAPI_ESYS)
 *   other_version       PAPI_library_init returns another version's number
 *   thread_init_fails   PAPI_thread_init fails (PAPI_ENOSUPP)
 *   perf_disabled       the perf_event component is disabled, with a reason
 *   perf_disabled_quiet ... with no reason (PAPI_ECMP_DISABLED)
 *   pmu                 presets (PAPI_TOT_INS, PAPI_TOT_CYC) can be counted
 *   paranoid            an event with the kernel's domain (:k=1) is refused
 *   counters=N          at most N perf events and presets on one event set
 *   create_fails        PAPI_create_eventset fails (PAPI_ENOMEM)
 *   sde_start_fails     PAPI_start fails on a set holding sde::: events
 *   thread_start_fails  PAPI_start fails on a thread's set, but for the
 *                       thread that initialised PAPI
 *   register_fails      PAPI_register_thread fails, but for that thread
 *   read_fails=N        every Nth read of each event set fails (PAPI_ESYS)
 *
 * Nothing (HT_PAPI_STUB unset or empty): the perf_event component is
 * active, its software events (perf::TASK-CLOCK, perf::PAGE-FAULTS,
 * perf::CONTEXT-SWITCHES) and the stub's own sde:::STUB::a and
 * sde:::STUB::b can be counted, presets exist but cannot (no hardware
 * PMU).  Counting is deterministic: every read of an event set adds one
 * step to each of its events, whose step is the event's own (1000 for the
 * task clock, 3 for page faults...), so a call's inclusive count is its
 * step times the reads from its entry to its exit, and those reads are
 * hooktrace's own: one at each recorded entry and exit. */
#include <papi.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A program built with -finstrument-functions everywhere (CI's ASan stage)
 * must not find PAPI's functions among its own. */
#define NOINSTR __attribute__((no_instrument_function))

enum { PERF_EVENT, UNCORE, SDE, SYSDETECT, NCOMPONENTS };

static const struct stub_event {
    const char *name;
    int component;
    long long step; /* added by every read */
    bool preset;
} events[] = {
    {"perf::TASK-CLOCK", PERF_EVENT, 1000, false},
    {"perf::PAGE-FAULTS", PERF_EVENT, 3, false},
    {"perf::CONTEXT-SWITCHES", PERF_EVENT, 1, false},
    {"PAPI_TOT_INS", PERF_EVENT, 100, true},
    {"PAPI_TOT_CYC", PERF_EVENT, 300, true},
    {"sde:::STUB::a", SDE, 1, false},
    {"sde:::STUB::b", SDE, 7, false},
};
#define NEVENTS (int)(sizeof events / sizeof *events)
#define CODE_BASE 0x40000000

static PAPI_component_info_t components[NCOMPONENTS];

static struct {
    bool init_fails, other_version, thread_init_fails, perf_disabled, perf_disabled_quiet, pmu,
        paranoid, create_fails, sde_start_fails, thread_start_fails, register_fails;
    int counters;   /* 0: no limit */
    int read_fails; /* 0: never */
} opt;

static bool initialised;
/* the thread that initialised PAPI (not pthread_equal: an inline function
 * of glibc's, which clang's -finstrument-functions instruments) */
static __thread bool initialiser;

#define MAX_SETS 4096
#define MAX_SET_EVENTS 16
static struct set {
    int n;
    int event[MAX_SET_EVENTS];
    long long reads; /* reads so far, successful or not */
    bool running;
} sets[MAX_SETS];
static int nsets;
static pthread_mutex_t sets_lock = PTHREAD_MUTEX_INITIALIZER;

NOINSTR static void component(int c, const char *name, const char *description, const char *reason)
{
    PAPI_component_info_t *ci = &components[c];
    snprintf(ci->name, sizeof ci->name, "%s", name);
    snprintf(ci->short_name, sizeof ci->short_name, "%s", name);
    snprintf(ci->description, sizeof ci->description, "%s", description);
    ci->CmpIdx = c;
    if (reason) {
        ci->disabled = PAPI_ECMP;
        snprintf(ci->disabled_reason, sizeof ci->disabled_reason, "%s", reason);
    }
}

NOINSTR static void parse(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    const char *list = getenv("HT_PAPI_STUB");
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ",");
        char word[64];
        snprintf(word, sizeof word, "%.*s", (int)n, p);
        char *value = strchr(word, '=');
        if (value)
            *value++ = '\0';
        static const struct {
            const char *name;
            bool *flag;
        } flags[] = {
            {"init_fails", &opt.init_fails},
            {"other_version", &opt.other_version},
            {"thread_init_fails", &opt.thread_init_fails},
            {"perf_disabled", &opt.perf_disabled},
            {"perf_disabled_quiet", &opt.perf_disabled_quiet},
            {"pmu", &opt.pmu},
            {"paranoid", &opt.paranoid},
            {"create_fails", &opt.create_fails},
            {"sde_start_fails", &opt.sde_start_fails},
            {"thread_start_fails", &opt.thread_start_fails},
            {"register_fails", &opt.register_fails},
        };
        bool known = false;
        for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
            if (!value && strcmp(word, flags[i].name) == 0)
                known = *flags[i].flag = true;
        if (value && strcmp(word, "counters") == 0)
            known = (opt.counters = (int)strtol(value, NULL, 10)) > 0;
        if (value && strcmp(word, "read_fails") == 0)
            known = (opt.read_fails = (int)strtol(value, NULL, 10)) > 0;
        if (!known) {
            /* a test's typing error must not pass for a state */
            fprintf(stderr, "papi_stub: HT_PAPI_STUB: unknown word %s\n", word);
            abort();
        }
        p += n + (p[n] == ',');
    }
    component(PERF_EVENT, "perf_event", "Linux perf_event CPU counters",
              opt.perf_disabled         ? "stub: perf_event_paranoid is 4"
              : opt.perf_disabled_quiet ? ""
                                        : NULL);
    if (opt.perf_disabled_quiet)
        components[PERF_EVENT].disabled = PAPI_ECMP_DISABLED;
    component(UNCORE, "perf_event_uncore", "Linux perf_event CPU uncore and northbridge",
              "No uncore PMUs or events found");
    component(SDE, "sde", "Software Defined Events (SDE) component", NULL);
    component(SYSDETECT, "sysdetect", "System info detection component", NULL);
}

NOINSTR char *PAPI_strerror(int rc)
{
    static char *const text[] = {
        "No error", "Invalid argument", "Insufficient memory", "A System/C library call failed",
        "Not supported by component", "Access to the counters was lost or interrupted",
        "Internal error, please send mail to the developers", "Event does not exist",
        "Event exists, but cannot be counted due to hardware resource limits",
        "EventSet is currently not running", "EventSet is currently counting",
        "No such EventSet available", "Event in argument is not a valid preset",
        "Hardware does not support performance counters", "Unknown error code",
        "Permission level does not permit operation", "PAPI hasn't been initialized yet",
        "Component Index isn't set", "Not supported", "Not implemented",
        "Buffer size exceeded", "EventSet domain is not supported for the operation",
        "Invalid or missing event attributes", "Too many events or attributes",
        "Bad combination of features", "Component containing event is disabled",
        "Delayed initialization component",
        "Event exists, but cannot be counted due to multiple passes required by hardware"};
    /* PAPI's own answer to a code it does not know */
    return rc <= 0 && -rc < (int)(sizeof text / sizeof *text) ? text[-rc] : NULL;
}

NOINSTR int PAPI_disable_component_by_name(const char *name)
{
    parse();
    if (initialised)
        return PAPI_ENOINIT;
    for (int c = 0; c < NCOMPONENTS; c++)
        if (strcmp(components[c].name, name) == 0) {
            components[c].disabled = PAPI_ECMP_DISABLED;
            snprintf(components[c].disabled_reason, sizeof components[c].disabled_reason,
                     "Disabled by PAPI_disable_component()");
            return PAPI_OK;
        }
    return PAPI_ENOCMP;
}

NOINSTR int PAPI_library_init(int version)
{
    parse();
    if (opt.init_fails)
        return PAPI_ESYS;
    if (opt.other_version)
        return PAPI_VERSION_NUMBER(6, 0, 0, 0);
    initialised = true;
    initialiser = true;
    return version;
}

NOINSTR int PAPI_thread_init(unsigned long (*id)(void))
{
    (void)id;
    if (!initialised)
        return PAPI_ENOINIT;
    return opt.thread_init_fails ? PAPI_ENOSUPP : PAPI_OK;
}

NOINSTR int PAPI_register_thread(void)
{
    return opt.register_fails && !initialiser ? PAPI_ESYS : PAPI_OK;
}

NOINSTR int PAPI_num_components(void)
{
    return initialised ? NCOMPONENTS : PAPI_ENOINIT;
}

NOINSTR const PAPI_component_info_t *PAPI_get_component_info(int c)
{
    return initialised && c >= 0 && c < NCOMPONENTS ? &components[c] : NULL;
}

/* The event's index, its modifiers (":u=1:k=1") aside; -1 if unknown. */
NOINSTR static int lookup(const char *name, const char **modifiers)
{
    const char *base = name; /* after the last "::" ("sde:::STUB::a") */
    for (const char *p = strstr(name, "::"); p; p = strstr(p + 1, "::"))
        base = p + 2;
    const char *colon = strchr(base, ':');
    size_t n = colon ? (size_t)(colon - name) : strlen(name);
    *modifiers = colon ? colon : "";
    for (int e = 0; e < NEVENTS; e++)
        if (strlen(events[e].name) == n && strncmp(events[e].name, name, n) == 0)
            return e;
    return -1;
}

NOINSTR int PAPI_event_name_to_code(const char *name, int *code)
{
    if (!initialised)
        return PAPI_ENOINIT;
    const char *modifiers;
    int e = lookup(name, &modifiers);
    /* a disabled component's native events are not listed; presets are */
    if (e < 0 || (!events[e].preset && components[events[e].component].disabled))
        return PAPI_ECMP; /* what PAPI 7.0 answers for a name nobody knows */
    *code = CODE_BASE + e;
    return PAPI_OK;
}

NOINSTR static struct set *set_of(int id)
{
    return id >= 0 && id < __atomic_load_n(&nsets, __ATOMIC_ACQUIRE) ? &sets[id] : NULL;
}

NOINSTR int PAPI_create_eventset(int *id)
{
    if (!initialised)
        return PAPI_ENOINIT;
    if (opt.create_fails)
        return PAPI_ENOMEM;
    if (*id != PAPI_NULL)
        return PAPI_EINVAL;
    pthread_mutex_lock(&sets_lock);
    int rc = nsets < MAX_SETS ? PAPI_OK : PAPI_ENOMEM;
    if (rc == PAPI_OK)
        *id = __atomic_fetch_add(&nsets, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&sets_lock);
    return rc;
}

NOINSTR int PAPI_add_named_event(int id, const char *name)
{
    struct set *s = set_of(id);
    if (!s)
        return PAPI_ENOEVST;
    const char *modifiers;
    int e = lookup(name, &modifiers);
    if (e < 0) /* PAPI 7.0's answers for an unknown name: they differ */
        return components[PERF_EVENT].disabled ? PAPI_ENOSUPP : PAPI_ECMP;
    const struct stub_event *ev = &events[e];
    if (components[ev->component].disabled)
        return ev->preset ? PAPI_ECMP_DISABLED : PAPI_ENOEVNT;
    if (ev->preset && !opt.pmu)
        return PAPI_ENOEVNT;
    if (opt.paranoid && strstr(modifiers, ":k=1"))
        return PAPI_EPERM;
    int counting = 0;
    for (int k = 0; k < s->n; k++)
        counting += events[s->event[k]].component == PERF_EVENT;
    if (ev->component == PERF_EVENT && opt.counters && counting >= opt.counters)
        return PAPI_ECNFLCT;
    if (s->n == MAX_SET_EVENTS)
        return PAPI_ECOUNT;
    s->event[s->n++] = e;
    return PAPI_OK;
}

NOINSTR int PAPI_cleanup_eventset(int id)
{
    struct set *s = set_of(id);
    if (!s)
        return PAPI_ENOEVST;
    s->n = 0;
    return PAPI_OK;
}

NOINSTR int PAPI_destroy_eventset(int *id)
{
    if (!set_of(*id))
        return PAPI_ENOEVST;
    *id = PAPI_NULL;
    return PAPI_OK;
}

NOINSTR int PAPI_start(int id)
{
    struct set *s = set_of(id);
    if (!s)
        return PAPI_ENOEVST;
    bool sde = false;
    for (int k = 0; k < s->n; k++)
        sde |= events[s->event[k]].component == SDE;
    if (sde && opt.sde_start_fails)
        return PAPI_ESYS;
    if (!sde && opt.thread_start_fails && !initialiser)
        return PAPI_ESYS;
    s->running = true;
    return PAPI_OK;
}

NOINSTR int PAPI_read(int id, long long *values)
{
    struct set *s = set_of(id);
    if (!s)
        return PAPI_ENOEVST;
    if (!s->running)
        return PAPI_ENOTRUN;
    s->reads++;
    if (opt.read_fails && s->reads % opt.read_fails == 0)
        return PAPI_ESYS;
    for (int k = 0; k < s->n; k++)
        values[k] = s->reads * events[s->event[k]].step;
    return PAPI_OK;
}
