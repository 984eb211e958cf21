/* Which performance variables are read (docs/mpi_t.md): chosen once, in
 * MPI_Init, by name (mpi_t.pvars) or class (mpi_t.pvar_classes); bound to
 * no object or to a communicator (MPI_COMM_WORLD); a numeric type; each
 * name once (Open MPI lists some several times).  The ones set aside are
 * named in a note. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit/mpit_internal.h"

#define MAX_REJECTED 256 /* variables set aside that a note names */

static int class_of(int var_class)
{
    switch (var_class) {
    case MPI_T_PVAR_CLASS_STATE: return HT_MPIT_CLASS_STATE;
    case MPI_T_PVAR_CLASS_LEVEL: return HT_MPIT_CLASS_LEVEL;
    case MPI_T_PVAR_CLASS_SIZE: return HT_MPIT_CLASS_SIZE;
    case MPI_T_PVAR_CLASS_PERCENTAGE: return HT_MPIT_CLASS_PERCENTAGE;
    case MPI_T_PVAR_CLASS_HIGHWATERMARK: return HT_MPIT_CLASS_HIGHWATERMARK;
    case MPI_T_PVAR_CLASS_LOWWATERMARK: return HT_MPIT_CLASS_LOWWATERMARK;
    case MPI_T_PVAR_CLASS_COUNTER: return HT_MPIT_CLASS_COUNTER;
    case MPI_T_PVAR_CLASS_AGGREGATE: return HT_MPIT_CLASS_AGGREGATE;
    case MPI_T_PVAR_CLASS_TIMER: return HT_MPIT_CLASS_TIMER;
    case MPI_T_PVAR_CLASS_GENERIC: return HT_MPIT_CLASS_GENERIC;
    default: return -1;
    }
}

static enum ht_mpit_how how_of(enum ht_mpit_class c)
{
    switch (c) {
    case HT_MPIT_CLASS_COUNTER:
    case HT_MPIT_CLASS_AGGREGATE:
    case HT_MPIT_CLASS_TIMER:
        return HT_MPIT_CHANGE;
    case HT_MPIT_CLASS_LOWWATERMARK:
        return HT_MPIT_MIN;
    default:
        return HT_MPIT_MAX;
    }
}

/* The element type, or false for one hooktrace does not read (strings,
 * booleans, anything not a plain number). */
static bool numeric_type(MPI_Datatype t, enum ht_mpit_num *num, size_t *size)
{
    bool is_signed = t == MPI_INT || t == MPI_LONG || t == MPI_LONG_LONG || t == MPI_COUNT;
    bool is_unsigned = t == MPI_UNSIGNED || t == MPI_UNSIGNED_LONG || t == MPI_UNSIGNED_LONG_LONG;
    int bytes = 0;
    if (t == MPI_DOUBLE) {
        *num = HT_MPIT_F64;
        *size = sizeof(double);
        return true;
    }
    if ((!is_signed && !is_unsigned) || PMPI_Type_size(t, &bytes) != MPI_SUCCESS ||
        (bytes != 4 && bytes != 8))
        return false;
    *num = bytes == 4 ? (is_signed ? HT_MPIT_I32 : HT_MPIT_U32)
                      : (is_signed ? HT_MPIT_I64 : HT_MPIT_U64);
    *size = (size_t)bytes;
    return true;
}

static bool matches(const struct ht_regex_list *list, const char *name)
{
    return ht_regex_list_matches(list, name);
}

/* Variables that crash the library when a handle is allocated in a common
 * setting: read only when a pattern of mpi_t.pvars names them, never just
 * because of their class. */
static const struct {
    const char *prefix;
    const char *why;
} unsafe_by_class[] = {
    /* Open MPI 4.1 registers them whenever the component is opened; with
     * the PSM2 transport not in use the read callback follows a null
     * queue pointer (psm2_mq_get_stats). */
    {"mtl_psm2_", "selected by class only, and Open MPI crashes allocating a handle for these"
                  " when the PSM2 transport is not in use (a pattern of mpi_t.pvars that"
                  " names them reads them)"},
};

static const char *unsafe(const char *name)
{
    for (size_t i = 0; i < sizeof unsafe_by_class / sizeof unsafe_by_class[0]; i++)
        if (strncmp(name, unsafe_by_class[i].prefix, strlen(unsafe_by_class[i].prefix)) == 0)
            return unsafe_by_class[i].why;
    return NULL;
}

static bool chosen_already(const char *name)
{
    for (size_t i = 0; i < ht_mpit.npvars; i++)
        if (strcmp(ht_mpit.pvars[i].name, name) == 0)
            return true;
    return false;
}

/* Names set aside (binding, type), noted at the end unless a duplicate of
 * the same name was usable. */
