/* Source files and addresses for the DWARF reader: a compile unit's file
 * table (for DW_AT_decl_file), its line table (for subprograms without
 * decl_file/decl_line), and DW_AT_low_pc/DW_AT_ranges entry addresses. */
#include "symbols/dwarf_internal.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

/* Paths as the compiler recorded them, made absolute with the unit's
 * comp_dir when relative (a relative path means nothing once the profile
 * is read from another directory) and normalised (paths.c). */
static const char *make_path(struct ht_dw *d, const char *name)
{
    return ht_path_normal(d->pool, d->comp_dir, name);
}

static void read_files(struct ht_dw *d)
{
    Dwarf_Error err = NULL;
    d->files_read = 1;
    if (dwarf_srcfiles(d->cu_die, &d->files, &d->nfiles, &err) != DW_DLV_OK) {
        ht_dwarf_drop(d->dbg, &err);
        d->files = NULL;
        d->nfiles = 0;
        return;
    }
    if (d->nfiles > 0)
        d->file_paths = calloc((size_t)d->nfiles, sizeof *d->file_paths);
}

const char *ht_dwarf_file_name(struct ht_dw *d, Dwarf_Unsigned index)
{
    if (!d->files_read)
        read_files(d);
    /* DWARF 5 file numbers start at 0; before, 0 meant "no file" and the
     * list libdwarf returns starts at number 1. */
    Dwarf_Signed i = (Dwarf_Signed)index;
    if (d->version < 5)
        i--;
    if (i < 0 || i >= d->nfiles || !d->file_paths || !d->files[i])
        return NULL;
    if (!d->file_paths[i])
        d->file_paths[i] = make_path(d, d->files[i]);
    return d->file_paths[i];
}

void ht_dwarf_files_release(struct ht_dw *d)
{
    if (d->files) {
        for (Dwarf_Signed i = 0; i < d->nfiles; i++)
            dwarf_dealloc(d->dbg, d->files[i], DW_DLA_STRING);
        dwarf_dealloc(d->dbg, d->files, DW_DLA_LIST);
    }
    free(d->file_paths);
    d->files = NULL;
    d->file_paths = NULL;
    d->nfiles = 0;
    d->files_read = 0;
}

struct pending {
    Dwarf_Addr addr;
    size_t index;
};

