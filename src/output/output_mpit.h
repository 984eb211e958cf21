/* The MPI_T parts of the outputs (json_mpit.c, logfile_mpit.c); the view
 * they print is src/mpit/view.h. */
#ifndef HT_OUTPUT_OUTPUT_MPIT_H
#define HT_OUTPUT_OUTPUT_MPIT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "callstack/profile.h"
#include "mpit/view.h"
#include "output/output.h"

/* JSON (json_mpit.c): the top-level "mpi_t" object, whose control
 * variables go where run says (cvars_inline, mpit_file), and a stack's
 * "pvars". */
void ht_output_json_mpit_top(json_t *doc, const struct ht_mpit_view *v,
                             const struct ht_run_info *run);
void ht_output_json_mpit_stack(json_t *obj, const struct ht_stack *s, const struct ht_mpit_view *v);
/* <basename>.mpit.json: every control variable of v, for run.  -1 if out
 * of memory. */
int ht_output_json_mpit_file(FILE *f, const struct ht_mpit_view *v, const struct ht_run_info *run);

/* Logfile (logfile_mpit.c): the header lines, and the tables (the control
 * variables mpi_t.cvars lists, the performance variables per stack). */
void ht_output_logfile_mpit_header(FILE *out, const struct ht_mpit_view *v, bool summary,
                                   const char *mpit_file);
void ht_output_logfile_mpit_tables(FILE *out, const struct ht_profile *p, const int *order,
                                   const struct ht_mpit_view *v, bool summary);

#endif
