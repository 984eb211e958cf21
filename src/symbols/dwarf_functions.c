/* Functions with code from DWARF (libdwarf, 20210528 API): entry address,
 * source name, linkage name, enclosing Fortran module, definition file and
 * line, compile-unit language, Fortran main program.
 *
 * Every libdwarf call gets an error pointer and every error is freed: an
 * object with broken or unusual DWARF must cost us its file:line, never the
 * program.  One pass over all compile units per object, no per-address
 * work. */
#include "symbols/dwarf_internal.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

/* Deeper nesting than this is not real code; it guards the recursion
 * against corrupt DWARF. */
#define MAX_DEPTH 64
#define MAX_REFS 4

void ht_dwarf_drop(Dwarf_Debug dbg, Dwarf_Error *err)
{
    if (*err) {
        dwarf_dealloc_error(dbg, *err);
        *err = NULL;
    }
}

/* libdwarf calls this only for a call made without an error pointer,
 * which we never do; without it such a call would abort. */
static void silent_handler(Dwarf_Error err, Dwarf_Ptr arg)
{
    (void)err;
    (void)arg;
}

static int get_attr(struct ht_dw *d, Dwarf_Die die, Dwarf_Half at, Dwarf_Attribute *attr)
{
    Dwarf_Error err = NULL;
    int rc = dwarf_attr(die, at, attr, &err);
    ht_dwarf_drop(d->dbg, &err);
    return rc == DW_DLV_OK;
}

int ht_dwarf_attr_udata(struct ht_dw *d, Dwarf_Die die, Dwarf_Half at, Dwarf_Unsigned *value)
{
    Dwarf_Attribute attr;
    if (!get_attr(d, die, at, &attr))
        return 0;
    Dwarf_Error err = NULL;
    int rc = dwarf_formudata(attr, value, &err);
    ht_dwarf_drop(d->dbg, &err);
    if (rc != DW_DLV_OK) {
        /* This libdwarf's formudata rejects DW_FORM_implicit_const, which
         * gcc uses for decl_file in DWARF 5; formsdata reads it. */
        Dwarf_Signed s = 0;
        rc = dwarf_formsdata(attr, &s, &err);
        ht_dwarf_drop(d->dbg, &err);
        if (rc == DW_DLV_OK && s >= 0)
            *value = (Dwarf_Unsigned)s;
        else
            rc = DW_DLV_ERROR;
    }
    dwarf_dealloc_attribute(attr);
    return rc == DW_DLV_OK;
}

static int attr_flag(struct ht_dw *d, Dwarf_Die die, Dwarf_Half at)
{
    Dwarf_Attribute attr;
    if (!get_attr(d, die, at, &attr))
        return 0;
    Dwarf_Error err = NULL;
    Dwarf_Bool flag = 0;
    int rc = dwarf_formflag(attr, &flag, &err);
    ht_dwarf_drop(d->dbg, &err);
    dwarf_dealloc_attribute(attr);
    return rc == DW_DLV_OK && flag;
}

/* The string stays in libdwarf's section data until dwarf_finish. */
static const char *attr_string(struct ht_dw *d, Dwarf_Die die, Dwarf_Half at)
{
    Dwarf_Attribute attr;
    if (!get_attr(d, die, at, &attr))
        return NULL;
    Dwarf_Error err = NULL;
    char *s = NULL;
    int rc = dwarf_formstring(attr, &s, &err);
    ht_dwarf_drop(d->dbg, &err);
    dwarf_dealloc_attribute(attr);
    return rc == DW_DLV_OK ? s : NULL;
}

int ht_dwarf_attr_ref(struct ht_dw *d, Dwarf_Die die, Dwarf_Half at, Dwarf_Off *off)
{
    Dwarf_Attribute attr;
    if (!get_attr(d, die, at, &attr))
        return 0;
    Dwarf_Error err = NULL;
    int rc = dwarf_global_formref(attr, off, &err);
    ht_dwarf_drop(d->dbg, &err);
    dwarf_dealloc_attribute(attr);
    return rc == DW_DLV_OK;
}

