/* x86-64 instruction lengths (insn.h).  The tables follow the Intel SDM's
 * opcode maps (volume 2, appendix A) for 64-bit mode; an opcode invalid in
 * 64-bit mode, or one no compiler emits there (3DNow!, XOP), is "unknown". */
#include "throttle/insn.h"

#include <string.h>

#define MAX_LENGTH 15

static bool is_legacy_prefix(uint8_t b)
{
    switch (b) {
    case 0xF0: case 0xF2: case 0xF3: case 0x2E: case 0x36: case 0x3E:
    case 0x26: case 0x64: case 0x65: case 0x66: case 0x67:
        return true;
    default:
        return false;
    }
}

/* One-byte opcodes: invalid in 64-bit mode, or never emitted. */
static bool onebyte_invalid(uint8_t op)
{
    switch (op) {
    case 0x06: case 0x07: case 0x0E: case 0x16: case 0x17: case 0x1E: case 0x1F:
    case 0x27: case 0x2F: case 0x37: case 0x3F: case 0x60: case 0x61: case 0x82:
    case 0x9A: case 0xCE: case 0xD4: case 0xD5: case 0xD6: case 0xEA: case 0xF1:
        return true;
    default:
        return false;
    }
}

static bool onebyte_modrm(uint8_t op)
{
    if (op < 0x40)
        return (op & 7) < 4;
    switch (op) {
    case 0x63: case 0x69: case 0x6B: case 0xC0: case 0xC1: case 0xC6: case 0xC7:
    case 0xF6: case 0xF7: case 0xFE: case 0xFF:
        return true;
    default:
        return (op >= 0x80 && op <= 0x8F) || (op >= 0xD0 && op <= 0xD3) ||
               (op >= 0xD8 && op <= 0xDF);
    }
}

/* Immediate bytes of a one-byte opcode; z is the operand size (2 or 4). */
static unsigned onebyte_imm(uint8_t op, uint8_t reg, unsigned z, bool rex_w, bool addr32)
{
    if (op < 0x40)
        return (op & 7) == 4 ? 1 : (op & 7) == 5 ? z : 0;
    if (op >= 0x70 && op <= 0x7F)
        return 1;
    if (op >= 0xB0 && op <= 0xB7)
        return 1;
    if (op >= 0xB8 && op <= 0xBF)
        return rex_w ? 8 : z;
    if (op >= 0xA0 && op <= 0xA3)
        return addr32 ? 4 : 8;
    if (op >= 0xE0 && op <= 0xE7)
        return 1;
    switch (op) {
    case 0x6A: case 0x6B: case 0x80: case 0x83: case 0xA8: case 0xC0: case 0xC1:
    case 0xC6: case 0xCD: case 0xEB:
        return 1;
    case 0x68: case 0x69: case 0x81: case 0xA9: case 0xC7:
        return z;
    case 0xE8: case 0xE9:
        return 4;
    case 0xC2: case 0xCA:
        return 2;
    case 0xC8:
        return 3;
    case 0xF6:
        return (reg & 7) < 2 ? 1 : 0;
    case 0xF7:
        return (reg & 7) < 2 ? z : 0;
    default:
        return 0;
    }
}

static bool twobyte_invalid(uint8_t op)
{
    switch (op) {
    case 0x04: case 0x0A: case 0x0C: case 0x0F: case 0x24: case 0x25: case 0x26:
    case 0x27: case 0x36: case 0x39: case 0x3B: case 0x3C: case 0x3D: case 0x3E:
    case 0x3F: case 0x7A: case 0x7B: case 0xA6: case 0xA7:
        return true;
    default:
        return false;
    }
}

