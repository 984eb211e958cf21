/* Fortran names: the main program is Fortran (test/programs/
 * symbols_fmain.F90) and calls symfix_fortran_checks, which resolves the
 * module procedure, the external subroutine and the main program. */
#include "symbols/symbols.h"
#include "unit/check.h"

#include <stdlib.h>
#include <string.h>

/* gfortran's symbols for mymod::myproc and foo (symbols_fmod.F90). */
extern void __mymod_MOD_myproc(void);
extern void foo_(void);
extern const int symfix_myproc_line, symfix_foo_line;

/* Line of "program symbols_fmain" in symbols_fmain.F90. */
#define FMAIN_LINE 3

void symfix_fortran_checks(void);

/* ht_symbols_scan by the names the profile shows (throttle.never). */
struct scan_result {
    const char *want;
    uintptr_t found[4];
    size_t count;
};

static bool scan_wanted(const char *name, void *ctx)
{
    return strcmp(name, ((struct scan_result *)ctx)->want) == 0;
}

static void scan_found(uintptr_t address, void *ctx)
{
    struct scan_result *r = ctx;
    if (r->count < 4)
        r->found[r->count++] = address;
}

static const char *base_name(const char *path)
{
    if (!path)
        return NULL;
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

void symfix_fortran_checks(void)
{
    struct ht_symbols *syms = ht_symbols_open();
    CHECK(syms != NULL);
    struct ht_symbol s;

    ht_symbols_resolve(syms, (uintptr_t)&__mymod_MOD_myproc, &s);
    CHECK_STR(s.name, "mymod::myproc");
    CHECK_STR(base_name(s.file), "symbols_fmod.F90");
    CHECK_EQ_U64(s.line, symfix_myproc_line);

    ht_symbols_resolve(syms, (uintptr_t)&foo_, &s);
    CHECK_STR(s.name, "foo");
    CHECK_STR(base_name(s.file), "symbols_fmod.F90");
    CHECK_EQ_U64(s.line, symfix_foo_line);

    /* MAIN__ is a local symbol: reach it through the call site, which lies
     * inside it. */
    ht_symbols_resolve(syms, (uintptr_t)__builtin_return_address(0), &s);
    CHECK_STR(s.name, "symbols_fmain");
    CHECK_STR(base_name(s.file), "symbols_fmain.F90");
    CHECK_EQ_U64(s.line, FMAIN_LINE);

    /* The scan finds the main program by its own name, as by MAIN__, and
     * foo_ as "foo", the name the profile shows. */
    uintptr_t main_program = 0;
    static const char *const wanted[] = {"symbols_fmain", "MAIN__", "foo"};
    for (size_t i = 0; i < 3; i++) {
        struct scan_result r = {.want = wanted[i]};
        ht_symbols_scan(true, scan_wanted, scan_found, &r);
        CHECK_EQ_U64(r.count, 1);
        if (i < 2) {
            ht_symbols_resolve(syms, r.found[0], &s);
            CHECK_STR(s.name, "symbols_fmain");
            CHECK(i == 0 || r.found[0] == main_program);
            main_program = r.found[0];
        } else {
            CHECK(r.found[0] == (uintptr_t)&foo_);
        }
    }

    ht_symbols_close(syms);
    exit(CHECK_DONE());
}
