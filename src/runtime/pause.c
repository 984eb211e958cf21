/* Pauses and resets the program asks for: MPI_Pcontrol(0) pauses all
 * recording of this process, MPI_Pcontrol(1) resumes it, MPI_Pcontrol(2)
 * forgets what was recorded so far (docs/regions.md, "Phases").
 *
 * While paused, ht_recording is HT_RECORDING_PAUSED and nothing is
 * recorded: a call entered then is never a node, an MPI call records no
 * message, and a call open since before the pause that returns during it
 * ends at the pause's start.  When recording resumes, the calls still open
 * start again as if the pause had not been: its ticks are taken out of
 * their time, so the pause counts nowhere.
 *
 * A thread's tree is its own (the hooks take no lock), so the thread that
 * resumes or resets changes only its own tree and marks the others
 * (catch_up, which sends their hooks down the general path); each brings
 * its tree up to date at its next hook, before it records anything.  At
 * shut-down the writer does it for the threads that never came back. */
#include <pthread.h>
#include <stdbool.h>

#include "callstack/phases.h"
#include "callstack/thread.h"
#include "common/clock.h"
#include "merge/peers.h"
#include "runtime/runtime.h"

/* Written under `lock`, by the thread that pauses, resumes or resets;
 * read by every thread catching up, through the sequence count (odd
 * while a writer changes them), since a hook must never wait for a lock
 * its own thread may hold (a signal handler's hooks). */
