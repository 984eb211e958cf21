/* A guard in front of libdwarf.  libdwarf 20210528 frees memory twice when
 * a .debug_rnglists or .debug_loclists table header is malformed (it
 * reads all those headers as soon as the first compile unit is opened, so
 * no error handling of ours can intervene).  We read the same headers here
 * and skip the object's DWARF when one is malformed: the object then keeps
 * its ELF names. */
#include "symbols/internal.h"

#include <gelf.h>
#include <libelf.h>
#include <string.h>

static uint64_t read_le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* DWARF 5 list table headers: unit_length, version 5, address_size,
 * segment_selector_size, offset_entry_count; each table must lie inside
 * the section. */
static int tables_ok(const unsigned char *data, size_t size)
{
    size_t off = 0;
    while (off < size) {
        size_t left = size - off;
        if (left < 4)
            return 0;
        uint64_t length = read_le(data + off, 4);
        size_t length_size = 4;
        if (length == 0xffffffffu) {
            if (left < 12)
                return 0;
            length = read_le(data + off + 4, 8);
            length_size = 12;
        } else if (length >= 0xfffffff0u) {
            return 0;
        }
        if (length < 8 || length > left - length_size)
            return 0;
        const unsigned char *h = data + off + length_size;
        unsigned address_size = h[2];
        if (read_le(h, 2) != 5 || (address_size != 2 && address_size != 4 && address_size != 8))
            return 0;
        off += length_size + (size_t)length;
    }
    return 1;
}

int ht_elf_dwarf_lists_ok(struct Elf *elf)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return 0;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr))
            return 0;
        const char *name = elf_strptr(elf, shstrndx, shdr.sh_name);
        if (!name || (strcmp(name, ".debug_rnglists") != 0 && strcmp(name, ".debug_loclists") != 0))
            continue;
        if (shdr.sh_type == SHT_NOBITS)
            continue;
        /* Read what libdwarf will read: the uncompressed bytes. */
        if ((shdr.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
            return 0;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d)
            return 0;
        if (d->d_size && (!d->d_buf || !tables_ok(d->d_buf, d->d_size)))
            return 0;
    }
    return 1;
}