static const char *die_name(struct ht_dw *d, Dwarf_Die die)
{
    Dwarf_Error err = NULL;
    char *name = NULL;
    int rc = dwarf_diename(die, &name, &err);
    ht_dwarf_drop(d->dbg, &err);
    return rc == DW_DLV_OK ? name : NULL;
}

static const char *pool_dup(struct ht_dw *d, const char *s)
{
    if (!s)
        return NULL;
    const char *copy = ht_strpool_dup(d->pool, s);
    if (!copy)
        d->stop = 1;
    return copy;
}

/* What a subprogram DIE says about itself, completed from the DIE it
 * refers to: an out-of-class C++ definition names its declaration
 * (DW_AT_specification), an out-of-line copy of an inline function its
 * abstract instance (DW_AT_abstract_origin). */
struct sp_info {
    const char *name, *linkage;
    Dwarf_Unsigned file, line;
    int have_file, have_line, is_main;
};

static void collect(struct ht_dw *d, Dwarf_Die die, struct sp_info *info, int hops)
{
    if (!info->name)
        info->name = die_name(d, die);
    if (!info->linkage)
        info->linkage = attr_string(d, die, DW_AT_linkage_name);
    if (!info->linkage)
        info->linkage = attr_string(d, die, DW_AT_MIPS_linkage_name);
    /* decl_file indexes this compile unit's file table; a DIE in another
     * unit (DW_FORM_ref_addr, as after LTO) would index a different one. */
    int same_cu = 1;
    if (hops > 0) {
        Dwarf_Off cu_off = 0;
        Dwarf_Error err = NULL;
        int rc = dwarf_CU_dieoffset_given_die(die, &cu_off, &err);
        ht_dwarf_drop(d->dbg, &err);
        same_cu = rc == DW_DLV_OK && cu_off == d->cu_off;
    }
    if (same_cu && !info->have_line)
        info->have_line = ht_dwarf_attr_udata(d, die, DW_AT_decl_line, &info->line);
    if (same_cu && !info->have_file)
        info->have_file = ht_dwarf_attr_udata(d, die, DW_AT_decl_file, &info->file);
    if (!info->is_main)
        info->is_main = attr_flag(d, die, DW_AT_main_subprogram);
    if (hops >= MAX_REFS || (info->name && info->linkage && info->have_line && info->have_file))
        return;
    Dwarf_Off ref;
    if (!ht_dwarf_attr_ref(d, die, DW_AT_specification, &ref) &&
        !ht_dwarf_attr_ref(d, die, DW_AT_abstract_origin, &ref))
        return;
    Dwarf_Die target = NULL;
    Dwarf_Error err = NULL;
    int rc = dwarf_offdie_b(d->dbg, ref, 1, &target, &err);
    ht_dwarf_drop(d->dbg, &err);
    if (rc != DW_DLV_OK)
        return;
    collect(d, target, info, hops + 1);
    dwarf_dealloc_die(target);
}

static int push_func(struct ht_dw *d, const struct ht_func *f)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 128;
        struct ht_func *v = realloc(d->funcs, cap * sizeof *v);
        if (!v) {
            d->stop = 1;
            return -1;
        }
        d->funcs = v;
        d->cap = cap;
    }
    d->funcs[d->n++] = *f;
    return 0;
}

/* Called by ht_dwarf_entries for each entry address of the subprogram
 * being read (one, or one per DW_AT_ranges piece). */
static void add_entry(struct ht_dw *d, const struct ht_func *proto, Dwarf_Addr addr,
                      Dwarf_Unsigned size)
{
    /* Address 0 is where the linker leaves the DWARF of a discarded
     * duplicate (COMDAT) function; never code in a loaded object. */
    if (addr == 0 || addr >= (Dwarf_Addr)-2)
        return;
    struct ht_func f = *proto;
    f.addr = addr;
    f.size = size;
    push_func(d, &f);
}

