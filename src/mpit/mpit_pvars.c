/* Performance variables: the sessions and the reads around each MPI call
 * (docs/mpi_t.md).  Which ones are read is chosen once, in MPI_Init
 * (mpit_choose.c).
 *
 * Each thread that makes MPI calls gets its own session and handles on its
 * first call, so reads take no lock and need no MPI_T thread support beyond
 * MPI's own; variables that must be started are started in every session.
 *
 * Per call: every handle is read into a per-thread buffer after the
 * routine's node is entered and again after the PMPI routine returns, and
 * the difference (or the extreme value) goes into the node's figures.  No
 * allocation per call: buffers are per thread, figures come from a
 * per-thread arena once per node. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/clock.h"
#include "common/compiler.h"
#include "mpit/mpit.h"
#include "mpit/mpit_internal.h"

#define MAX_ELEMENTS (1 << 20)       /* a pvar with more elements is not read */
#define MAX_COLUMNS 4096             /* pvar_elements "each" beyond this: summed */
#define VALUES_CHUNK_BYTES ((size_t)64 << 10)

int ht_mpit_pvars_active;

static __thread struct ht_mpit_thread *mpit_self __attribute__((tls_model("initial-exec")));

static void read_all(struct ht_mpit_thread *t, unsigned char *buf, unsigned char *ok);

/* --- sessions ------------------------------------------------------------- */

static void lock_mpit(void)
{
    if (ht_mpit.lock_calls)
        pthread_mutex_lock(&ht_mpit.call_lock);
}

static void unlock_mpit(void)
{
    if (ht_mpit.lock_calls)
        pthread_mutex_unlock(&ht_mpit.call_lock);
}

/* A handle for pvar p in session s; *count its elements.  Starts it if it
 * must be started.  Returns MPI_SUCCESS or the failing call's error. */
static int bind_handle(MPI_T_pvar_session s, const struct ht_mpit_pvar *p, MPI_T_pvar_handle *h,
                       int *count, const char **what)
{
    MPI_Comm world = ht_mpit.bind_comm;
    *what = "MPI_T_pvar_handle_alloc";
    int rc = MPI_T_pvar_handle_alloc(s, p->index, p->bind == MPI_T_BIND_MPI_COMM ? &world : NULL,
                                     h, count);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!p->continuous) {
        *what = "MPI_T_pvar_start";
        rc = MPI_T_pvar_start(s, *h);
        if (rc != MPI_SUCCESS)
            MPI_T_pvar_handle_free(s, h);
    }
    return rc;
}

static struct ht_mpit_thread *thread_new(void)
{
    struct ht_mpit_thread *t = calloc(1, sizeof *t);
    size_t n = ht_mpit.npvars ? ht_mpit.npvars : 1;
    if (t) {
        t->handles = calloc(n, sizeof *t->handles);
        t->have_before = calloc(n, 1);
        t->have_after = calloc(n, 1);
        t->failed_reads = calloc(n, sizeof *t->failed_reads);
    }
    if (!t || !t->handles || !t->have_before || !t->have_after || !t->failed_reads) {
        if (t) {
            free(t->handles);
            free(t->have_before);
            free(t->have_after);
            free(t->failed_reads);
        }
        free(t);
        return NULL;
    }
    for (size_t i = 0; i < ht_mpit.npvars; i++)
        t->handles[i] = MPI_T_PVAR_HANDLE_NULL;
    pthread_mutex_lock(&ht_mpit.lock);
    t->next = ht_mpit.threads;
    ht_mpit.threads = t;
    pthread_mutex_unlock(&ht_mpit.lock);
    return t;
}

static bool thread_buffers(struct ht_mpit_thread *t)
{
    size_t bytes = ht_mpit.buffer_bytes ? ht_mpit.buffer_bytes : 8;
    t->before = calloc(bytes, 1);
    t->after = calloc(bytes, 1);
    return t->before && t->after;
}

/* Column layout once the counts are known: offsets in the read buffers,
 * slots (one per pvar, or one per element). */
