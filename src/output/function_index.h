/* Each distinct function (name, file, line) of a profile once, numbered in
 * order of first appearance: the JSON profile's "functions" and the
 * speedscope file's "frames" (docs/output.md).  Also the one JSON string
 * writer the hand-streamed outputs share. */
#ifndef HT_OUTPUT_FUNCTION_INDEX_H
#define HT_OUTPUT_FUNCTION_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "callstack/profile.h"

/* An open-addressing table maps functions to the numbers by value: a
 * merged profile has one ht_function per stack, not one per function. */
struct ht_function_index {
    const struct ht_function **keys;
    int *values;
    size_t mask;
    const struct ht_function **list; /* by number */
    int count;
};

/* Room for nstacks functions; false if out of memory (free it anyway). */
bool ht_function_index_init(struct ht_function_index *fi, size_t nstacks);
void ht_function_index_free(struct ht_function_index *fi);
/* The number of f, given the next one if f is new. */
int ht_function_index_of(struct ht_function_index *fi, const struct ht_function *f);

/* s as a JSON string with its quotes: '"', '\\' and control characters
 * escaped, other bytes as they are (names come from the symbol tables). */
void ht_output_json_string(FILE *out, const char *s);
/* s then suffix, as one JSON string. */
void ht_output_json_string_suffixed(FILE *out, const char *s, const char *suffix);

#endif
