/* Minimal assertions for the C unit tests: each CHECK counts, a failure
 * prints where and what, and CHECK_DONE() prints the totals and returns the
 * exit status automake's test driver expects (0 pass, 1 fail). */
#ifndef HT_TEST_CHECK_H
#define HT_TEST_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (cond) {                                                              \
            check_passed++;                                                      \
        } else {                                                                 \
            check_failed++;                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

#define CHECK_EQ_U64(actual, expected)                                           \
    do {                                                                         \
        uint64_t check_a_ = (uint64_t)(actual), check_e_ = (uint64_t)(expected); \
        if (check_a_ == check_e_) {                                              \
            check_passed++;                                                      \
        } else {                                                                 \
            check_failed++;                                                      \
            fprintf(stderr, "%s:%d: %s == %" PRIu64 ", expected %" PRIu64 "\n",  \
                    __FILE__, __LINE__, #actual, check_a_, check_e_);            \
        }                                                                        \
    } while (0)

#define CHECK_STR(actual, expected)                                              \
    do {                                                                         \
        const char *check_a_ = (actual), *check_e_ = (expected);                 \
        if (check_a_ && check_e_ && strcmp(check_a_, check_e_) == 0) {           \
            check_passed++;                                                      \
        } else {                                                                 \
            check_failed++;                                                      \
            fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__,  \
                    __LINE__, #actual, check_a_ ? check_a_ : "(null)",           \
                    check_e_ ? check_e_ : "(null)");                             \
        }                                                                        \
    } while (0)

#define CHECK_CONTAINS(haystack, needle)                                         \
    do {                                                                         \
        const char *check_h_ = (haystack), *check_n_ = (needle);                 \
        if (check_h_ && strstr(check_h_, check_n_)) {                            \
            check_passed++;                                                      \
        } else {                                                                 \
            check_failed++;                                                      \
            fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, \
                    __LINE__, check_h_ ? check_h_ : "(null)", check_n_);         \
        }                                                                        \
    } while (0)

#define CHECK_DONE()                                                             \
    (printf("%d passed, %d failed\n", check_passed, check_failed),              \
     check_failed ? 1 : 0)

#endif
