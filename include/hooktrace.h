/* hooktrace public interface.
 *
 * Most programs need nothing from this header: compile with
 * -finstrument-functions and link -lhooktrace.  It declares the
 * instrumentation hooks (so that code which calls them explicitly is
 * type-checked) and the library version. */
#ifndef HOOKTRACE_H
#define HOOKTRACE_H

#ifdef __cplusplus
extern "C" {
#endif

#define HOOKTRACE_VERSION_MAJOR 0
#define HOOKTRACE_VERSION_MINOR 1
#define HOOKTRACE_VERSION_PATCH 0

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
#endif

#endif