static struct {
    unsigned sequence;
    uint64_t start;      /* when the pause in progress started */
    uint64_t ticks;      /* of the pauses that ended */
    uint64_t last_end;   /* when the last one ended */
    uint64_t pauses;
    uint64_t resets;
    uint64_t reset_tick; /* when the last reset came */
    uint64_t phases;     /* hooktrace_phase calls */
    uintptr_t phase;     /* the last one's region record */
    uint64_t phase_tick; /* and when it came */
    bool paused;
} state;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void write_begin(void)
{
    __atomic_store_n(&state.sequence, state.sequence + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static void write_end(void)
{
    __atomic_store_n(&state.sequence, state.sequence + 1, __ATOMIC_RELEASE);
}

/* Every thread but the caller, which catches up at once. */
static void mark_threads(void)
{
    for (struct ht_thread *t = ht_thread_registry(); t; t = t->next)
        __atomic_store_n(&t->catch_up, 1, __ATOMIC_RELEASE);
}

/* A thread attached from now on is up to date with what happened before. */
static inline void up_to_date(struct ht_thread *t)
{
    t->pause_ticks_seen = __atomic_load_n(&state.ticks, __ATOMIC_RELAXED);
    t->resets_seen = __atomic_load_n(&state.resets, __ATOMIC_RELAXED);
    /* but it begins in the phase in progress, at its first hook */
    t->phases_seen = 0;
    if (__atomic_load_n(&state.phases, __ATOMIC_RELAXED))
        t->catch_up = 1;
}

bool ht_runtime_pause(void)
{
    bool paused = false;
    pthread_mutex_lock(&lock);
    if (__atomic_load_n(&ht_recording, __ATOMIC_ACQUIRE) == HT_RECORDING_ON) {
        write_begin();
        state.start = ht_clock_now();
        state.pauses++;
        state.paused = true;
        write_end();
        __atomic_store_n(&ht_recording, HT_RECORDING_PAUSED, __ATOMIC_RELEASE);
        paused = true;
    }
    pthread_mutex_unlock(&lock);
    return paused;
}

/* Under the lock, paused: the pause ends at now. */
static void end_pause(uint64_t now)
{
    write_begin();
    state.ticks += now > state.start ? now - state.start : 0;
    state.last_end = now;
    state.paused = false;
    write_end();
    mark_threads();
}

bool ht_runtime_resume(void)
{
    bool resumed = false;
    pthread_mutex_lock(&lock);
    if (__atomic_load_n(&ht_recording, __ATOMIC_ACQUIRE) == HT_RECORDING_PAUSED) {
        end_pause(ht_clock_now());
        /* The marks are visible before any hook records again. */
        __atomic_store_n(&ht_recording, HT_RECORDING_ON, __ATOMIC_RELEASE);
        resumed = true;
    }
    pthread_mutex_unlock(&lock);
    struct ht_thread *self = ht_thread_self;
    if (resumed && self)
        ht_runtime_catch_up(self);
    return resumed;
}

static void catch_up(struct ht_thread *t, bool phases_too);

/* Under the lock, once the state changed: every thread is marked, and the
 * caller's own catches up at once, the lock released. */
static void publish(void)
{
    mark_threads();
    pthread_mutex_unlock(&lock);
    struct ht_thread *self = ht_thread_self;
    if (self)
        catch_up(self, true);
}

bool ht_runtime_reset(void)
{
    int recording = __atomic_load_n(&ht_recording, __ATOMIC_ACQUIRE);
    if (recording == HT_RECORDING_OFF)
        return false;
    pthread_mutex_lock(&lock);
    write_begin();
    state.resets++;
    state.reset_tick = ht_clock_now();
    write_end();
    publish();
    return true;
}

void ht_runtime_begin_phase(uintptr_t phase)
{
    pthread_mutex_lock(&lock);
    write_begin();
    state.phases++;
    state.phase = phase;
    state.phase_tick = ht_clock_now();
    write_end();
    publish();
}

uint64_t ht_runtime_pause_start(void)
{
    return __atomic_load_n(&state.start, __ATOMIC_RELAXED);
}

/* phases: whether the thread switches to the phase in progress (not at
 * shut-down, where a thread that never came back began no phase). */
static void catch_up(struct ht_thread *t, bool phases_too)
{
    if (!__atomic_exchange_n(&t->catch_up, 0, __ATOMIC_ACQ_REL))
        return;
    uint64_t ticks, last_end, resets, reset_tick, phases, phase_tick;
    uintptr_t phase;
    unsigned before;
    do {
        while ((before = __atomic_load_n(&state.sequence, __ATOMIC_ACQUIRE)) & 1)
            ;
        ticks = __atomic_load_n(&state.ticks, __ATOMIC_RELAXED);
        last_end = __atomic_load_n(&state.last_end, __ATOMIC_RELAXED);
        resets = __atomic_load_n(&state.resets, __ATOMIC_RELAXED);
        reset_tick = __atomic_load_n(&state.reset_tick, __ATOMIC_RELAXED);
        phases = __atomic_load_n(&state.phases, __ATOMIC_RELAXED);
        phase = __atomic_load_n(&state.phase, __ATOMIC_RELAXED);
        phase_tick = __atomic_load_n(&state.phase_tick, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
    } while (__atomic_load_n(&state.sequence, __ATOMIC_RELAXED) != before);
    /* The reset first: a pause after it still comes out of the calls open
     * across both, whose time then counts from the reset. */
    if (resets != t->resets_seen) {
        ht_tree_forget_counts(&t->tree, reset_tick);
        ht_tree_count_open_calls(&t->tree);
        ht_peer_counts_forget(t->peers, ht_world.size);
        t->resets_seen = resets;
    }
    if (ticks != t->pause_ticks_seen) {
        ht_tree_exclude_paused(&t->tree, ticks - t->pause_ticks_seen, last_end);
        t->pause_ticks_seen = ticks;
        /* A phase begun during the pause begins where the pause ended. */
        if (phase_tick < last_end)
            phase_tick = last_end;
    }
    /* Only the latest phase matters: the thread recorded nothing in those
     * before it.  Tried again at the next hook while the thread is inside
     * an MPI call (phases.h); a tracing thread's trace has no phases. */
    if (phases != t->phases_seen && !t->tracing && phases_too) {
        if (ht_tree_switch_phase(&t->tree, phase, phase_tick))
            t->phases_seen = phases;
        else
            __atomic_store_n(&t->catch_up, 1, __ATOMIC_RELEASE);
    }
}

void ht_runtime_catch_up(struct ht_thread *t)
{
    catch_up(t, true);
}

struct ht_pause_totals ht_runtime_pause_totals(void)
{
    pthread_mutex_lock(&lock);
    struct ht_pause_totals totals = {state.pauses, state.resets, state.ticks};
    pthread_mutex_unlock(&lock);
    return totals;
}

void ht_runtime_pause_settle(uint64_t end_tick)
{
    pthread_mutex_lock(&lock);
    /* Recording stopped: a pause in progress ends at the profile's end. */
    if (state.paused)
        end_pause(end_tick);
    pthread_mutex_unlock(&lock);
    for (struct ht_thread *t = ht_thread_registry(); t; t = t->next)
        catch_up(t, false);
}

void ht_runtime_pause_attach(struct ht_thread *t)
{
    up_to_date(t);
}