static int pending_cmp(const void *a, const void *b)
{
    const struct pending *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* First pending entry at addr, or NULL. */
static struct pending *find_pending(struct pending *p, size_t n, Dwarf_Addr addr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && p[lo].addr == addr ? &p[lo] : NULL;
}

static void fill_from_row(struct ht_dw *d, Dwarf_Line row, struct pending *p, struct pending *end)
{
    Dwarf_Error err = NULL;
    Dwarf_Unsigned lineno = 0;
    char *src = NULL;
    if (dwarf_lineno(row, &lineno, &err) != DW_DLV_OK || lineno == 0) {
        ht_dwarf_drop(d->dbg, &err);
        return;
    }
    if (dwarf_linesrc(row, &src, &err) != DW_DLV_OK) {
        ht_dwarf_drop(d->dbg, &err);
        return;
    }
    const char *path = make_path(d, src);
    dwarf_dealloc(d->dbg, src, DW_DLA_STRING);
    if (!path)
        return;
    for (Dwarf_Addr addr = p->addr; p < end && p->addr == addr; p++) {
        struct ht_func *f = &d->funcs[p->index];
        if (f->line == 0) {
            f->file = path;
            f->line = (unsigned)lineno;
        }
    }
}

void ht_dwarf_lines_fill(struct ht_dw *d, size_t first)
{
    size_t npending = 0;
    for (size_t i = first; i < d->n; i++)
        npending += d->funcs[i].line == 0;
    if (npending == 0 || d->stop)
        return;
    struct pending *p = malloc(npending * sizeof *p);
    if (!p)
        return;
    size_t k = 0;
    for (size_t i = first; i < d->n; i++)
        if (d->funcs[i].line == 0)
            p[k++] = (struct pending){ d->funcs[i].addr, i };
    qsort(p, npending, sizeof *p, pending_cmp);

    Dwarf_Error err = NULL;
    Dwarf_Unsigned version = 0;
    Dwarf_Small table_count = 0;
    Dwarf_Line_Context ctx = NULL;
    Dwarf_Line *rows = NULL;
    Dwarf_Signed nrows = 0;
    if (dwarf_srclines_b(d->cu_die, &version, &table_count, &ctx, &err) != DW_DLV_OK) {
        ht_dwarf_drop(d->dbg, &err);
        free(p);
        return;
    }
    if (dwarf_srclines_from_linecontext(ctx, &rows, &nrows, &err) != DW_DLV_OK) {
        ht_dwarf_drop(d->dbg, &err);
        nrows = 0;
    }
    /* The first statement row at an entry address is the function's
     * opening line (for an OpenMP outlined function, its pragma's); later
     * rows there are prologue details.  A row that is not a statement can
     * come first: the previous function's last, ending at this address
     * (GCC's -O1 with -fsanitize=address emits such).  So statement rows
     * first, then any row for a function still without a line. */
    for (int pass = 0; pass < 2 && npending > 0; pass++) {
        size_t filled = 0;
        for (Dwarf_Signed r = 0; r < nrows; r++) {
            Dwarf_Addr addr = 0;
            Dwarf_Bool statement = 0;
            if (dwarf_lineaddr(rows[r], &addr, &err) != DW_DLV_OK) {
                ht_dwarf_drop(d->dbg, &err);
                continue;
            }
            struct pending *hit = find_pending(p, npending, addr);
            if (!hit || d->funcs[hit->index].line != 0)
                continue;
            if (pass == 0 && dwarf_linebeginstatement(rows[r], &statement, &err) != DW_DLV_OK) {
                ht_dwarf_drop(d->dbg, &err);
                statement = 0;
            }
            if (pass == 0 && !statement)
                continue;
            fill_from_row(d, rows[r], hit, p + npending);
            filled += d->funcs[hit->index].line != 0;
        }
        if (pass == 0 && filled == npending)
            break;
    }
    dwarf_srclines_dealloc_b(ctx);
    free(p);
}

static int range_offset(struct ht_dw *d, Dwarf_Attribute attr, Dwarf_Unsigned *value)
{
    Dwarf_Error err = NULL;
    if (dwarf_formudata(attr, value, &err) == DW_DLV_OK)
        return 1;
    ht_dwarf_drop(d->dbg, &err);
    Dwarf_Off off = 0;
    if (dwarf_global_formref(attr, &off, &err) == DW_DLV_OK) {
        *value = off;
        return 1;
    }
    ht_dwarf_drop(d->dbg, &err);
    return 0;
}

/* DWARF 5: .debug_rnglists; libdwarf applies base addresses for us. */
static void rnglists(struct ht_dw *d, Dwarf_Attribute attr, Dwarf_Unsigned value,
                     const struct ht_func *proto, ht_dwarf_entry_fn add)
{
    Dwarf_Error err = NULL;
    Dwarf_Half form = 0;
    if (dwarf_whatform(attr, &form, &err) != DW_DLV_OK) {
        ht_dwarf_drop(d->dbg, &err);
        return;
    }
    Dwarf_Rnglists_Head head = NULL;
    Dwarf_Unsigned count = 0, global_offset = 0;
    if (dwarf_rnglists_get_rle_head(attr, form, value, &head, &count, &global_offset, &err) !=
        DW_DLV_OK) {
        ht_dwarf_drop(d->dbg, &err);
        return;
    }
    for (Dwarf_Unsigned i = 0; i < count && !d->stop; i++) {
        unsigned len = 0, code = 0;
        Dwarf_Unsigned raw1 = 0, raw2 = 0, start = 0, end = 0;
        Dwarf_Bool unavailable = 0;
        if (dwarf_get_rnglists_entry_fields_a(head, i, &len, &code, &raw1, &raw2, &unavailable,
                                              &start, &end, &err) != DW_DLV_OK) {
            ht_dwarf_drop(d->dbg, &err);
            break;
        }
        if (unavailable || code == DW_RLE_end_of_list || code == DW_RLE_base_address ||
            code == DW_RLE_base_addressx)
            continue;
        add(d, proto, start, end > start ? end - start : 0);
    }
    dwarf_dealloc_rnglists_head(head);
}

/* DWARF 2-4: .debug_ranges, offsets from the unit's base address unless a
 * base-address entry changes it. */
static void debug_ranges(struct ht_dw *d, Dwarf_Die die, Dwarf_Unsigned offset,
                         const struct ht_func *proto, ht_dwarf_entry_fn add)
{
    Dwarf_Error err = NULL;
    Dwarf_Ranges *ranges = NULL;
    Dwarf_Signed count = 0;
    Dwarf_Unsigned bytes = 0;
    Dwarf_Off real_offset = 0;
    if (dwarf_get_ranges_b(d->dbg, offset, die, &real_offset, &ranges, &count, &bytes, &err) !=
        DW_DLV_OK) {
        ht_dwarf_drop(d->dbg, &err);
        return;
    }
    Dwarf_Addr base = d->cu_base;
    for (Dwarf_Signed i = 0; i < count && !d->stop; i++) {
        const Dwarf_Ranges *r = &ranges[i];
        if (r->dwr_type == DW_RANGES_END)
            break;
        if (r->dwr_type == DW_RANGES_ADDRESS_SELECTION) {
            base = r->dwr_addr2;
            continue;
        }
        Dwarf_Unsigned size = r->dwr_addr2 > r->dwr_addr1 ? r->dwr_addr2 - r->dwr_addr1 : 0;
        add(d, proto, base + r->dwr_addr1, size);
    }
    dwarf_ranges_dealloc(d->dbg, ranges, count);
}

void ht_dwarf_entries(struct ht_dw *d, Dwarf_Die die, const struct ht_func *proto,
                      ht_dwarf_entry_fn add)
{
    Dwarf_Error err = NULL;
    Dwarf_Addr low = 0;
    if (dwarf_lowpc(die, &low, &err) == DW_DLV_OK) {
        Dwarf_Addr high = 0;
        Dwarf_Half form = 0;
        enum Dwarf_Form_Class cls = DW_FORM_CLASS_UNKNOWN;
        Dwarf_Unsigned size = 0;
        if (dwarf_highpc_b(die, &high, &form, &cls, &err) == DW_DLV_OK)
            size = cls == DW_FORM_CLASS_CONSTANT ? high : high > low ? high - low : 0;
        else
            ht_dwarf_drop(d->dbg, &err);
        add(d, proto, low, size);
        return;
    }
    ht_dwarf_drop(d->dbg, &err);
    ht_dwarf_ranges(d, die, proto, add);
}

void ht_dwarf_ranges(struct ht_dw *d, Dwarf_Die die, const struct ht_func *proto,
                     ht_dwarf_entry_fn add)
{
    Dwarf_Error err = NULL;
    Dwarf_Attribute attr;
    if (dwarf_attr(die, DW_AT_ranges, &attr, &err) != DW_DLV_OK) {
        ht_dwarf_drop(d->dbg, &err);
        return;
    }
    Dwarf_Unsigned value = 0;
    if (range_offset(d, attr, &value)) {
        if (d->version >= 5)
            rnglists(d, attr, value, proto, add);
        else
            debug_ranges(d, die, value, proto, add);
    }
    dwarf_dealloc_attribute(attr);
}
