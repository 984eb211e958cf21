/* The MPI_T parts of the text logfile (docs/output_mpi.md, "MPI_T"): a header
 * line with the notes, the control variables mpi_t.cvars lists, and a
 * table of performance variables per stack. */
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "output/output_mpit.h"

#define DESCRIPTION_WIDTH 70
#define VALUE_WIDTH 40

static bool listed(const struct ht_regex_list *list, const char *name)
{
    return list && ht_regex_list_matches(list, name);
}

static const char *read_how(char *buf, size_t size, unsigned interval_us)
{
    if (interval_us == 0)
        snprintf(buf, size, "before and after every logged MPI call");
    else
        snprintf(buf, size, "after a logged MPI call, at most every %u us per thread",
                 interval_us);
    return buf;
}

void ht_output_logfile_mpit_header(FILE *out, const struct ht_mpit_view *v, bool summary,
                                   const char *mpit_file)
{
    if (v->status) {
        fprintf(out, "MPI_T:           %s\n", v->status);
    } else {
        size_t n = 0;
        for (size_t i = 0; i < v->ncvars; i++)
            n += listed(v->listed_cvars, v->cvars[i].name);
        char how[128];
        if (v->cvars_complete_in)
            fprintf(out, "MPI_T:           %zu control variables (rank %d; written once per job:"
                         " rank 0's are in %s); %zu performance variables",
                    v->cvars_read, v->cvar_rank, v->cvars_complete_in, v->npvars);
        else if (mpit_file)
            fprintf(out, "MPI_T:           %zu control variables (rank %d; all in %s, %zu listed"
                         " below by mpi_t.cvars); %zu performance variables",
                    v->ncvars, v->cvar_rank, mpit_file, n, v->npvars);
        else
            fprintf(out, "MPI_T:           %zu control variables (rank %d; %zu listed below by"
                         " mpi_t.cvars); %zu performance variables",
                    v->ncvars, v->cvar_rank, n, v->npvars);
        if (v->npvars)
            fprintf(out, " read %s%s", read_how(how, sizeof how, v->read_interval_us),
                    summary ? " (figures per stack over ranks)" : "");
        fputc('\n', out);
        /* Inside MPI_Init: part of MPI_Init's time in the tables, not the
         * caller's.  At MPI_Finalize: beside the merge, in no node. */
        if (v->started_late)
            fprintf(out, "MPI_T start-up:  %.6f s on rank %d, at MPI_Finalize beside the merge\n",
                    v->startup_s, v->cvar_rank);
        else if (v->started_in)
            fprintf(out, "MPI_T start-up:  %.6f s on rank %d, inside %s\n", v->startup_s,
                    v->cvar_rank, v->started_in);
    }
    for (size_t i = 0; i < v->nnotes; i++)
        fprintf(out, "note:            MPI_T: %s\n", v->notes[i]);
    for (size_t i = 0; i < v->npvars; i++)
        if (v->pvars[i].failed_reads)
            fprintf(out, "note:            MPI_T: %llu reads of %s failed%s; those calls are left"
                         " out of its figures\n",
                    (unsigned long long)v->pvars[i].failed_reads, v->pvars[i].name,
                    summary ? " (all ranks)" : "");
}

static void print_number(char *buf, size_t size, enum ht_mpit_value_kind kind,
                         union ht_mpit_number n)
{
    switch (kind) {
    case HT_MPIT_VALUE_INT:
        snprintf(buf, size, "%lld", (long long)n.i);
        break;
    case HT_MPIT_VALUE_UINT:
        snprintf(buf, size, "%llu", (unsigned long long)n.u);
        break;
    case HT_MPIT_VALUE_REAL:
        snprintf(buf, size, "%g", n.d);
        break;
    case HT_MPIT_VALUE_BOOL:
        snprintf(buf, size, "%s", n.u ? "true" : "false");
        break;
    default:
        snprintf(buf, size, "-");
    }
}

static void format_value(char *buf, size_t size, const struct ht_mpit_cvar *c)
{
    size_t pos = 0;
    buf[0] = '\0';
    if (c->kind == HT_MPIT_VALUE_NONE) {
        snprintf(buf, size, "(%s)", c->unread ? c->unread : "not read");
        return;
    }
    if (c->kind == HT_MPIT_VALUE_STRING) {
        snprintf(buf, size, "\"%s\"", c->string ? c->string : "");
        return;
    }
    for (int i = 0; i < c->nvalues && pos + 1 < size; i++) {
        char one[64];
        print_number(one, sizeof one, c->kind, c->values[i]);
        int n = snprintf(buf + pos, size - pos, "%s%s", i ? ", " : "", one);
        pos = n < 0 || (size_t)n >= size - pos ? size - 1 : pos + (size_t)n;
    }
    if (c->enum_item && pos + 1 < size)
        snprintf(buf + pos, size - pos, " (%s)", c->enum_item);
}

/* A cell of at most `width` characters: longer text is cut with "...". */
static void print_cut(FILE *out, const char *text, int width, bool pad)
{
    int n = (int)strlen(text);
    if (n <= width)
        fprintf(out, pad ? "%-*s" : "%.*s", width, text);
    else
        fprintf(out, "%.*s...", width - 3, text);
}