struct rejected {
    char name[256];
    const char *why;
};

static void reject(struct rejected *r, size_t *n, size_t cap, const char *name, const char *why)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(r[i].name, name) == 0)
            return;
    if (*n < cap) {
        snprintf(r[*n].name, sizeof r[*n].name, "%s", name);
        r[(*n)++].why = why;
    }
}

/* One note per reason, naming the variables it kept out. */
static void note_rejected(const struct rejected *rej, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        bool first = true;
        for (size_t k = 0; k < i && first; k++)
            first = rej[k].why != rej[i].why;
        if (!first)
            continue;
        char names[1024];
        size_t pos = 0, count = 0;
        names[0] = '\0';
        for (size_t k = i; k < n; k++) {
            if (rej[k].why != rej[i].why || chosen_already(rej[k].name))
                continue;
            count++;
            if (pos < sizeof names) {
                int w = snprintf(names + pos, sizeof names - pos, "%s%s", pos ? ", " : "",
                                 rej[k].name);
                pos = w < 0 ? sizeof names : pos + (size_t)w;
            }
        }
        if (count)
            ht_mpit_note("%s %s not read: %s", count > 1 ? "performance variables" :
                         "performance variable", names, rej[i].why);
    }
}

/* Pass 1: the candidates, into ht_mpit.pvars (count still unknown). */
static int choose(int num, struct rejected *rej, size_t *nrej, size_t rejcap)
{
    const struct ht_mpit_config *mc = &ht_mpit.config->mpi_t;
    char name[256], desc[2048];
    int listed = 0;
    for (int i = 0; i < num; i++) {
        int name_len = sizeof name, desc_len = sizeof desc;
        int verbosity, var_class, bind, readonly, continuous, atomic;
        MPI_Datatype type;
        MPI_T_enum et;
        if (MPI_T_pvar_get_info(i, name, &name_len, &verbosity, &var_class, &type, &et, desc,
                                &desc_len, &bind, &readonly, &continuous,
                                &atomic) != MPI_SUCCESS)
            continue; /* an index Open MPI keeps for a component it did not load */
        listed++;
        name[sizeof name - 1] = desc[sizeof desc - 1] = '\0';
        int cls = class_of(var_class);
        bool named = matches(&mc->pvars, name);
        bool wanted = named || (cls >= 0 && (mc->pvar_classes & (1u << cls)) != 0);
        if (!wanted || chosen_already(name))
            continue;
        enum ht_mpit_num num_kind = HT_MPIT_U64;
        size_t elem_size = 0;
        const char *why = NULL;
        if (cls < 0)
            why = "a class MPI_T does not define";
        else if (bind != MPI_T_BIND_NO_OBJECT && bind != MPI_T_BIND_MPI_COMM)
            why = "bound to an object other than a communicator";
        else if (bind == MPI_T_BIND_MPI_COMM && ht_mpit.bind_comm == MPI_COMM_NULL)
            why = "bound to a communicator, and a sessions program has no MPI_COMM_WORLD";
        else if (!numeric_type(type, &num_kind, &elem_size))
            why = "not of a number type";
        else if (!named)
            why = unsafe(name);
        if (why) {
            reject(rej, nrej, rejcap, name, why);
            continue;
        }
        struct ht_mpit_pvar *p = &ht_mpit.pvars[ht_mpit.npvars];
        memset(p, 0, sizeof *p);
        p->name = strdup(name);
        p->description = strdup(desc);
        if (!p->name || !p->description) {
            free(p->name);
            free(p->description);
            ht_mpit_note("out of memory while choosing performance variables");
            break;
        }
        p->index = i;
        p->class_id = (enum ht_mpit_class)cls;
        /* Some libraries expose counters under another class (Open MPI's
         * monitoring counts are "size"): the user says so. */
        p->how = matches(&mc->pvar_change, name) ? HT_MPIT_CHANGE : how_of(p->class_id);
        p->num = num_kind;
        p->elem_size = elem_size;
        p->type_name = ht_mpit_type_name(type);
        p->bind = bind;
        p->continuous = continuous != 0;
        p->readonly = readonly != 0;
        p->atomic = atomic != 0;
        ht_mpit.npvars++;
    }
    return listed;
}

int ht_mpit_choose_pvars(int num, size_t *nrejected)
{
    ht_mpit.pvars = calloc((size_t)num, sizeof *ht_mpit.pvars);
    struct rejected *rej = calloc(MAX_REJECTED, sizeof *rej);
    *nrejected = 0;
    if (!ht_mpit.pvars || !rej) {
        free(rej);
        return -1;
    }
    int listed = choose(num, rej, nrejected, MAX_REJECTED);
    note_rejected(rej, *nrejected);
    free(rej);
    return listed;
}
