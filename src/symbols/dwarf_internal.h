/* State shared by the DWARF reader's files (dwarf_functions.c walks the
 * DIE tree; dwarf_lines.c handles file tables, line tables and address
 * ranges). */
#ifndef HT_SYMBOLS_DWARF_INTERNAL_H
#define HT_SYMBOLS_DWARF_INTERNAL_H

#include "symbols/internal.h"

#include <libdwarf.h>

struct ht_dw {
    Dwarf_Debug dbg;
    struct ht_strpool *pool;
    struct ht_func *funcs;
    size_t n, cap;
    int stop; /* out of memory or a broken DIE tree: keep what we have */
    struct cu_check *cu_check; /* while checking a unit's ranges */

    /* The compile unit being read. */
    Dwarf_Die cu_die;
    Dwarf_Off cu_off;
    Dwarf_Half version;
    unsigned lang;
    const char *comp_dir;
    Dwarf_Addr cu_base;
    char **files; /* dwarf_srcfiles, read on first use */
    const char **file_paths; /* pool copies, made on first use */
    Dwarf_Signed nfiles;
    int files_read;
};

void ht_dwarf_drop(Dwarf_Debug dbg, Dwarf_Error *err);
int ht_dwarf_attr_udata(struct ht_dw *d, Dwarf_Die die, Dwarf_Half at, Dwarf_Unsigned *value);
int ht_dwarf_attr_ref(struct ht_dw *d, Dwarf_Die die, Dwarf_Half at, Dwarf_Off *off);

/* Path (pool copy) of DW_AT_decl_file value index in the current unit,
 * made absolute with DW_AT_comp_dir; NULL if unknown. */
const char *ht_dwarf_file_name(struct ht_dw *d, Dwarf_Unsigned index);
void ht_dwarf_files_release(struct ht_dw *d);

/* Calls add once per entry address of a subprogram DIE: DW_AT_low_pc, or
 * the start of each DW_AT_ranges piece (a function split into hot and
 * cold parts has no low_pc). */
typedef void (*ht_dwarf_entry_fn)(struct ht_dw *d, const struct ht_func *proto, Dwarf_Addr addr,
                                  Dwarf_Unsigned size);
void ht_dwarf_entries(struct ht_dw *d, Dwarf_Die die, const struct ht_func *proto,
                      ht_dwarf_entry_fn add);
/* The DW_AT_ranges pieces alone (d->cu_base is the base of DWARF 2-4
 * lists). */
void ht_dwarf_ranges(struct ht_dw *d, Dwarf_Die die, const struct ht_func *proto,
                     ht_dwarf_entry_fn add);

/* Gives functions [first, d->n) that have no decl_file/decl_line the file
 * and line of the line-table row at their entry address. */
void ht_dwarf_lines_fill(struct ht_dw *d, size_t first);

#endif
