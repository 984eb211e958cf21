/* A libhooktrace compiled for one MPI loaded into a program built with
 * another (LD_PRELOAD, copied binaries, the wrong -lhooktrace): both MPI
 * libraries are loaded, and the wrappers would hand this build's handles
 * and constants (an Open MPI MPI_Comm is a pointer, an MPICH one an int)
 * to the program's MPI, which aborts or crashes on the first.  Found
 * before MPI starts, it costs nothing after: the wrappers pass every call
 * through, and nothing of hooktrace calls MPI.
 *
 * How: two libraries must be of this build's ABI, the one defining the
 * entry the program called (MPI_Init, mpi_init_, mpi_init_f08_, ...) and
 * the one the wrappers' PMPI calls reach, each found as the definition
 * next after libhooktrace (dlsym RTLD_NEXT: never the executable's
 * canonical PLT address).  A library is of the ABI when it or its
 * dependencies define the ABI's marker: the function its mpi.h names in
 * the macro MPI_DUP_FN, which every library of the ABI family must export
 * and the other family never does.  A version string would tell Open MPI
 * from MPICH as well, but every member of the MPICH family words its own.
 *
 * libhooktrace loads no MPI library itself (its references to MPI are
 * weak: src/common/weak_mpi/mpi.h), so the program's MPI is the only one in
 * the process: the next definition after libhooktrace is the program's
 * own, and our PMPI calls bind to it too. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/compiler.h"
#include "mpi/abi.h"
#include "mpi/state.h"
#include "mpit/mpit.h"
#include "runtime/runtime.h"

#ifdef OPEN_MPI
#define ABI_MARKER "OMPI_C_MPI_DUP_FN"
#define STR2(x) #x
#define STR(x) STR2(x)
#define OUR_MPI                                                                           \
    "Open MPI v" STR(OMPI_MAJOR_VERSION) "." STR(OMPI_MINOR_VERSION) "." STR(OMPI_RELEASE_VERSION)
#define OUR_FAMILY "Open MPI"
#define OTHER_FAMILY "MPICH", "mpich"
#else
#define ABI_MARKER "MPIR_Dup_fn"
#define OUR_MPI "MPICH " MPICH_VERSION
#define OUR_FAMILY "MPICH"
#define OTHER_FAMILY "Open MPI", "openmpi"
#endif

int ht_mpi_foreign;
static int decided;         /* 0 not yet, 1 ours, 2 foreign */
static void *their_library; /* the program's MPI library, when foreign */

/* Whether the object holding addr, with its dependencies, defines the
 * marker; *handle: that object (NULL if unknown). */
static bool object_is_ours(void *addr, Dl_info *where, void **handle)
{
    *handle = NULL;
    if (!addr || !dladdr(addr, where) || !where->dli_fname || !where->dli_fname[0])
        return true; /* the executable itself (a static MPI): cannot tell */
    /* One more reference to a library that stays loaded anyway (MPI
     * libraries are never unloaded): not dropped, since our dlclose
     * interposer would note it as closing. */
    *handle = dlopen(where->dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    return !*handle || dlsym(*handle, ABI_MARKER) != NULL;
}

static const char *base_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path ? path : "?";
}

/* The rank the launcher gave this process, before MPI says it (-1:
 * none).  Open MPI's mpirun, MPICH's hydra, PMIx launchers, Slurm. */
static int launcher_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                       "SLURM_PROCID", NULL};
    for (int i = 0; vars[i]; i++) {
        const char *v = getenv(vars[i]);
        char *end;
        long r = v && *v ? strtol(v, &end, 10) : -1;
        if (v && *v && *end == '\0' && r >= 0 && r < INT_MAX)
            return (int)r;
    }
    return -1;
}

/* "MPICH Version:\t4.0\nMPICH Release date: ..." -> "MPICH Version: 4.0". */
static void first_line(char *s)
{
    size_t n = strcspn(s, ",\n");
    s[n] = '\0';
    for (char *p = s; *p; p++)
        if (*p == '\t')
            *p = ' ';
    char *out = s;
    for (char *p = s; *p; p++)
        if (!(*p == ' ' && out > s && out[-1] == ' '))
            *out++ = *p;
    *out = '\0';
}

typedef int (*version_fn)(char *, int *);

/* The two MPIs, as the line on stderr and the profile's header say them:
 * "the program runs <its version> (<its file>), this libhooktrace was
 * built for <ours>".  theirs: the program's MPI library. */