static bool twobyte_modrm(uint8_t op)
{
    switch (op) {
    case 0x05: case 0x06: case 0x07: case 0x08: case 0x09: case 0x0B: case 0x0E:
    case 0x30: case 0x31: case 0x32: case 0x33: case 0x34: case 0x35: case 0x37:
    case 0x77: case 0xA0: case 0xA1: case 0xA2: case 0xA8: case 0xA9: case 0xAA:
        return false;
    default:
        return !(op >= 0x80 && op <= 0x8F) && !(op >= 0xC8 && op <= 0xCF);
    }
}

/* 0F map opcodes (legacy, VEX or EVEX map 1) with an imm8. */
static bool map1_imm8(uint8_t op)
{
    return (op >= 0x70 && op <= 0x73) || op == 0xC2 || op == 0xC4 || op == 0xC5 || op == 0xC6;
}

static uint64_t read_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

bool ht_insn_decode(const uint8_t *p, size_t avail, uintptr_t at, struct ht_insn *out)
{
    memset(out, 0, sizeof *out);
    out->vvvv = 0xff;
    if (avail > MAX_LENGTH)
        avail = MAX_LENGTH;
    size_t i = 0;
    bool opsize16 = false, addr32 = false;
    while (i < avail && is_legacy_prefix(p[i])) {
        opsize16 |= p[i] == 0x66;
        addr32 |= p[i] == 0x67;
        i++;
    }
    unsigned rex_r = 0, rex_x = 0, rex_b = 0;
    out->mem_base = out->mem_index = 0xff;
    if (i < avail && (p[i] & 0xF0) == 0x40) {
        out->rex_w = (p[i] & 8) != 0;
        rex_r = (p[i] >> 2) & 1;
        rex_x = (p[i] >> 1) & 1;
        rex_b = p[i] & 1;
        i++;
        if (i < avail && (is_legacy_prefix(p[i]) || (p[i] & 0xF0) == 0x40))
            return false;
    }
    if (i >= avail)
        return false;
    uint8_t op = p[i++];
    unsigned imm = 0;
    bool modrm = false;
    if (op == 0xC4 || op == 0xC5 || op == 0x62) {
        /* VEX (2 or 3 bytes) or EVEX (4): always in 64-bit mode. */
        out->vex = true;
        size_t need = op == 0xC5 ? 1 : op == 0xC4 ? 2 : 3;
        if (i + need >= avail)
            return false;
        uint8_t b1 = p[i], b2 = p[i + 1];
        if (op == 0xC5) {
            rex_r = !(b1 & 0x80);
            out->vvvv = (uint8_t)((~b1 >> 3) & 15);
            out->map = 1;
        } else {
            rex_r = !(b1 & 0x80);
            rex_x = !(b1 & 0x40);
            rex_b = !(b1 & 0x20);
            out->rex_w = (b2 & 0x80) != 0;
            out->vvvv = (uint8_t)((~b2 >> 3) & 15);
            out->map = op == 0xC4 ? (b1 & 0x1F) : (b1 & 0x07);
            if (op == 0x62 && !(b2 & 0x04))
                return false;
        }
        i += need;
        if (out->map != 1 && out->map != 2 && out->map != 3 &&
            !(op == 0x62 && (out->map == 5 || out->map == 6)))
            return false;
        op = p[i++];
        modrm = !(out->map == 1 && op == 0x77);
        imm = out->map == 3 || (out->map == 1 && map1_imm8(op)) ? 1 : 0;
    } else if (op == 0x0F) {
        if (i >= avail)
            return false;
        op = p[i++];
        if (op == 0x38 || op == 0x3A) {
            out->map = op == 0x38 ? 2 : 3;
            if (i >= avail)
                return false;
            op = p[i++];
            modrm = true;
            imm = out->map == 3 ? 1 : 0;
        } else {
            if (twobyte_invalid(op))
                return false;
            out->map = 1;
            modrm = twobyte_modrm(op);
            if (op >= 0x80 && op <= 0x8F)
                imm = 4;
            else if (map1_imm8(op) || op == 0xA4 || op == 0xAC || op == 0xBA)
                imm = 1;
        }
    } else {
        if (onebyte_invalid(op))
            return false;
        modrm = onebyte_modrm(op);
        if (op == 0x8F && i < avail && (p[i] & 0x38) != 0)
            return false; /* XOP */
    }
    out->opcode = op;
    out->opreg = (uint8_t)((op & 7) | rex_b << 3);
    out->opsize16 = opsize16;
    out->has_modrm = modrm;
    if (modrm) {
        if (i >= avail)
            return false;
        uint8_t m = p[i++];
        out->mod = m >> 6;
        out->reg = (uint8_t)(((m >> 3) & 7) | rex_r << 3);
        out->rm = (uint8_t)((m & 7) | rex_b << 3);
        unsigned disp = 0;
        if (out->mod != 3) {
            out->mem_base = out->rm;
            if ((m & 7) == 4) {
                if (i >= avail)
                    return false;
                uint8_t sib = p[i++];
                unsigned index = ((sib >> 3) & 7) | rex_x << 3;
                out->mem_index = index == 4 ? 0xff : (uint8_t)index;
                out->mem_base = (uint8_t)((sib & 7) | rex_b << 3);
                if (out->mod == 0 && (sib & 7) == 5) {
                    disp = 4;
                    out->mem_base = 0xff;
                }
            } else if (out->mod == 0 && (m & 7) == 5) {
                disp = 4;
                out->rip_relative = true;
                out->mem_base = 0xff;
            }
            if (out->mod == 1)
                disp = 1;
            else if (out->mod == 2)
                disp = 4;
        }
        if (i + disp > avail)
            return false;
        if (disp == 4)
            out->disp = (int32_t)(uint32_t)read_le(p + i, 4);
        else if (disp == 1)
            out->disp = (int8_t)p[i];
        i += disp;
    }
    if (out->map == 0 && !out->vex)
        imm = onebyte_imm(op, out->reg, opsize16 ? 2 : 4, out->rex_w, addr32);
    if (i + imm > avail)
        return false;
    out->imm = read_le(p + i, imm);
    i += imm;
    out->length = (uint8_t)i;
    uintptr_t next = at + i;

    out->flow = HT_FLOW_NEXT;
    if (out->vex)
        return true;
    if (out->map == 0) {
        if ((op >= 0x70 && op <= 0x7F) || (op >= 0xE0 && op <= 0xE3) || op == 0xEB) {
            out->flow = op == 0xEB ? HT_FLOW_JMP : HT_FLOW_JCC;
            out->target = next + (uintptr_t)(intptr_t)(int8_t)out->imm;
        } else if (op == 0xE8 || op == 0xE9) {
            out->flow = op == 0xE8 ? HT_FLOW_CALL : HT_FLOW_JMP;
            out->target = next + (uintptr_t)(intptr_t)(int32_t)(uint32_t)out->imm;
        } else if (op == 0xC2 || op == 0xC3 || op == 0xCA || op == 0xCB || op == 0xCF ||
                   op == 0xCC || op == 0xF4) {
            out->flow = HT_FLOW_STOP;
        } else if (op == 0xFF) {
            unsigned r = out->reg & 7;
            if (r == 2 || r == 3)
                out->flow = HT_FLOW_CALL_INDIRECT;
            else if (r == 4 && out->rip_relative)
                out->flow = HT_FLOW_JMP_MEMORY;
            else if (r == 4 || r == 5)
                out->flow = HT_FLOW_JMP_COMPUTED;
        }
    } else if (out->map == 1) {
        if (op >= 0x80 && op <= 0x8F) {
            out->flow = HT_FLOW_JCC;
            out->target = next + (uintptr_t)(intptr_t)(int32_t)(uint32_t)out->imm;
        } else if (op == 0x0B || op == 0xB9 || op == 0xFF) {
            out->flow = HT_FLOW_STOP; /* ud2, ud1, ud0 */
        }
    }
    return true;
}
