/* Control variables: every one the MPI library lists, read once after
 * MPI_Init, with its type, scope, verbosity, binding and description.
 * Values are copied out at once, so the outputs need no MPI_T call. */
#include <stdlib.h>
#include <string.h>

#include "mpit/mpit_internal.h"

#define NAME_BYTES 256
#define DESCRIPTION_BYTES 4096
#define MAX_ELEMENTS (1 << 20) /* beyond this a cvar is not read (none comes close) */

/* The enumeration item naming value, or NULL. */
static char *enum_item(MPI_T_enum type, int64_t value)
{
    int n = 0, len;
    char name[NAME_BYTES];
    len = sizeof name;
    if (MPI_T_enum_get_info(type, &n, name, &len) != MPI_SUCCESS)
        return NULL;
    for (int k = 0; k < n; k++) {
        int v;
        len = sizeof name;
        if (MPI_T_enum_get_item(type, k, &v, name, &len) == MPI_SUCCESS && v == value)
            return strdup(name);
    }
    return NULL;
}

/* The raw elements into c's value fields. */
static void convert(struct ht_mpit_cvar *c, MPI_Datatype t, const unsigned char *raw, int count)
{
    int n = count < HT_MPIT_CVAR_MAX_ELEMENTS ? count : HT_MPIT_CVAR_MAX_ELEMENTS;
    c->nvalues = n;
    for (int i = 0; i < n; i++) {
        union ht_mpit_number *v = &c->values[i];
        if (t == MPI_INT) {
            int x;
            memcpy(&x, raw + i * sizeof x, sizeof x);
            v->i = x;
            c->kind = HT_MPIT_VALUE_INT;
        } else if (t == MPI_UNSIGNED) {
            unsigned x;
            memcpy(&x, raw + i * sizeof x, sizeof x);
            v->u = x;
            c->kind = HT_MPIT_VALUE_UINT;
        } else if (t == MPI_LONG) {
            long x;
            memcpy(&x, raw + i * sizeof x, sizeof x);
            v->i = x;
            c->kind = HT_MPIT_VALUE_INT;
        } else if (t == MPI_UNSIGNED_LONG) {
            unsigned long x;
            memcpy(&x, raw + i * sizeof x, sizeof x);
            v->u = x;
            c->kind = HT_MPIT_VALUE_UINT;
        } else if (t == MPI_LONG_LONG || t == MPI_COUNT) {
            long long x;
            memcpy(&x, raw + i * sizeof x, sizeof x);
            v->i = x;
            c->kind = HT_MPIT_VALUE_INT;
        } else if (t == MPI_UNSIGNED_LONG_LONG) {
            unsigned long long x;
            memcpy(&x, raw + i * sizeof x, sizeof x);
            v->u = x;
            c->kind = HT_MPIT_VALUE_UINT;
        } else if (t == MPI_DOUBLE) {
            memcpy(&v->d, raw + i * sizeof v->d, sizeof v->d);
            c->kind = HT_MPIT_VALUE_REAL;
        } else if (t == MPI_C_BOOL) {
            _Bool x;
            memcpy(&x, raw + i * sizeof x, sizeof x);
            v->u = x;
            c->kind = HT_MPIT_VALUE_BOOL;
        }
    }
}