static void describe(const Dl_info *theirs, void *their_handle, char *out, size_t len)
{
    /* The program's library's own: MPICH's MPI_MAX_LIBRARY_VERSION_STRING
     * is 8192, Open MPI's 256; it may be called before MPI_Init and takes
     * no handle. */
    static char version[8192];
    int n = 0;
    version_fn get = NULL;
    void *sym = their_handle ? dlsym(their_handle, "PMPI_Get_library_version") : NULL;
    memcpy(&get, &sym, sizeof get); /* POSIX: object to function pointer */
    if (!get || get(version, &n) != 0 || n <= 0)
        snprintf(version, sizeof version, "another MPI");
    version[sizeof version - 1] = '\0';
    first_line(version);
    /* At most 340 bytes of the 512 kept.  Our MPI's library is not
     * loaded: only its version is known. */
    snprintf(out, len, "the program runs %.200s (%.100s), this libhooktrace was built for %s",
             version, base_name(theirs->dli_fname), OUR_MPI);
}

/* ahead: a library of our ABI comes first in the search order (the
 * process loads both MPIs), so that the program's library may bind its
 * own calls to it (it may not survive that). */
static void say(const char *mpis, bool ahead)
{
    static const char *const other[2] = {OTHER_FAMILY};
    fprintf(stderr,
            "hooktrace: %s: MPI calls are not recorded, each process writes its own profile; to "
            "record them, build the program with %s (hooktrace mpicc) or use hooktrace's library "
            "for %s (-lhooktrace-%s; hooktrace with its compiler wrapper and hooktrace run "
            "choose it)%s\n",
            mpis, OUR_FAMILY, other[0], other[1],
            ahead ? "; the process also loads a C library of this libhooktrace's MPI, ahead "
                    "of the program's own, which may call it: link the program's "
                    "(-Wl,--no-as-needed)"
                  : "");
}

bool ht_mpi_abi_matches(void)
{
    return ht_mpi_abi_matches_at("MPI_Init");
}

bool ht_mpi_abi_matches_at(const char *entry)
{
    int state = __atomic_load_n(&decided, __ATOMIC_ACQUIRE);
    if (state)
        return state == 1;
    if (!PMPI_Init) {
        /* The program calls MPI but loads no MPI library: it was linked
         * under --as-needed with its MPI libraries after libhooktrace, whose
         * wrappers define every routine it calls, so the linker dropped
         * them.  Nothing can be called: say so rather than crash. */
        fprintf(stderr, "hooktrace: the program calls %s but no MPI library is loaded: link "
                        "its MPI libraries with -Wl,--no-as-needed after -lhooktrace (the "
                        "hooktrace compiler prefix and pkg-config hooktrace do)\n", entry);
        abort();
    }
    /* The library of the entry the program called and the one the
     * wrappers' PMPI calls reach: a Fortran program may link only the
     * Fortran library of its MPI, whose C library then comes after ours. */
    Dl_info theirs = {0}, pmpi = {0};
    void *their_handle, *pmpi_handle;
    bool entry_ours = object_is_ours(dlsym(RTLD_NEXT, entry), &theirs, &their_handle);
    bool pmpi_ours = object_is_ours(dlsym(RTLD_NEXT, "PMPI_Init"), &pmpi, &pmpi_handle);
    bool ours = entry_ours && pmpi_ours;
    /* The program's library: its routines are where the wrappers pass
     * calls on.  Racing threads store the same. */
    if (!ours)
        __atomic_store_n(&their_library, entry_ours ? pmpi_handle : their_handle,
                         __ATOMIC_RELEASE);
    int expected = 0;
    if (!__atomic_compare_exchange_n(&decided, &expected, ours ? 1 : 2, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return expected == 1; /* another thread decided (and said) first */
    if (ours)
        return true;
    __atomic_store_n(&ht_mpi_foreign, 1, __ATOMIC_RELEASE);
    int rank = launcher_rank();
    describe(entry_ours ? &pmpi : &theirs, entry_ours ? pmpi_handle : their_handle,
             ht_world.foreign_mpis, sizeof ht_world.foreign_mpis);
    ht_world.foreign = true;
    ht_world.launcher_rank = rank;
    /* Nothing of MPI_T will start: the components a foreign MPI_Init
     * closes are not held. */
    ht_mpit_hold_cancel();
    ht_mpi_update_logging();
    /* Once per job: the process the launcher calls rank 0, or a process
     * no launcher numbered. */
    if (rank <= 0)
        say(ht_world.foreign_mpis, !entry_ours && pmpi_ours);
    return false;
}

ht_mpi_entry ht_mpi_foreign_entry(ht_mpi_entry *slot, const char *name)
{
    ht_mpi_entry f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (HT_LIKELY(f != NULL))
        return f;
    void *library = __atomic_load_n(&their_library, __ATOMIC_ACQUIRE);
    void *sym = library ? dlsym(library, name) : NULL;
    if (!sym)
        sym = dlsym(RTLD_NEXT, name);
    memcpy(&f, &sym, sizeof f); /* POSIX: object to function pointer */
    if (!f) {
        fprintf(stderr, "hooktrace: %s: not found in the program's MPI library\n", name);
        abort();
    }
    __atomic_store_n(slot, f, __ATOMIC_RELEASE);
    return f;
}
