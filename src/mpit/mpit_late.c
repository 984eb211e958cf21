/* MPI_T without performance variables: once per job, at MPI_Finalize
 * (docs/mpi_t.md, "When MPI_T starts").
 *
 * Open MPI 4.1's MPI_T_init_thread registers every MCA component, loading
 * every one that MPI_Init did not keep.  Two of them pull in the PSM
 * libraries (libpsm2, libinfinipath), whose constructors take 0.1 s each
 * of sleeping (some 800 usleep(125) calls), every time they are loaded:
 * MPI_Init pays it once and unloads them, MPI_T_init_thread pays it
 * again.  So on a rank that will start MPI_T, a thread loads the
 * components MPI_Init closed right after it, while the program runs
 * (dlopen takes the loader's lock and runs no Open MPI code: nothing
 * Open MPI does concurrently is touched), at nice 19, and holds them
 * until MPI_T_finalize; MPI_T_init_thread then finds them loaded.  They
 * are noted as hooktrace's own (ht_symbols_note_own): one may land where a
 * library the program closed lay, whose names must not change.  MPI_T itself
 * starts only at MPI_Finalize, in a thread beside the merge: called while
 * the program runs, its registration of frameworks would race with the
 * ones Open MPI opens lazily (topo at the first MPI_Cart_create, io at the
 * first MPI_File_open). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dlinfo, RTLD_NOLOAD */
#endif
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mpit/mpit.h"
#include "mpit/mpit_internal.h"
#include "symbols/symbols.h"

#define MAX_WARM 256

static pthread_t warm_thread, late_thread;
static bool warm_running;
static pid_t spawned_in; /* a fork child has none of these threads */
static void *warm_handles[MAX_WARM];
static size_t nwarm;
static int late_state; /* 0 not started, 1 thread running, 2 done */

/* An Open MPI component: mca_<framework>_<component>.so. */
static bool is_component(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return strncmp(base, "mca_", 4) == 0 && strstr(base, ".so") != NULL;
}

/* Whether the DT_NEEDED entries of lm name base (a soname). */
static bool needs(const struct link_map *lm, const char *base)
{
    const ElfW(Dyn) *d = lm->l_ld;
    const char *strtab = NULL;
    for (const ElfW(Dyn) *e = d; e && e->d_tag != DT_NULL; e++)
        if (e->d_tag == DT_STRTAB)
            strtab = (const char *)e->d_un.d_ptr;
    for (const ElfW(Dyn) *e = d; strtab && e && e->d_tag != DT_NULL; e++)
        if (e->d_tag == DT_NEEDED && strcmp(strtab + e->d_un.d_val, base) == 0)
            return true;
    return false;
}

/* The component just loaded (lm) and the libraries loaded with it, which
 * the loader appended right after it, under its lock, while it held it:
 * ours, never the owner of a recorded address (symbols.h).  A library the
 * program loads meanwhile comes after them, and is no dependency of
 * theirs. */
static void note_own(struct link_map *lm)
{
    struct link_map *mine[64];
    size_t n = 0;
    mine[n++] = lm;
    for (struct link_map *o = lm->l_next; o && n < 64; o = o->l_next) {
        const char *base = o->l_name ? strrchr(o->l_name, '/') : NULL;
        base = base ? base + 1 : o->l_name;
        bool dep = false;
        for (size_t i = 0; base && i < n && !dep; i++)
            dep = needs(mine[i], base);
        if (!dep)
            break;
        mine[n++] = o;
    }
    for (size_t i = 0; i < n; i++)
        ht_symbols_note_own((uintptr_t)mine[i]->l_addr);
}

static void *warm_main(void *arg)
{
    (void)arg;
    /* The lowest priority: the libraries' constructors must not take the
     * CPU from the program's own threads, on the core they share. */
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
    char *paths[MAX_WARM];
    size_t n = ht_symbols_closed_paths(paths, MAX_WARM);
    for (size_t i = 0; i < n; i++) {
        void *h = NULL;
        /* One still loaded needs no reference (RTLD_NOLOAD). */
        if (is_component(paths[i]) && !(h = dlopen(paths[i], RTLD_LAZY | RTLD_NOLOAD))) {
            h = dlopen(paths[i], RTLD_LAZY | RTLD_LOCAL);
            struct link_map *lm = NULL;
            if (h && dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm)
                note_own(lm);
        }
        if (h && nwarm < MAX_WARM)
            warm_handles[nwarm++] = h;
        else if (h)
            dlclose(h);
        free(paths[i]);
    }
    return NULL;
}

static bool spawn(pthread_t *t, void *(*fn)(void *))
{
    /* Every signal blocked: they go to the program's threads. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(t, NULL, fn, NULL);
    spawned_in = getpid();
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc == 0;
}

void ht_mpit_before_fork(void)
{
    if (__atomic_load_n(&warm_running, __ATOMIC_ACQUIRE) && spawned_in == getpid())
        pthread_join(warm_thread, NULL);
    __atomic_store_n(&warm_running, false, __ATOMIC_RELEASE);
}

void ht_mpit_warm(bool wanted)
{
    if (wanted && !warm_running)
        warm_running = spawn(&warm_thread, warm_main);
}

static void warm_done(void)
{
    if (warm_running && spawned_in == getpid())
        pthread_join(warm_thread, NULL);
    warm_running = false;
}

void ht_mpit_unwarm(void)
{
    warm_done();
    for (size_t i = 0; i < nwarm; i++)
        dlclose(warm_handles[i]);
    nwarm = 0;
}

static void *late_main(void *arg)
{
    (void)arg;
    warm_done();
    ht_mpit_start_timed();
    return NULL;
}

static bool late_wanted;

void ht_mpit_late(bool wanted)
{
    if (!wanted)
        ht_mpit.cvars_elsewhere = true; /* the merge's outputs are rank 0's */
    late_wanted = wanted && ht_mpit.deferred && late_state == 0;
    /* Every library it loads is noted as hooktrace's own before the
     * functions are named (a short run: it may still be loading). */
    warm_done();
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
        warm_done();
        ht_mpit_start_timed();
    }
}

void ht_mpit_skip_cvars(void)
{
    ht_mpit.cvars_elsewhere = true;
}
