/* The compiler that built an executable, as its DWARF says: the
 * DW_AT_producer of its first compile unit that a compiler made (an
 * assembler's unit, "GNU AS 2.40", says nothing of the program).  Read once
 * at shut-down for the profile's metadata (docs/output.md). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/dwarf_internal.h"

#include <dwarf.h>
#include "symbols/symbols.h"

static char *unit_producer(Dwarf_Debug dbg, Dwarf_Die cu)
{
    Dwarf_Attribute attr = NULL;
    Dwarf_Error err = NULL;
    char *text = NULL, *copy = NULL;
    if (dwarf_attr(cu, DW_AT_producer, &attr, &err) != DW_DLV_OK) {
        ht_dwarf_drop(dbg, &err);
        return NULL;
    }
    if (dwarf_formstring(attr, &text, &err) == DW_DLV_OK) {
        if (text && strncmp(text, "GNU AS", 6) != 0)
            copy = strdup(text);
    } else {
        ht_dwarf_drop(dbg, &err);
    }
    dwarf_dealloc_attribute(attr);
    return copy;
}

char *ht_symbols_producer(const char *path)
{
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0)
        return NULL;
    Dwarf_Debug dbg = NULL;
    Dwarf_Error err = NULL;
    char *found = NULL;
    if (dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg, &err) != DW_DLV_OK) {
        ht_dwarf_drop(NULL, &err);
        close(fd);
        return NULL;
    }
    while (!found) {
        Dwarf_Unsigned header_length = 0, type_offset = 0, next_offset = 0;
        Dwarf_Half version = 0, address_size = 0, length_size = 0, extension_size = 0;
        Dwarf_Half header_type = 0;
        Dwarf_Off abbrev_offset = 0;
        Dwarf_Sig8 signature;
        if (dwarf_next_cu_header_d(dbg, 1, &header_length, &version, &abbrev_offset,
                                   &address_size, &length_size, &extension_size, &signature,
                                   &type_offset, &next_offset, &header_type, &err) != DW_DLV_OK) {
            ht_dwarf_drop(dbg, &err);
            break;
        }
        Dwarf_Die cu = NULL;
        if (dwarf_siblingof_b(dbg, NULL, 1, &cu, &err) != DW_DLV_OK) {
            ht_dwarf_drop(dbg, &err);
            break;
        }
        found = unit_producer(dbg, cu);
        dwarf_dealloc_die(cu);
    }
    if (dwarf_finish(dbg, &err) != DW_DLV_OK)
        ht_dwarf_drop(NULL, &err);
    close(fd);
    return found;
}