static int has_attr(struct ht_dw *d, Dwarf_Die die, Dwarf_Half at)
{
    Dwarf_Bool present = 0;
    Dwarf_Error err = NULL;
    if (dwarf_hasattr(die, at, &present, &err) != DW_DLV_OK) {
        ht_dwarf_drop(d->dbg, &err);
        return 0;
    }
    return present != 0;
}

/* Returns 0 for a declaration (a class's member functions, a prototype):
 * nothing below it can have code, so the walk need not look inside. */
static int subprogram(struct ht_dw *d, Dwarf_Die die, const char *module)
{
    if (attr_flag(d, die, DW_AT_declaration))
        return 0;
    /* An abstract instance of an inline function has no code of its own:
     * its out-of-line copies are DIEs of their own that refer to it.  In a
     * C++ unit most subprogram DIEs are of this kind (every inline
     * function of every header), so this check is what keeps the walk
     * cheap. */
    if (!has_attr(d, die, DW_AT_low_pc) && !has_attr(d, die, DW_AT_ranges))
        return 1;
    struct sp_info info = { 0 };
    collect(d, die, &info, 0);
    struct ht_func f = { 0 };
    f.dwarf_name = pool_dup(d, info.name);
    f.linkage_name = pool_dup(d, info.linkage);
    f.module = module;
    f.lang = d->lang;
    f.is_main = (unsigned char)info.is_main;
    f.has_dwarf = 1;
    if (info.have_file && info.have_line && info.line > 0) {
        f.file = ht_dwarf_file_name(d, info.file);
        if (f.file)
            f.line = (unsigned)info.line;
    }
    if (!d->stop)
        ht_dwarf_entries(d, die, &f, add_entry);
    return 1;
}

static void walk(struct ht_dw *d, Dwarf_Die parent, const char *module, int depth)
{
    if (depth > MAX_DEPTH || d->stop)
        return;
    Dwarf_Die child = NULL;
    Dwarf_Error err = NULL;
    int rc = dwarf_child(parent, &child, &err);
    if (rc == DW_DLV_ERROR) {
        ht_dwarf_drop(d->dbg, &err);
        d->stop = 1;
    }
    while (rc == DW_DLV_OK && !d->stop) {
        Dwarf_Half tag = 0;
        if (dwarf_tag(child, &tag, &err) != DW_DLV_OK)
            ht_dwarf_drop(d->dbg, &err);
        switch (tag) {
        case DW_TAG_subprogram:
            /* Fortran internal procedures, C++ local classes. */
            if (subprogram(d, child, module))
                walk(d, child, module, depth + 1);
            break;
        case DW_TAG_module: {
            const char *name = pool_dup(d, die_name(d, child));
            walk(d, child, name ? name : module, depth + 1);
            break;
        }
        case DW_TAG_namespace:
        case DW_TAG_lexical_block:
        case DW_TAG_class_type:
        case DW_TAG_structure_type:
        case DW_TAG_union_type:
            walk(d, child, module, depth + 1);
            break;
        default:
            break;
        }
        Dwarf_Die sibling = NULL;
        rc = dwarf_siblingof_b(d->dbg, child, 1, &sibling, &err);
        dwarf_dealloc_die(child);
        child = sibling;
        if (rc == DW_DLV_ERROR) {
            ht_dwarf_drop(d->dbg, &err);
            d->stop = 1;
        }
    }
}

static void compile_unit(struct ht_dw *d, Dwarf_Die cu, Dwarf_Half version)
{
    Dwarf_Error err = NULL;
    d->version = version;
    d->cu_die = cu;
    d->cu_off = 0;
    if (dwarf_dieoffset(cu, &d->cu_off, &err) != DW_DLV_OK)
        ht_dwarf_drop(d->dbg, &err);
    Dwarf_Unsigned lang = 0;
    if (dwarf_srclang(cu, &lang, &err) != DW_DLV_OK) {
        ht_dwarf_drop(d->dbg, &err);
        lang = 0;
    }
    d->lang = (unsigned)lang;
    d->comp_dir = attr_string(d, cu, DW_AT_comp_dir);
    d->cu_base = 0;
    if (dwarf_lowpc(cu, &d->cu_base, &err) != DW_DLV_OK) {
        ht_dwarf_drop(d->dbg, &err);
        d->cu_base = 0;
    }
    size_t first = d->n;
    walk(d, cu, NULL, 0);
    ht_dwarf_lines_fill(d, first);
    ht_dwarf_files_release(d);
    d->cu_die = NULL;
}