static bool lay_out(void)
{
    bool each = ht_mpit.config->mpi_t.pvar_elements == HT_MPIT_ELEMENTS_EACH;
    size_t offset = 0, nslots = 0, elements = 0;
    for (size_t i = 0; i < ht_mpit.npvars; i++)
        elements += (size_t)ht_mpit.pvars[i].count;
    if (each && elements > MAX_COLUMNS) {
        /* Every column costs a double per stack per node and per rank in
         * the merge: one per rank of a large job is too many. */
        ht_mpit_note("pvar_elements \"each\" would make %zu columns (more than %d): the"
                     " elements of each variable are summed instead",
                     elements, MAX_COLUMNS);
        each = false;
    }
    for (size_t i = 0; i < ht_mpit.npvars; i++) {
        struct ht_mpit_pvar *p = &ht_mpit.pvars[i];
        p->offset = offset;
        offset += ((size_t)p->count * p->elem_size + 7) & ~(size_t)7;
        p->first_slot = nslots;
        p->nslots = each ? (size_t)p->count : 1;
        nslots += p->nslots;
    }
    ht_mpit.buffer_bytes = offset;
    ht_mpit.slots = calloc(nslots ? nslots : 1, sizeof *ht_mpit.slots);
    if (!ht_mpit.slots)
        return false;
    for (size_t i = 0; i < ht_mpit.npvars; i++) {
        const struct ht_mpit_pvar *p = &ht_mpit.pvars[i];
        for (size_t e = 0; e < p->nslots; e++) {
            struct ht_mpit_slot *s = &ht_mpit.slots[p->first_slot + e];
            s->pvar = (int)i;
            s->element = each ? (int)e : -1;
            char buf[300];
            if (each)
                snprintf(buf, sizeof buf, "%s[%zu]", p->name, e);
            s->name = strdup(each ? buf : p->name);
            if (!s->name)
                return false;
            ht_mpit.nslots++;
        }
    }
    ht_mpit.values_bytes = (sizeof(struct ht_mpit_values) + nslots * sizeof(double) + 63) &
                           ~(size_t)63;
    return true;
}

/* The first session (the thread in MPI_Init): finds each candidate's
 * element count and drops those that cannot be read. */
static struct ht_mpit_thread *first_session(void)
{
    struct ht_mpit_thread *t = thread_new();
    if (!t || MPI_T_pvar_session_create(&t->session) != MPI_SUCCESS) {
        ht_mpit_note("no performance variable is read: %s",
                     t ? "MPI_T_pvar_session_create failed" : "out of memory");
        return NULL;
    }
    t->usable = true;
    size_t kept = 0;
    for (size_t i = 0; i < ht_mpit.npvars; i++) {
        struct ht_mpit_pvar *p = &ht_mpit.pvars[i];
        MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
        int count = 0;
        const char *what;
        int rc = bind_handle(t->session, p, &h, &count, &what);
        if (rc == MPI_SUCCESS && (count < 1 || count > MAX_ELEMENTS)) {
            MPI_T_pvar_handle_free(t->session, &h);
            ht_mpit_note("performance variable %s has %d elements: not read", p->name, count);
        } else if (rc != MPI_SUCCESS) {
            ht_mpit_note("performance variable %s: %s failed (%s): not read", p->name, what,
                         ht_mpit_error_name(rc));
        } else {
            p->count = count;
            t->handles[kept] = h;
            ht_mpit.pvars[kept++] = *p;
            continue;
        }
        free(p->name);
        free(p->description);
    }
    ht_mpit.npvars = kept;
    if (!lay_out() || !thread_buffers(t)) {
        ht_mpit_note("out of memory: no performance variable is read");
        ht_mpit.npvars = 0;
        t->usable = false;
        return NULL;
    }
    return t;
}

/* A later thread's session, on its first MPI call.  A pvar whose count
 * differs here (it should not) is not read in this thread. */
