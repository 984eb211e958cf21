/* hooktrace public interface.
 *
 * Most programs need nothing from this header: compile with
 * -finstrument-functions and link -lhooktrace.  It declares the regions a
 * program may name (docs/regions.md), the instrumentation hooks (so that
 * code which calls them explicitly is type-checked) and the library
 * version. */
#ifndef HOOKTRACE_H
#define HOOKTRACE_H

#ifdef __cplusplus
extern "C" {
#endif

#define HOOKTRACE_VERSION_MAJOR 0
#define HOOKTRACE_VERSION_MINOR 1
#define HOOKTRACE_VERSION_PATCH 0

/* Regions: hooktrace_region_begin("solve") ... hooktrace_region_end("solve")
 * makes "solve" a node of the call tree under the function that opened it,
 * with its calls and time; the functions, MPI calls and messages inside it
 * are attributed below it.  Regions nest, like calls; an end must name the
 * innermost open region of its thread (docs/regions.md says what happens
 * otherwise).  The references are weak and each call checks that the
 * library is there: a program built without libhooktrace links against
 * nothing new, and the calls do nothing. */
void hooktrace_region_begin(const char *name)
    __attribute__((weak, no_instrument_function));
void hooktrace_region_end(const char *name)
    __attribute__((weak, no_instrument_function));
#define hooktrace_region_begin(name) \
    (hooktrace_region_begin ? (hooktrace_region_begin)(name) : (void)0)
#define hooktrace_region_end(name) \
    (hooktrace_region_end ? (hooktrace_region_end)(name) : (void)0)

/* Phases: hooktrace_phase("solve") begins the phase "solve" on every
 * thread: from now until the next phase (or the end), what the program
 * does is recorded below a root node "phase:solve", so that the profile
 * has each phase's subtree and, summed over them, the whole run's
 * (docs/regions.md, "Named phases").  Weak, as the regions. */
void hooktrace_phase(const char *name) __attribute__((weak, no_instrument_function));
#define hooktrace_phase(name) (hooktrace_phase ? (hooktrace_phase)(name) : (void)0)

/* The version of the library actually loaded, as "major.minor.patch". */
const char *hooktrace_version(void);

void __cyg_profile_func_enter(void *function, void *call_site)
    __attribute__((no_instrument_function));
void __cyg_profile_func_exit(void *function, void *call_site)
    __attribute__((no_instrument_function));

/* What the compiler plugins call in place of the hooks of inlined copies
 * they count: count more calls of the function whose inlined-copy id is
 * id, under scope, the function or copy they were inlined into, whose
 * exit hook follows (docs/plugin.md).  hooktrace_inlined_calls: the same
 * under the current call, for objects compiled by earlier plugins. */
void hooktrace_inlined_calls_in(const void *id, unsigned long count, const void *scope)
    __attribute__((no_instrument_function));
void hooktrace_inlined_calls(const void *id, unsigned long count)
    __attribute__((no_instrument_function));

#ifdef __cplusplus
}

namespace hooktrace {
/* A region for the life of a scope: hooktrace::region r("assemble"); */
class region {
public:
    __attribute__((no_instrument_function)) explicit region(const char *name) : name_(name)
    {
        hooktrace_region_begin(name_);
    }
    __attribute__((no_instrument_function)) ~region() { hooktrace_region_end(name_); }
    region(const region &) = delete;
    region &operator=(const region &) = delete;

private:
    const char *name_;
};
} // namespace hooktrace
#endif

#endif
