/* The MPI_T parts of the outputs (json_mpit.c, logfile_mpit.c); the view
 * they print is src/mpit/view.h. */
#ifndef HT_OUTPUT_OUTPUT_MPIT_H
#define HT_OUTPUT_OUTPUT_MPIT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "callstack/profile.h"
#include "mpit/view.h"

/* JSON (json_mpit.c): the top-level "mpi_t" object, and a stack's "pvars". */
void ht_output_json_mpit_top(json_t *doc, const struct ht_mpit_view *v);
void ht_output_json_mpit_stack(json_t *obj, const struct ht_stack *s, const struct ht_mpit_view *v);

/* Logfile (logfile_mpit.c): the header lines, and the tables (the control
 * variables mpi_t.cvars lists, the performance variables per stack). */
void ht_output_logfile_mpit_header(FILE *out, const struct ht_mpit_view *v, bool summary);
void ht_output_logfile_mpit_tables(FILE *out, const struct ht_profile *p, const int *order,
                                   const struct ht_mpit_view *v, bool summary);

#endif
