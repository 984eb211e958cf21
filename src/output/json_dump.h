/* Writing a jansson value to a FILE through a buffer of our own. */
#ifndef HT_OUTPUT_JSON_DUMP_H
#define HT_OUTPUT_JSON_DUMP_H

#include <jansson.h>
#include <stdio.h>

/* As json_dumpf(value, f, flags): 0, or -1 if jansson or a write failed. */
int ht_json_dumpf(const json_t *value, FILE *f, size_t flags);

#endif
