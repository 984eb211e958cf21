/* Where a function's machine code ends, without symbol tables: from the
 * unwind information every x86-64 object carries.  _dl_find_object (glibc
 * 2.35, async-signal-safe and lock-free) gives the object's .eh_frame_hdr,
 * whose sorted table finds the function's FDE, whose pc_begin and pc_range
 * are its code.  Only the encodings GCC and binutils use are read; anything
 * else answers "unknown". */
#define _GNU_SOURCE
#include "throttle/code_range.h"

#include <dlfcn.h>
#include <string.h>

#define DW_EH_PE_omit 0xff
#define DW_EH_PE_absptr 0x00
#define DW_EH_PE_uleb128 0x01
#define DW_EH_PE_udata2 0x02
#define DW_EH_PE_udata4 0x03
#define DW_EH_PE_udata8 0x04
#define DW_EH_PE_sleb128 0x09
#define DW_EH_PE_sdata2 0x0a
#define DW_EH_PE_sdata4 0x0b
#define DW_EH_PE_sdata8 0x0c
#define DW_EH_PE_pcrel 0x10
#define DW_EH_PE_datarel 0x30
#define DW_EH_PE_indirect 0x80

#define MAX_FUNCTION_BYTES ((uintptr_t)1 << 20)

static const uint8_t *read_uleb(const uint8_t *p, uint64_t *out)
{
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b;
    do {
        b = *p++;
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    *out = v;
    return p;
}

static const uint8_t *skip_leb(const uint8_t *p)
{
    while (*p++ & 0x80)
        ;
    return p;
}

/* An encoded pointer at p; data_base for DW_EH_PE_datarel.  NULL if the
 * encoding is one this reader does not take. */
static const uint8_t *read_encoded(const uint8_t *p, uint8_t enc, uintptr_t data_base,
                                   uintptr_t *out)
{
    const uint8_t *field = p;
    uint64_t raw;
    switch (enc & 0x0f) {
    case DW_EH_PE_absptr:
    case DW_EH_PE_udata8:
    case DW_EH_PE_sdata8:
        memcpy(&raw, p, 8);
        p += 8;
        break;
    case DW_EH_PE_udata4: {
        uint32_t v;
        memcpy(&v, p, 4);
        raw = v;
        p += 4;
        break;
    }
    case DW_EH_PE_sdata4: {
        int32_t v;
        memcpy(&v, p, 4);
        raw = (uint64_t)(int64_t)v;
        p += 4;
        break;
    }
    case DW_EH_PE_udata2: {
        uint16_t v;
        memcpy(&v, p, 2);
        raw = v;
        p += 2;
        break;
    }
    case DW_EH_PE_sdata2: {
        int16_t v;
        memcpy(&v, p, 2);
        raw = (uint64_t)(int64_t)v;
        p += 2;
        break;
    }
    case DW_EH_PE_uleb128:
        p = read_uleb(p, &raw);
        break;
    default:
        return NULL;
    }
    switch (enc & 0x70) {
    case 0:
        break;
    case DW_EH_PE_pcrel:
        raw += (uintptr_t)field;
        break;
    case DW_EH_PE_datarel:
        raw += data_base;
        break;
    default:
        return NULL;
    }
    if (enc & DW_EH_PE_indirect)
        return NULL;
    *out = (uintptr_t)raw;
    return p;
}

/* The FDE pointer encoding of a CIE (its 'R' augmentation), and the LSDA
 * pointer's ('L'; DW_EH_PE_omit if none). */
static bool cie_fde_encoding(const uint8_t *cie, uint8_t *enc, uint8_t *lsda_enc, bool *augmented)
{
    uint32_t length;
    memcpy(&length, cie, 4);
    if (length == 0 || length == 0xffffffffu)
        return false;
    const uint8_t *p = cie + 8; /* length, CIE id */
    uint8_t version = *p++;
    const char *aug = (const char *)p;
    p += strlen(aug) + 1;
    p = skip_leb(p); /* code alignment */
    p = skip_leb(p); /* data alignment */
    p = version == 1 ? p + 1 : skip_leb(p); /* return address register */
    *enc = DW_EH_PE_absptr;
    *lsda_enc = DW_EH_PE_omit;
    *augmented = aug[0] == 'z';
    if (aug[0] != 'z')
        return aug[0] == '\0';
    uint64_t aug_length;
    p = read_uleb(p, &aug_length);
    for (const char *a = aug + 1; *a; a++) {
        switch (*a) {
        case 'R':
            *enc = *p++;
            break;
        case 'L':
            *lsda_enc = *p++;
            break;
        case 'P': {
            uint8_t penc = *p++;
            uintptr_t ignored;
            p = read_encoded(p, penc & ~DW_EH_PE_indirect, 0, &ignored);
            if (!p)
                return false;
            break;
        }
        case 'S':
        case 'B':
            break;
        default:
            return false;
        }
    }
    return true;
}

bool ht_code_range(uintptr_t address, uintptr_t *start, uintptr_t *end)
{
    return ht_code_range_lsda(address, start, end, NULL);
}

bool ht_code_range_lsda(uintptr_t address, uintptr_t *start, uintptr_t *end, uintptr_t *lsda_out)
{
    struct dl_find_object dlfo;
    if (_dl_find_object((void *)address, &dlfo) != 0 || !dlfo.dlfo_eh_frame)
        return false;
    const uint8_t *hdr = dlfo.dlfo_eh_frame;
    uintptr_t base = (uintptr_t)hdr;
    /* version, eh_frame_ptr encoding, fde_count encoding, table encoding */
    if (hdr[0] != 1 || hdr[3] != (DW_EH_PE_datarel | DW_EH_PE_sdata4))
        return false;
    uintptr_t eh_frame, count;
    const uint8_t *p = read_encoded(hdr + 4, hdr[1], base, &eh_frame);
    if (!p || !(p = read_encoded(p, hdr[2], base, &count)) || count == 0)
        return false;
    /* The table: (initial location, FDE), both sdata4 from hdr, sorted. */
    const uint8_t *table = p;
    size_t lo = 0, hi = (size_t)count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int32_t loc;
        memcpy(&loc, table + 8 * mid, 4);
        if (base + (uintptr_t)(intptr_t)loc <= address)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return false;
    int32_t fde_offset;
    memcpy(&fde_offset, table + 8 * (lo - 1) + 4, 4);
    const uint8_t *fde = (const uint8_t *)(base + (uintptr_t)(intptr_t)fde_offset);
    uint32_t length, cie_offset;
    memcpy(&length, fde, 4);
    memcpy(&cie_offset, fde + 4, 4);
    if (length == 0 || length == 0xffffffffu || cie_offset == 0)
        return false;
    uint8_t enc, lsda_enc;
    bool augmented;
    if (!cie_fde_encoding(fde + 4 - cie_offset, &enc, &lsda_enc, &augmented))
        return false;
    uintptr_t begin, range;
    p = read_encoded(fde + 8, enc, base, &begin);
    if (!p || !(p = read_encoded(p, enc & 0x0f, base, &range)))
        return false;
    if (address < begin || address - begin >= range || range > MAX_FUNCTION_BYTES)
        return false;
    if (lsda_out) {
        /* Landing pads are entered by the unwinder, not by a jump. */
        *lsda_out = 0;
        if (augmented && lsda_enc != DW_EH_PE_omit) {
            uint64_t aug_length;
            uintptr_t lsda = 0;
            p = read_uleb(p, &aug_length);
            if (aug_length != 0) {
                if ((lsda_enc & DW_EH_PE_indirect) || !read_encoded(p, lsda_enc, base, &lsda))
                    return false; /* pads we cannot find */
                bool none = (lsda_enc & 0x70) == DW_EH_PE_pcrel ? lsda == (uintptr_t)p : lsda == 0;
                *lsda_out = none ? 0 : lsda;
            }
        }
    }
    *start = begin;
    *end = begin + range;
    return true;
}

bool ht_code_landing_pads(uintptr_t lsda, uintptr_t function_start,
                          void (*each)(uintptr_t pad, void *ctx), void *ctx)
{
    const uint8_t *p = (const uint8_t *)lsda;
    uintptr_t lp_start = function_start;
    uint8_t enc = *p++;
    if (enc != DW_EH_PE_omit && !(p = read_encoded(p, enc, 0, &lp_start)))
        return false;
    enc = *p++; /* type table */
    if (enc != DW_EH_PE_omit)
        p = skip_leb(p);
    uint8_t site_enc = *p++;
    uint64_t table_length;
    p = read_uleb(p, &table_length);
    const uint8_t *table_end = p + table_length;
    while (p < table_end) {
        uintptr_t site_start, site_length, pad;
        if (!(p = read_encoded(p, site_enc, 0, &site_start)) ||
            !(p = read_encoded(p, site_enc, 0, &site_length)) ||
            !(p = read_encoded(p, site_enc, 0, &pad)))
            return false;
        p = skip_leb(p); /* action */
        if (pad != 0)
            each(lp_start + pad, ctx);
    }
    return p == table_end;
}