static void print_cvars(FILE *out, const struct ht_mpit_view *v)
{
    fprintf(out, "Control variables (MPI_T) of rank %d matching mpi_t.cvars\n\n", v->cvar_rank);
    int nw = (int)strlen("name");
    size_t n = 0;
    for (size_t i = 0; i < v->ncvars; i++) {
        if (!listed(v->listed_cvars, v->cvars[i].name))
            continue;
        n++;
        if ((int)strlen(v->cvars[i].name) > nw)
            nw = (int)strlen(v->cvars[i].name);
    }
    if (n == 0) {
        fprintf(out, "(no control variable matches)\n\n");
        return;
    }
    fprintf(out, "%-*s  %-*s  %-10s  %s\n", nw, "name", VALUE_WIDTH, "value", "scope",
            "description");
    for (size_t i = 0; i < v->ncvars; i++) {
        const struct ht_mpit_cvar *c = &v->cvars[i];
        if (!listed(v->listed_cvars, c->name))
            continue;
        char value[512];
        format_value(value, sizeof value, c);
        fprintf(out, "%-*s  ", nw, c->name);
        print_cut(out, value, VALUE_WIDTH, true);
        fprintf(out, "  %-10s  ", c->scope);
        /* Descriptions may span lines; the table keeps one row per cvar. */
        char desc[DESCRIPTION_WIDTH + 4];
        size_t k = 0;
        for (const char *d = c->description; *d && k < sizeof desc - 1; d++)
            desc[k++] = (*d == '\n' || *d == '\t') ? ' ' : *d;
        desc[k] = '\0';
        print_cut(out, desc, DESCRIPTION_WIDTH, false);
        fputc('\n', out);
    }
    fputc('\n', out);
}

static void print_figure(FILE *out, double x, bool integral)
{
    if (!isfinite(x))
        fprintf(out, " %14s", "-");
    else if (integral)
        fprintf(out, " %14.0f", x);
    else
        fprintf(out, " %14.6g", x);
}

static bool stack_has_pvars(const struct ht_mpit_view *v, int id)
{
    for (size_t k = 0; k < v->nslots; k++) {
        const struct ht_mpit_stat *st = ht_mpit_stat_of(v, id, k);
        if (st && st->ranks)
            return true;
    }
    return false;
}

static void print_path(FILE *out, const struct ht_profile *p, int id, int *path)
{
    int depth = ht_profile_path(p, id, path, (int)p->nstacks);
    for (int d = 0; d < depth; d++)
        fprintf(out, "%s%s", d ? " > " : "", p->stacks[path[d]].function->name);
}

static void print_stack_pvars(FILE *out, const struct ht_profile *p, const int *order,
                              const struct ht_mpit_view *v, bool summary)
{
    int *path = malloc((p->nstacks ? p->nstacks : 1) * sizeof *path);
    if (!path)
        return;
    int sw = (int)strlen("pvar");
    for (size_t k = 0; k < v->nslots; k++)
        if ((int)strlen(v->slots[k].name) > sw)
            sw = (int)strlen(v->slots[k].name);
    if (summary)
        fprintf(out, "Performance variables (MPI_T) per stack, over the ranks that read them on"
                     " the stack\n");
    else
        fprintf(out, "Performance variables (MPI_T) per stack, this rank\n");
    fprintf(out, "(how: change = summed change during the calls, max / min = highest / lowest"
                 " value read)\n\n");
    bool any = false;
    for (size_t i = 0; i < p->nstacks; i++) {
        int id = order[i];
        if (!stack_has_pvars(v, id))
            continue;
        any = true;
        fprintf(out, "stack %d: ", id);
        print_path(out, p, id, path);
        fprintf(out, "\n  %-*s %-6s", sw, "pvar", "how");
        if (summary)
            fprintf(out, " %14s %14s %14s %6s\n", "min", "avg", "max", "ranks");
        else
            fprintf(out, " %14s\n", "value");
        for (size_t k = 0; k < v->nslots; k++) {
            const struct ht_mpit_stat *st = ht_mpit_stat_of(v, id, k);
            if (!st || !st->ranks)
                continue;
            const struct ht_mpit_slot *slot = &v->slots[k];
            const struct ht_mpit_pvar_desc *d =
                slot->pvar >= 0 && (size_t)slot->pvar < v->npvars ? &v->pvars[slot->pvar] : NULL;
            bool integral = d && d->integral;
            fprintf(out, "  %-*s %-6s", sw, slot->name, d ? d->aggregation : "?");
            if (summary) {
                print_figure(out, st->min, integral);
                print_figure(out, st->sum / st->ranks, false);
                print_figure(out, st->max, integral);
                fprintf(out, " %6u\n", st->ranks);
            } else {
                print_figure(out, st->sum, integral);
                fputc('\n', out);
            }
        }
        fputc('\n', out);
    }
    if (!any)
        fprintf(out, "(no MPI call read them)\n\n");
    free(path);
}

void ht_output_logfile_mpit_tables(FILE *out, const struct ht_profile *p, const int *order,
                                   const struct ht_mpit_view *v, bool summary)
{
    if (v->listed_cvars && v->listed_cvars->count > 0 && v->initialized)
        print_cvars(out, v);
    if (v->npvars > 0)
        print_stack_pvars(out, p, order, v, summary);
}
