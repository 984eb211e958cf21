/* MPI_T without performance variables: once per job, at MPI_Finalize
 * (docs/mpi_t.md, "When MPI_T starts").
 *
 * Open MPI 4.1's MPI_T_init_thread registers every MCA component, loading
 * every one that MPI_Init did not keep.  Two of them pull in the PSM
 * libraries (libpsm2, libinfinipath), whose constructors take 0.1 s each
 * of sleeping (some 800 usleep(125) calls), every time they are loaded:
 * MPI_Init pays it once and unloads them, MPI_T_init_thread pays it
 * again.  So from start-up until MPI_Init has returned, when MPI_T will
 * start late, the dlclose interposer hands each component Open MPI closes
 * here first, and one more reference to it is taken (dlopen RTLD_NOLOAD:
 * no loading, no constructor): it stays where it was.  A rank that will
 * not start MPI_T drops them right after MPI_Init; the others hold them
 * until MPI_T_finalize, and MPI_T_init_thread finds them loaded.  (A
 * thread that loaded them again after MPI_Init cost the same 0.2 s of
 * sleeping, and its constructors, run under the loader's lock, stalled an
 * OpenMP program's thread by 0.1 s: BENCHMARKS.md.)
 *
 * MPI_T itself starts only at MPI_Finalize, in a thread beside the merge:
 * called while the program runs, its registration of frameworks would race
 * with the ones Open MPI opens lazily (topo at the first MPI_Cart_create,
 * io at the first MPI_File_open). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dlinfo, RTLD_NOLOAD */
#endif
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/library_close.h"
#include "common/quiet_thread.h"
#include "mpit/mpit.h"
#include "mpit/mpit_internal.h"

#define MAX_HELD 256

static pthread_t late_thread;
static pid_t spawned_in; /* a fork child has not the thread */
static int late_state;   /* 0 not started, 1 thread running, 2 done */

static bool holding;
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static void *held[MAX_HELD];
static size_t nheld;

/* An Open MPI component: mca_<framework>_<component>.so. */
static bool is_component(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return strncmp(base, "mca_", 4) == 0 && strstr(base, ".so") != NULL;
}

void ht_mpit_hold_begin(const struct ht_config *cfg)
{
    if (cfg->mpi_t.enabled && !ht_mpit_pvars_asked(cfg))
        __atomic_store_n(&holding, true, __ATOMIC_RELEASE);
}

void ht_mpit_hold_closing(void *handle)
{
    if (!__atomic_load_n(&holding, __ATOMIC_ACQUIRE))
        return;
    struct link_map *lm = NULL;
    if (!handle || dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_name ||
        !is_component(lm->l_name))
        return;
    /* Full: the component goes.  Checked before the reference is taken,
     * since dropping one closes through here again. */
    pthread_mutex_lock(&held_lock);
    bool full = nheld >= MAX_HELD;
    pthread_mutex_unlock(&held_lock);
    if (full)
        return;
    void *h = dlopen(lm->l_name, RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return;
    pthread_mutex_lock(&held_lock);
    bool kept = nheld < MAX_HELD;
    if (kept)
        held[nheld++] = h;
    pthread_mutex_unlock(&held_lock);
    if (!kept)
        ht_library_close(h); /* another thread filled it meanwhile */
}

static void release_held(void)
{
    pthread_mutex_lock(&held_lock);
    size_t n = nheld;
    void *mine[MAX_HELD];
    memcpy(mine, held, n * sizeof *mine);
    nheld = 0;
    pthread_mutex_unlock(&held_lock);
    for (size_t i = 0; i < n; i++)
        ht_library_close(mine[i]);
}

void ht_mpit_hold_end(bool wanted)
{
    __atomic_store_n(&holding, false, __ATOMIC_RELEASE);
    if (!wanted)
        release_held();
}

void ht_mpit_hold_cancel(void)
{
    ht_mpit_unhold();
}

void ht_mpit_unhold(void)
{
    __atomic_store_n(&holding, false, __ATOMIC_RELEASE);
    release_held();
}

static bool spawn(pthread_t *t, void *(*fn)(void *))
{
    spawned_in = getpid();
    return ht_quiet_thread_start(t, fn, NULL);
}

static void *late_main(void *arg)
{
    (void)arg;
    ht_mpit_start_timed();
    return NULL;
}

static bool late_wanted;

void ht_mpit_late(bool wanted)
{
    if (!wanted)
        ht_mpit.cvars_elsewhere = true; /* the merge's outputs are rank 0's */
    late_wanted = wanted && ht_mpit.deferred && late_state == 0;
}

void ht_mpit_late_start(void)
{
    if (!late_wanted)
        return;
    late_wanted = false;
    ht_mpit.started_late = true;
    late_state = spawn(&late_thread, late_main) ? 1 : 0;
}

void ht_mpit_late_done(bool read_here)
{
    if (late_state == 1 && spawned_in != getpid()) {
        late_state = 0; /* a fork child: the thread stayed in the parent */
        ht_mpit.started_late = false;
    }
    if (late_state == 1) {
        pthread_join(late_thread, NULL);
        late_state = 2;
    } else if (late_state == 0 && ht_mpit.deferred && read_here && getpid() != ht_mpit.pid) {
        late_state = 2; /* MPI belongs to the parent */
        ht_mpit_set_status("not started in a fork child of the rank");
    } else if (late_state == 0 && ht_mpit.deferred && read_here) {
        /* No thread: a rank's own file written without MPI_Finalize, or
         * pthread_create failed. */
        late_state = 2;
        ht_mpit.started_late = true;
        ht_mpit_start_timed();
    }
}

void ht_mpit_skip_cvars(void)
{
    ht_mpit.cvars_elsewhere = true;
}
