/* The run's metadata, gathered at shut-down (metadata.c). */
#ifndef HT_RUNTIME_METADATA_H
#define HT_RUNTIME_METADATA_H

#include "config/config.h"
#include "output/output.h"

/* Fills m; *args_text holds the arguments m->argv points into.  Both go to
 * ht_runtime_metadata_free. */
void ht_runtime_metadata(struct ht_run_metadata *m, char **args_text, const struct ht_config *cfg);
void ht_runtime_metadata_free(struct ht_run_metadata *m, char *args_text);

#endif