static HT_COLD struct ht_mpit_thread *thread_setup(void)
{
    lock_mpit();
    struct ht_mpit_thread *t = thread_new();
    if (t && MPI_T_pvar_session_create(&t->session) == MPI_SUCCESS && thread_buffers(t)) {
        t->usable = true;
        for (size_t i = 0; i < ht_mpit.npvars; i++) {
            int count = 0;
            const char *what;
            int rc = bind_handle(t->session, &ht_mpit.pvars[i], &t->handles[i], &count, &what);
            if (rc == MPI_SUCCESS && count != ht_mpit.pvars[i].count) {
                MPI_T_pvar_handle_free(t->session, &t->handles[i]);
                t->handles[i] = MPI_T_PVAR_HANDLE_NULL;
                ht_mpit_note("performance variable %s has %d elements in a second thread and %d"
                             " in the first: not read in that thread",
                             ht_mpit.pvars[i].name, count, ht_mpit.pvars[i].count);
            } else if (rc != MPI_SUCCESS) {
                t->handles[i] = MPI_T_PVAR_HANDLE_NULL;
                ht_mpit_note("performance variable %s: %s failed in a second thread (%s): not"
                             " read in that thread",
                             ht_mpit.pvars[i].name, what, ht_mpit_error_name(rc));
            }
        }
    } else if (t) {
        ht_mpit_note("a thread could not get its MPI_T session: its calls have no pvar figures");
    }
    unlock_mpit();
    /* Even a failed setup is remembered, so that it is not retried per call. */
    mpit_self = t;
    return t;
}

void ht_mpit_select_pvars(void)
{
    const struct ht_config *cfg = ht_mpit.config;
    if (cfg->mpi_t.pvars.count == 0 && cfg->mpi_t.pvar_classes == 0)
        return; /* none selected: no session, no read per call */
    if (!cfg->mpi.log_messages) {
        ht_mpit_note("performance variables are not read: mpi.log_messages is false");
        return;
    }
    int num = 0;
    if (MPI_T_pvar_get_num(&num) != MPI_SUCCESS || num <= 0) {
        ht_mpit_note("the MPI library exposes no performance variables: none is read");
        return;
    }
    size_t nrej = 0;
    int listed = ht_mpit_choose_pvars(num, &nrej);
    if (listed < 0) {
        ht_mpit_note("out of memory: no performance variable is read");
        return;
    }
    if (ht_mpit.npvars == 0) {
        ht_mpit_note("no performance variable of the MPI library (it lists %d) matches"
                     " mpi_t.pvars or mpi_t.pvar_classes%s",
                     listed, nrej ? " and can be read" : "");
        return;
    }
    struct ht_mpit_thread *t = first_session();
    if (!t || ht_mpit.npvars == 0)
        return;
    /* In interval mode this read is the baseline of the first call. */
    if (ht_mpit.interval_ticks) {
        read_all(t, t->before, t->have_before);
        t->last_read = ht_clock_now();
    }
    mpit_self = t;
    __atomic_store_n(&ht_mpit_pvars_active, 1, __ATOMIC_RELEASE);
}

void ht_mpit_free_sessions(void)
{
    pthread_mutex_lock(&ht_mpit.lock);
    for (struct ht_mpit_thread *t = ht_mpit.threads; t; t = t->next) {
        if (!t->usable)
            continue;
        t->usable = false;
        for (size_t i = 0; i < ht_mpit.npvars; i++)
            if (t->handles[i] != MPI_T_PVAR_HANDLE_NULL)
                MPI_T_pvar_handle_free(t->session, &t->handles[i]);
        MPI_T_pvar_session_free(&t->session);
    }
    pthread_mutex_unlock(&ht_mpit.lock);
}

void ht_mpit_free_pvars(void)
{
    for (size_t i = 0; i < ht_mpit.npvars; i++) {
        free(ht_mpit.pvars[i].name);
        free(ht_mpit.pvars[i].description);
    }
    for (size_t i = 0; i < ht_mpit.nslots; i++)
        free((char *)ht_mpit.slots[i].name);
    free(ht_mpit.pvars);
    free(ht_mpit.slots);
    ht_mpit.pvars = NULL;
    ht_mpit.slots = NULL;
    ht_mpit.npvars = ht_mpit.nslots = 0;
    /* The thread records stay: a thread may still hold a pointer to its
     * own.  Their sessions are gone (ht_mpit_free_sessions). */
}