/* Reads the value of cvar `index` (described already) into c. */
static void read_value(struct ht_mpit_cvar *c, int index, MPI_Datatype t, MPI_T_enum et,
                       int bind)
{
    c->kind = HT_MPIT_VALUE_NONE;
    if (!ht_mpit_type_name(t)) {
        c->unread = "a type hooktrace does not read";
        return;
    }
    if (bind != MPI_T_BIND_NO_OBJECT) {
        c->unread = "bound to an MPI object";
        return;
    }
    MPI_T_cvar_handle h;
    int count = 0;
    if (MPI_T_cvar_handle_alloc(index, NULL, &h, &count) != MPI_SUCCESS) {
        c->unread = "MPI_T_cvar_handle_alloc failed";
        return;
    }
    int size = 0;
    PMPI_Type_size(t, &size);
    c->count = count;
    unsigned char *raw = count > 0 && count <= MAX_ELEMENTS && size > 0
                             ? calloc((size_t)count + 1, (size_t)size)
                             : NULL;
    if (!raw)
        c->unread = count <= 0 ? "no elements" : "too large to read";
    else if (MPI_T_cvar_read(h, raw) != MPI_SUCCESS)
        c->unread = "MPI_T_cvar_read failed";
    else if (t == MPI_CHAR) {
        raw[count] = '\0'; /* the library's string is terminated; be sure */
        c->string = strdup((const char *)raw);
        c->kind = c->string ? HT_MPIT_VALUE_STRING : HT_MPIT_VALUE_NONE;
        if (!c->string)
            c->unread = "out of memory";
    } else {
        convert(c, t, raw, count);
        if (c->kind == HT_MPIT_VALUE_INT && count == 1 && et != MPI_T_ENUM_NULL)
            c->enum_item = enum_item(et, c->values[0].i);
    }
    free(raw);
    MPI_T_cvar_handle_free(&h);
}

void ht_mpit_read_cvars(void)
{
    int num = 0;
    if (MPI_T_cvar_get_num(&num) != MPI_SUCCESS || num <= 0) {
        ht_mpit_note("the MPI library lists no control variables");
        return;
    }
    ht_mpit.cvars = calloc((size_t)num, sizeof *ht_mpit.cvars);
    if (!ht_mpit.cvars) {
        ht_mpit_note("out of memory: control variables not read");
        return;
    }
    char *name = malloc(NAME_BYTES), *desc = malloc(DESCRIPTION_BYTES);
    int invalid = 0, last_error = MPI_SUCCESS;
    bool out_of_memory = !name || !desc;
    for (int i = 0; name && desc && i < num; i++) {
        int name_len = NAME_BYTES, desc_len = DESCRIPTION_BYTES, verbosity, bind, scope;
        MPI_Datatype type;
        MPI_T_enum et;
        int rc = MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &et, desc, &desc_len,
                                     &bind, &scope);
        if (rc != MPI_SUCCESS) {
            /* Open MPI keeps the indices of components it did not load. */
            invalid++;
            last_error = rc;
            continue;
        }
        name[NAME_BYTES - 1] = desc[DESCRIPTION_BYTES - 1] = '\0';
        struct ht_mpit_cvar *c = &ht_mpit.cvars[ht_mpit.ncvars];
        c->name = strdup(name);
        c->description = strdup(desc);
        if (!c->name || !c->description) {
            free((char *)c->name);
            free((char *)c->description);
            memset(c, 0, sizeof *c);
            out_of_memory = true;
            continue;
        }
        ht_mpit.ncvars++;
        const char *tn = ht_mpit_type_name(type);
        c->type = tn ? tn : "other";
        c->scope = ht_mpit_scope_name(scope);
        c->verbosity = ht_mpit_verbosity_name(verbosity);
        c->binding = ht_mpit_bind_name(bind);
        read_value(c, i, type, et, bind);
    }
    if (out_of_memory)
        ht_mpit_note("out of memory: some control variables are left out");
    if (invalid)
        ht_mpit_note("%d of the %d control variables the library lists could not be described"
                     " (%s); they are left out",
                     invalid, num, ht_mpit_error_name(last_error));
    free(name);
    free(desc);
}

void ht_mpit_free_cvars(void)
{
    for (size_t i = 0; i < ht_mpit.ncvars; i++) {
        struct ht_mpit_cvar *c = &ht_mpit.cvars[i];
        free((char *)c->name);
        free((char *)c->description);
        free((char *)c->string);
        free((char *)c->enum_item);
    }
    free(ht_mpit.cvars);
    ht_mpit.cvars = NULL;
    ht_mpit.ncvars = 0;
}
