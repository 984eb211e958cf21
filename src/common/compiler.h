/* Compiler attributes shared by every module.
 *
 * Everything not part of the public interface is compiled with
 * -fvisibility=hidden; HT_EXPORT marks the few symbols a program may bind to
 * (the instrumentation hooks, hooktrace_* and, later, the MPI wrappers).
 * Internal functions shared between files carry the ht_ prefix so that a
 * static link into a user program cannot collide with the program's names. */
#ifndef HT_COMMON_COMPILER_H
#define HT_COMMON_COMPILER_H

#define HT_EXPORT __attribute__((visibility("default")))
#define HT_NOINSTR __attribute__((no_instrument_function))
#define HT_LIKELY(x) __builtin_expect(!!(x), 1)
#define HT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define HT_COLD __attribute__((cold, noinline))
/* For the few inline functions every MPI wrapper expands on its common
 * path, where GCC's unit-growth limit would otherwise outline them in a
 * large file of wrappers (MPICH's). */
#define HT_ALWAYS_INLINE __attribute__((always_inline))

#endif