/* --- the reads around a call (hot path) ----------------------------------- */

static void read_all(struct ht_mpit_thread *t, unsigned char *buf, unsigned char *ok)
{
    for (size_t i = 0; i < ht_mpit.npvars; i++) {
        if (t->handles[i] == MPI_T_PVAR_HANDLE_NULL) {
            ok[i] = 0;
            continue;
        }
        int rc = MPI_T_pvar_read(t->session, t->handles[i], buf + ht_mpit.pvars[i].offset);
        ok[i] = rc == MPI_SUCCESS;
        t->failed_reads[i] += rc != MPI_SUCCESS;
    }
}

/* The figures of the call's node, created on first use. */
static struct ht_mpit_values *node_values(struct ht_mpit_thread *t, struct ht_node *node)
{
    struct ht_mpit_values **slot = node ? ht_mpit.values_slot(node) : NULL;
    if (!slot)
        return NULL;
    if (*slot)
        return *slot;
    size_t bytes = ht_mpit.values_bytes;
    if ((size_t)(t->arena_end - t->arena_next) < bytes) {
        size_t chunk = bytes > VALUES_CHUNK_BYTES ? bytes : VALUES_CHUNK_BYTES;
        void *p = mmap(NULL, chunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        t->arena_next = p;
        t->arena_end = (char *)p + chunk;
    }
    struct ht_mpit_values *v = (struct ht_mpit_values *)t->arena_next;
    t->arena_next += bytes;
    v->calls = 0;
    for (size_t k = 0; k < ht_mpit.nslots; k++)
        v->v[k] = ht_mpit_initial(ht_mpit.pvars[ht_mpit.slots[k].pvar].how);
    __atomic_store_n(slot, v, __ATOMIC_RELEASE);
    return v;
}

void ht_mpit_call_begin(struct ht_node *node)
{
    struct ht_mpit_thread *t = mpit_self;
    if (HT_UNLIKELY(t == NULL))
        t = thread_setup();
    if (!t || !t->usable || ht_mpit.interval_ticks)
        return;
    lock_mpit();
    read_all(t, t->before, t->have_before);
    unlock_mpit();
    t->pending = node;
}

/* The reads in t->after (and t->before) into the call's node. */
static void attribute(struct ht_mpit_thread *t, struct ht_node *node, bool levels_before)
{
    struct ht_mpit_values *v = node_values(t, node);
    if (!v)
        return;
    v->calls++;
    for (size_t i = 0; i < ht_mpit.npvars; i++) {
        const struct ht_mpit_pvar *p = &ht_mpit.pvars[i];
        if (!t->have_after[i])
            continue;
        /* A change needs both reads; an extreme value takes what there is. */
        bool before = t->have_before[i] && (p->how == HT_MPIT_CHANGE || levels_before);
        if (p->how == HT_MPIT_CHANGE && !before)
            continue;
        ht_mpit_attribute(p, before ? t->before : NULL, t->after, v->v + p->first_slot);
    }
}

void ht_mpit_call_end(struct ht_node *node, uint64_t end)
{
    struct ht_mpit_thread *t = mpit_self;
    if (!t || !t->usable)
        return;
    if (ht_mpit.interval_ticks) {
        if (end - t->last_read < ht_mpit.interval_ticks)
            return;
        lock_mpit();
        read_all(t, t->after, t->have_after);
        unlock_mpit();
        /* The change since this thread's previous read goes to this call;
         * the levels that read saw belong to an earlier call. */
        attribute(t, node, false);
        unsigned char *swap = t->before;
        t->before = t->after;
        t->after = swap;
        swap = t->have_before;
        t->have_before = t->have_after;
        t->have_after = swap;
        t->last_read = end;
        return;
    }
    if (!node || t->pending != node)
        return;
    t->pending = NULL;
    lock_mpit();
    read_all(t, t->after, t->have_after);
    unlock_mpit();
    attribute(t, node, true);
}