/* Whether a compile unit's code ranges hold one of the wanted addresses;
 * a unit that says nothing of its ranges is read. */
struct cu_check {
    const uint64_t *wanted;
    size_t nwanted;
    int ranges, hit;
};

static void check_range(struct ht_dw *d, const struct ht_func *proto, Dwarf_Addr addr,
                        Dwarf_Unsigned size)
{
    (void)proto;
    struct cu_check *c = d->cu_check;
    if (size == 0)
        return; /* says nothing */
    c->ranges = 1;
    size_t lo = 0, hi = c->nwanted; /* the first wanted address >= addr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->wanted[mid] < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < c->nwanted && c->wanted[lo] - addr < size)
        c->hit = 1;
}

/* A unit whose code is in several sections (main in .text.startup, C++
 * COMDAT functions) has DW_AT_low_pc 0 and DW_AT_ranges: the ranges say
 * where its code is. */
static int unit_wanted(struct ht_dw *d, Dwarf_Die cu, const uint64_t *wanted, size_t nwanted)
{
    if (!wanted)
        return 1;
    struct cu_check c = {wanted, nwanted, 0, 0};
    Dwarf_Error err = NULL;
    d->cu_base = 0;
    if (dwarf_lowpc(cu, &d->cu_base, &err) != DW_DLV_OK) {
        ht_dwarf_drop(d->dbg, &err);
        d->cu_base = 0;
    }
    d->cu_check = &c;
    struct ht_func proto = { 0 };
    if (has_attr(d, cu, DW_AT_ranges))
        ht_dwarf_ranges(d, cu, &proto, check_range);
    else
        ht_dwarf_entries(d, cu, &proto, check_range);
    d->cu_check = NULL;
    return c.hit || !c.ranges;
}

int ht_dwarf_functions_load(int fd, struct ht_strpool *pool, const uint64_t *wanted,
                            size_t nwanted, struct ht_func **funcs, size_t *count, size_t *units)
{
    *funcs = NULL;
    *count = 0;
    struct ht_dw d = { 0 };
    d.pool = pool;
    Dwarf_Error err = NULL;
    int rc = dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, silent_handler, NULL, &d.dbg, &err);
    if (rc != DW_DLV_OK) {
        /* No DWARF is the common case for system libraries: not an error
         * for the caller, who keeps the ELF names. */
        ht_dwarf_drop(NULL, &err);
        return 0;
    }
    while (!d.stop) {
        Dwarf_Unsigned header_length = 0, type_offset = 0, next_offset = 0;
        Dwarf_Half version = 0, address_size = 0, length_size = 0, extension_size = 0;
        Dwarf_Half header_type = 0;
        Dwarf_Off abbrev_offset = 0;
        Dwarf_Sig8 signature;
        rc = dwarf_next_cu_header_d(d.dbg, 1, &header_length, &version, &abbrev_offset,
                                    &address_size, &length_size, &extension_size, &signature,
                                    &type_offset, &next_offset, &header_type, &err);
        if (rc != DW_DLV_OK) {
            ht_dwarf_drop(d.dbg, &err);
            break;
        }
        Dwarf_Die cu = NULL;
        rc = dwarf_siblingof_b(d.dbg, NULL, 1, &cu, &err);
        if (rc != DW_DLV_OK) {
            ht_dwarf_drop(d.dbg, &err);
            break;
        }
        d.version = version;
        if (unit_wanted(&d, cu, wanted, nwanted)) {
            compile_unit(&d, cu, version);
            (*units)++;
        }
        dwarf_dealloc_die(cu);
    }
    if (dwarf_finish(d.dbg, &err) != DW_DLV_OK)
        ht_dwarf_drop(NULL, &err);
    *funcs = d.funcs;
    *count = d.n;
    return 0;
}
