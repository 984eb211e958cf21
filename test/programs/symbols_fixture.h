/* Functions whose addresses the symbols unit tests resolve, with the lines
 * where they are defined. */
#ifndef HT_TEST_SYMBOLS_FIXTURE_H
#define HT_TEST_SYMBOLS_FIXTURE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* symbols_fixture.c */
uintptr_t symfix_static_address(void);
extern const unsigned symfix_static_line;
/* Defined in symbols_fixture_inc.h. */
uintptr_t symfix_header_address(void);
extern const unsigned symfix_header_function_line;
void bar_(void);
extern const unsigned symfix_bar_line;
/* A C function under a C++-mangled name: demangling must work in a C
 * program that does not link libstdc++. */
void symfix_mangled(int x) __asm__("_ZN6symfix7mangledEi");

/* symbols_lib.c, built into libsymfixture.so */
int symlib_function(int x);
int symlib_other(int x);
int symlib_third(int x);
extern const unsigned symlib_function_line;
extern const unsigned symlib_other_line;

/* symbols_gone.c, built into libsymgone.so */
int symgone_function(int x);

/* symbols_cxx.cpp */
uintptr_t symcxx_resize_address(void);
uintptr_t symcxx_twice_address(void);
extern const unsigned symcxx_resize_line;
extern const unsigned symcxx_twice_line;

#ifdef __cplusplus
}
#endif

#endif
