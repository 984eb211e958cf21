/* site_proof.h: does every path to a hook call load the throttled
 * function's address into %rdi?  The function is decoded from its first
 * byte to its last (its extent from the unwind tables), which gives every
 * instruction boundary and every direct jump; the check then walks back
 * from the call along every predecessor, following the register that holds
 * the argument. */
#define _GNU_SOURCE
#include "throttle/site_proof.h"

#include <string.h>
#include <sys/mman.h>

#include "throttle/code_range.h"
#include "throttle/insn.h"
#include "throttle/mappings.h"
#include "throttle/noreturn.h"

#define MAX_BYTES ((size_t)1 << 20) /* code_range.c's limit on a function */
#define MAX_JUMPS 65536u
#define MAX_STATES 65536u
#define SEEN_SLOTS (2 * MAX_STATES) /* a power of two */
#define REG_RSP 4u
/* Locations from SLOT on are stack slots: SLOT + d is d(%rsp), where a
 * function's address may be spilled and reloaded from. */
#define SLOT 0x100u
#define MAX_SLOT 0x100000
/* The function forms a pointer into its stack frame (lea d(%rsp), a copy
 * of %rsp): a callee may then write its slots. */
static bool stack_escapes;

/* Scratch space, one mmap for the life of the process: three bitmaps over
 * the function's bytes (instruction starts, jump targets, landing pads)
 * and its jumps. */
static uint8_t *starts, *targets, *pads;
static uint32_t *jump_from, *jump_to; /* offsets from base */
static size_t njumps;
static uintptr_t base, limit;
static ht_original_byte_fn original_byte;

struct state {
    uintptr_t at; /* the value of reg just before this instruction */
    unsigned reg;
};
static struct state *pending;
static uint64_t *seen;        /* open addressing: (offset << 24 | location) + 1 */
static uint32_t *seen_used;   /* its slots in use, to clear */

static bool scratch(void)
{
    if (starts)
        return true;
    size_t bitmap = MAX_BYTES / 8;
    size_t bytes = 3 * bitmap + 2 * MAX_JUMPS * sizeof(uint32_t) +
                   MAX_STATES * sizeof(struct state) + SEEN_SLOTS * sizeof(uint64_t) +
                   MAX_STATES * sizeof(uint32_t);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return false;
    starts = p;
    targets = starts + bitmap;
    pads = targets + bitmap;
    jump_from = (uint32_t *)(void *)(pads + bitmap);
    jump_to = jump_from + MAX_JUMPS;
    pending = (struct state *)(void *)(jump_to + MAX_JUMPS);
    seen = (uint64_t *)(void *)(pending + MAX_STATES);
    seen_used = (uint32_t *)(void *)(seen + SEEN_SLOTS);
    return true;
}

static bool bit(const uint8_t *map, uintptr_t a)
{
    size_t o = a - base;
    return (map[o >> 3] >> (o & 7)) & 1;
}

static void set_bit(uint8_t *map, uintptr_t a)
{
    size_t o = a - base;
    map[o >> 3] |= (uint8_t)(1u << (o & 7));
}

/* The instruction at a as compiled: our own rewrites (3D, 8D, C3 for E8,
 * FF, E9/FF) read back as what they replaced. */
static bool decode_at(uintptr_t a, struct ht_insn *in)
{
    uint8_t buf[15];
    size_t n = limit - a < sizeof buf ? limit - a : sizeof buf;
    memcpy(buf, (const void *)a, n);
    for (size_t i = 0; i < n; i++)
        if (buf[i] == 0x3D || buf[i] == 0x8D || buf[i] == 0xC3)
            buf[i] = original_byte(a + i);
    return ht_insn_decode(buf, n, a, in);
}

/* Every instruction and every direct jump inside [base, limit); false if
 * the decoding does not tile the function exactly, or the function has a
 * jump whose target is computed. */
static bool sweep(void)
{
    size_t bytes = (limit - base + 7) / 8;
    memset(starts, 0, bytes);
    memset(targets, 0, bytes);
    memset(pads, 0, bytes);
    njumps = 0;
    stack_escapes = false;
    uintptr_t a = base;
    while (a < limit) {
        struct ht_insn in;
        if (!decode_at(a, &in) || in.flow == HT_FLOW_JMP_COMPUTED)
            return false;
        set_bit(starts, a);
        if (!in.vex && in.map == 0 &&
            ((in.opcode == 0x8D && (in.mem_base == REG_RSP || in.mem_index == REG_RSP)) ||
             (in.opcode == 0x54 && in.opreg == REG_RSP) ||
             (in.opcode < 0x40 && (in.opcode & 7) < 4 && in.mod == 3 &&
              ((in.opcode & 7) < 2 ? in.reg : in.rm) == REG_RSP) ||
             ((in.opcode == 0x89 || in.opcode == 0x87) && in.mod == 3 && in.reg == REG_RSP) ||
             ((in.opcode == 0x8B || in.opcode == 0x87) && in.mod == 3 && in.rm == REG_RSP)))
            stack_escapes = true;
        if ((in.flow == HT_FLOW_JCC || in.flow == HT_FLOW_JMP) && in.target >= base &&
            in.target < limit) {
            if (njumps == MAX_JUMPS)
                return false;
            jump_from[njumps] = (uint32_t)(a - base);
            jump_to[njumps] = (uint32_t)(in.target - base);
            njumps++;
            set_bit(targets, in.target);
        }
        a += in.length;
    }
    if (a != limit)
        return false;
    /* A jump into the middle of an instruction: not code this decoder
     * read right. */
    for (size_t j = 0; j < njumps; j++)
        if (!bit(starts, base + jump_to[j]))
            return false;
    return true;
}

/* A landing pad outside the function (its cold part) or not at an
 * instruction start makes landing_pads fail. */
static bool pads_ok;

static void note_pad(uintptr_t pad, void *ctx)
{
    (void)ctx;
    if (pad < base || pad >= limit)
        return; /* in the cold part: entered there, not here */
    if (!bit(starts, pad))
        pads_ok = false;
    else
        set_bit(pads, pad);
}

static bool landing_pads(uintptr_t lsda)
{
    pads_ok = true;
    return !lsda || (ht_code_landing_pads(lsda, base, note_pad, NULL) && pads_ok);
}

static uintptr_t previous_start(uintptr_t a)
{
    for (uintptr_t k = 1; k <= 15 && a - k >= base; k++)
        if (bit(starts, a - k))
            return a - k;
    return 0;
}

enum effect { KEEP, COPY, VALUE, CLOBBER };

static bool caller_saved(unsigned r)
{
    return r <= 2 || r == 6 || r == 7 || (r >= 8 && r <= 11);
}

/* Legacy SSE and MMX instructions (0F, 0F 38 and 0F 3A maps) whose
 * register operands are all vector registers, or that only read a general
 * one (cvtsi2sd, movd to xmm, pinsr): they write no general register. */
static bool vector_only(const struct ht_insn *in)
{
    uint8_t op = in->opcode;
    if (in->map == 1)
        return (op >= 0x10 && op <= 0x17) || (op >= 0x28 && op <= 0x2B) || op == 0x2E ||
               op == 0x2F || (op >= 0x51 && op <= 0x6F) || (op >= 0x70 && op <= 0x76) ||
               op == 0x7C || op == 0x7D || op == 0x7F || op == 0xC2 || op == 0xC6 ||
               (op >= 0xD0 && op <= 0xD6) || op >= 0xD8;
    if (in->map == 2)
        return op < 0xF0;
    if (in->map == 3)
        return !(op >= 0x14 && op <= 0x17) && !(op >= 0x60 && op <= 0x63);
    return false;
}

/* What a ModRM instruction may write: its reg operand, its r/m operand when
 * that is a register.  Both unless known otherwise. */
static enum effect modrm_effect(const struct ht_insn *in, unsigned r)
{
    bool reg_written = true, rm_written = true;
    uint8_t op = in->opcode;
    unsigned ext = in->reg & 7;
    if (in->map == 0) {
        if (op < 0x40) {
            bool cmp = op >= 0x38;
            reg_written = !cmp && (op & 7) >= 2;
            rm_written = !cmp && (op & 7) < 2;
        } else if (op == 0x84 || op == 0x85) {
            reg_written = rm_written = false;
        } else if (op == 0x88 || op == 0x89) {
            reg_written = false;
        } else if (op == 0x8A || op == 0x8B || op == 0x63 || op == 0x69 || op == 0x6B ||
                   op == 0x8D) {
            rm_written = false;
        } else if (op >= 0x80 && op <= 0x83) {
            reg_written = false;
            rm_written = ext != 7;
        } else if (op == 0xC0 || op == 0xC1 || (op >= 0xD0 && op <= 0xD3) || op == 0xC6 ||
                   op == 0xC7 || op == 0x8F || op == 0xFE) {
            reg_written = false;
        } else if (op == 0xF6 || op == 0xF7) {
            if (ext >= 4 && (r == 0 || r == 2)) /* mul, div: rdx:rax */
                return CLOBBER;
            reg_written = false;
            rm_written = ext == 2 || ext == 3;
        } else if (op == 0xFF) {
            reg_written = false;
            rm_written = ext <= 1;
        } else if (op >= 0xD8 && op <= 0xDF) {
            if (r == 0) /* fnstsw %ax */
                return CLOBBER;
            reg_written = rm_written = false;
        }
    } else if (vector_only(in)) {
        reg_written = rm_written = false;
    } else if (in->map == 1) {
        if (op == 0x1F || op == 0x18 || op == 0x0D || op == 0xA3) {
            reg_written = rm_written = false; /* nop, prefetch, bt */
        } else if (op == 0x1E) {
            reg_written = false; /* endbr64; rdssp writes r/m */
            rm_written = ext == 1;
        } else if ((op >= 0x40 && op <= 0x4F) || op == 0xAF || op == 0xB6 || op == 0xB7 ||
                   op == 0xBE || op == 0xBF || op == 0xBC || op == 0xBD || op == 0xB8) {
            rm_written = false;
        } else if (op >= 0x90 && op <= 0x9F) {
            reg_written = false; /* setcc */
        }
    }
    if (reg_written && in->reg == r)
        return CLOBBER;
    if (rm_written && in->mod == 3 && in->rm == r)
        return CLOBBER;
    return KEEP;
}

/* VEX and EVEX instructions write vector and mask registers, except these,
 * which may write a general register named in any of their fields. */
static enum effect vex_effect(const struct ht_insn *in, unsigned r)
{
    uint8_t op = in->opcode;
    bool general;
    if (in->map == 1)
        general = op == 0x50 || op == 0x7E || op == 0xC5 || op == 0x2C || op == 0x2D ||
                  op == 0xD7 || (op >= 0x90 && op <= 0x93);
    else if (in->map == 2)
        general = op >= 0xF0; /* BMI1, BMI2 */
    else if (in->map == 3)
        general = (op >= 0x14 && op <= 0x17) || op == 0xF0 || (op >= 0x60 && op <= 0x63);
    else
        general = true;
    if (in->map == 3 && op >= 0x60 && op <= 0x63 && r == 1) /* pcmpXstri: %ecx */
        return CLOBBER;
    if (general && (in->reg == r || (in->mod == 3 && in->rm == r) || in->vvvv == r))
        return CLOBBER;
    return KEEP;
}

static enum effect effect_on(const struct ht_insn *in, uintptr_t at, unsigned r, uintptr_t *out);

static bool writes_rsp(const struct ht_insn *in, uintptr_t at)
{
    if (!in->vex && in->map == 0) {
        uint8_t op = in->opcode;
        if ((op >= 0x50 && op <= 0x5F) || op == 0x9C || op == 0x9D || op == 0xC8 || op == 0xC9 ||
            op == 0x68 || op == 0x6A || op == 0x8F || (op == 0xFF && (in->reg & 7) == 6))
            return true;
    }
    uintptr_t ignored;
    return effect_on(in, at, REG_RSP, &ignored) != KEEP;
}

/* Instructions whose memory operand is only read. */
static bool memory_read_only(const struct ht_insn *in)
{
    uint8_t op = in->opcode;
    unsigned ext = in->reg & 7;
    if (in->vex)
        return false;
    if (in->map == 0)
        return op == 0x8B || op == 0x8A || op == 0x63 || op == 0x84 || op == 0x85 ||
               (op < 0x40 && (op & 7) >= 2 && (op & 7) < 4) || (op >= 0x38 && op <= 0x3B) ||
               ((op >= 0x80 && op <= 0x83) && ext == 7) || ((op == 0xF6 || op == 0xF7) && ext < 2);
    if (in->map == 1 && (op == 0xB6 || op == 0xB7 || op == 0xBE || op == 0xBF || op == 0x2E ||
                         op == 0x2F || op == 0x18 || op == 0x1F || (op >= 0x40 && op <= 0x4F) ||
                         op == 0xAF))
        return true;
    /* SSE with a memory source; the stores are movups/movss/movsd (11),
     * movlps/movhps (13, 17), movaps (29), movntps (2B), movd/movq (7E, 7F,
     * D6), movntdq (E7). */
    return vector_only(in) && !(in->map == 1 && (op == 0x11 || op == 0x13 || op == 0x17 ||
                                                  op == 0x29 || op == 0x2B || op == 0x7E ||
                                                  op == 0x7F || op == 0xD6 || op == 0xE7));
}

/* The effect on the stack slot d(%rsp): only while %rsp stays as it is,
 * and only a store to it (or one that may overlap it) changes it; a callee
 * may write it only if the function lets a pointer into its frame out. */
static enum effect slot_effect(const struct ht_insn *in, uintptr_t at, unsigned loc,
                               uintptr_t *out)
{
    int64_t d = (int64_t)(loc - SLOT);
    if (in->flow == HT_FLOW_CALL || in->flow == HT_FLOW_CALL_INDIRECT)
        return stack_escapes ? CLOBBER : KEEP;
    if (in->flow == HT_FLOW_JCC || in->flow == HT_FLOW_JMP)
        return KEEP;
    if (writes_rsp(in, at))
        return CLOBBER;
    if (!in->has_modrm || in->mod == 3 || (in->mem_base != REG_RSP && in->mem_index != REG_RSP))
        return KEEP;
    if (in->mem_index != 0xff)
        return CLOBBER;
    if (!in->vex && in->map == 0 && in->opcode == 0x89 && in->rex_w && !in->opsize16 &&
        in->disp == d) {
        *out = in->reg; /* the spill */
        return COPY;
    }
    if (memory_read_only(in))
        return KEEP;
    /* At most 8 bytes written by a general instruction, 16 by SSE, 64 by
     * AVX-512; x87 state saves (up to 108 bytes) and the 0F AE, 0F C7
     * groups (fxsave, xsave: hundreds) are not bounded here. */
    int64_t size = in->vex ? 64 : in->map == 0 ? ((in->opcode >= 0xD8 && in->opcode <= 0xDF) ? 128 : 8) : 16;
    if (!in->vex && in->map == 1 && (in->opcode == 0xAE || in->opcode == 0xC7))
        return CLOBBER;
    if (!(in->disp < d + 8 && d < (int64_t)in->disp + size))
        return KEEP;
    return CLOBBER;
}

/* The effect of the instruction at `at` on location r (a register, or a
 * stack slot): kept; copied from another location (*out: which); set to a
 * known value (*out); or possibly changed in a way not followed. */
static enum effect effect_on(const struct ht_insn *in, uintptr_t at, unsigned r, uintptr_t *out)
{
    if (r >= SLOT)
        return slot_effect(in, at, r, out);
    if (in->flow == HT_FLOW_CALL || in->flow == HT_FLOW_CALL_INDIRECT)
        return caller_saved(r) ? CLOBBER : KEEP;
    if (in->flow == HT_FLOW_JCC || in->flow == HT_FLOW_JMP)
        return in->map == 0 && in->opcode >= 0xE0 && in->opcode <= 0xE2 && r == 1 ? CLOBBER : KEEP;
    if (in->vex)
        return vex_effect(in, r);
    uint8_t op = in->opcode;
    if (in->map == 0) {
        if (op == 0x8D && in->reg == r) {
            if (!in->rip_relative || !in->rex_w || in->opsize16)
                return CLOBBER;
            *out = at + in->length + (uintptr_t)(intptr_t)in->disp;
            return VALUE;
        }
        if (op >= 0xB8 && op <= 0xBF) {
            if (in->opreg != r)
                return KEEP;
            if (in->opsize16)
                return CLOBBER;
            *out = in->rex_w ? (uintptr_t)in->imm : (uintptr_t)(uint32_t)in->imm;
            return VALUE;
        }
        if (op == 0xC7 && in->mod == 3 && (in->reg & 7) == 0) {
            if (in->rm != r)
                return KEEP;
            if (in->opsize16)
                return CLOBBER;
            *out = in->rex_w ? (uintptr_t)(intptr_t)(int32_t)(uint32_t)in->imm
                             : (uintptr_t)(uint32_t)in->imm;
            return VALUE;
        }
        if (op == 0x8B && in->rip_relative && in->reg == r) {
            /* mov f@GOTPCREL(%rip): a position-independent reference to a
             * function that may be interposed.  The slot is filled at load
             * time and, being read-only since (RELRO), stays as read. */
            uintptr_t slot = at + in->length + (uintptr_t)(intptr_t)in->disp;
            bool reloaded = false;
            const struct ht_mapping *m;
            if (!in->rex_w || in->opsize16 ||
                !ht_mapped(slot, slot + sizeof(uintptr_t), HT_PERM_R, &reloaded) ||
                !(m = ht_mapping_of(slot, slot + sizeof(uintptr_t))) || (m->perms & HT_PERM_W))
                return CLOBBER;
            memcpy(out, (const void *)slot, sizeof *out);
            return VALUE;
        }
        if (op == 0x8B && in->mod != 3 && in->reg == r && in->mem_base == REG_RSP &&
            in->mem_index == 0xff && in->rex_w && !in->opsize16 && in->disp >= 0 &&
            in->disp < MAX_SLOT) {
            *out = SLOT + (uintptr_t)in->disp; /* reloaded from a spill slot */
            return COPY;
        }
        if ((op == 0x89 || op == 0x8B) && in->mod == 3) {
            unsigned dst = op == 0x89 ? in->rm : in->reg, src = op == 0x89 ? in->reg : in->rm;
            if (dst != r)
                return KEEP;
            if (!in->rex_w || in->opsize16)
                return CLOBBER;
            *out = src;
            return COPY;
        }
        if ((op >= 0xA4 && op <= 0xA7) || (op >= 0xAA && op <= 0xAF)) /* string ops */
            return r <= 1 || r == 6 || r == 7 ? CLOBBER : KEEP;
        if (op >= 0x50 && op <= 0x57)
            return KEEP;
        if ((op >= 0x58 && op <= 0x5F) || (op >= 0xB0 && op <= 0xB7))
            return in->opreg == r ? CLOBBER : KEEP;
        if (op >= 0x90 && op <= 0x97) {
            if (op == 0x90 && in->opreg == 0)
                return KEEP; /* nop, pause */
            return in->opreg == r || r == 0 ? CLOBBER : KEEP;
        }
        if (op < 0x40 && (op & 7) >= 4) /* op $imm, %al/%eax */
            return r == 0 && op != 0x3C && op != 0x3D ? CLOBBER : KEEP;
        switch (op) {
        case 0x98: case 0x99:
            return r == 0 || r == 2 ? CLOBBER : KEEP;
        case 0x9F: case 0xD7: case 0xA0: case 0xA1:
            return r == 0 ? CLOBBER : KEEP;
        case 0x9C: case 0x9D: case 0x9E: case 0x68: case 0x6A: case 0xA2: case 0xA3:
        case 0xA8: case 0xA9: case 0xF5: case 0xF8: case 0xF9: case 0xFA: case 0xFB:
        case 0xFC: case 0xFD: case 0x9B:
            return KEEP;
        case 0xC8: case 0xC9:
            return r == 4 || r == 5 ? CLOBBER : KEEP;
        default:
            break;
        }
        return in->has_modrm ? modrm_effect(in, r) : CLOBBER;
    }
    if (in->map == 1) {
        switch (op) {
        case 0x05:
            return r == 0 || r == 1 || r == 11 ? CLOBBER : KEEP;
        case 0x31: case 0x32: case 0x33:
            return r == 0 || r == 2 ? CLOBBER : KEEP;
        case 0xA2:
            return r <= 3 ? CLOBBER : KEEP;
        case 0x77: case 0xA0: case 0xA1: case 0xA8: case 0xA9:
            return KEEP;
        case 0xB0: case 0xB1:
            if (r == 0)
                return CLOBBER;
            break;
        case 0xC7:
            if (r <= 3)
                return CLOBBER;
            break;
        default:
            break;
        }
        if (op >= 0xC8 && op <= 0xCF)
            return in->opreg == r ? CLOBBER : KEEP;
        return in->has_modrm ? modrm_effect(in, r) : CLOBBER;
    }
    if (in->map == 3 && op >= 0x60 && op <= 0x63 && r == 1)
        return CLOBBER;
    return modrm_effect(in, r);
}

static bool is_nop(const struct ht_insn *in)
{
    return !in->vex && ((in->map == 0 && in->opcode == 0x90 && in->opreg == 0) ||
                        (in->map == 1 && in->opcode == 0x1F));
}

static size_t nseen, npending;

static bool add_state(uintptr_t at, unsigned reg)
{
    if (reg == REG_RSP)
        return false;
    uint64_t key = ((uint64_t)(at - base) << 24 | reg) + 1;
    size_t slot = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (SEEN_SLOTS - 1);
    for (; seen[slot]; slot = (slot + 1) & (SEEN_SLOTS - 1))
        if (seen[slot] == key)
            return true;
    if (nseen == MAX_STATES)
        return false;
    seen[slot] = key;
    seen_used[nseen++] = (uint32_t)slot;
    pending[npending++] = (struct state){at, reg};
    return true;
}

/* The predecessor at p of a state whose register is r: true if the path
 * through it is proven (or followed further). */
static bool through(uintptr_t p, unsigned r, uintptr_t function)
{
    struct ht_insn in;
    if (!decode_at(p, &in))
        return false;
    uintptr_t v = 0;
    switch (effect_on(&in, p, r, &v)) {
    case KEEP:
        return add_state(p, r);
    case COPY:
        return add_state(p, (unsigned)v);
    case VALUE:
        return v == function;
    case CLOBBER:
    default:
        return false;
    }
}

/* The function swept last, and whether its sweep succeeded: throttling
 * reaches the hook calls of one hot function one after another (a kernel
 * with dozens of inlined copies), and a large function's sweep costs as
 * much as a few hundred thousand of its calls.  The sweep reads the code
 * as compiled (original_byte), so rewriting calls in it leaves it valid;
 * unmapping code does not (ht_site_proof_forget). */
static uintptr_t swept_base, swept_limit, swept_lsda;
static int swept; /* 0: nothing kept, 1: swept, -1: the sweep failed */

void ht_site_proof_forget(void)
{
    swept = 0;
}

static bool sweep_once(uintptr_t lsda)
{
    if (swept != 0 && swept_base == base && swept_limit == limit && swept_lsda == lsda)
        return swept > 0;
    bool ok = sweep() && landing_pads(lsda);
    swept_base = base;
    swept_limit = limit;
    swept_lsda = lsda;
    swept = ok ? 1 : -1;
    return ok;
}

bool ht_site_register_holds(uintptr_t call, unsigned reg, uintptr_t function,
                            ht_original_byte_fn original)
{
    uintptr_t lsda = 0;
    if (!ht_code_range_lsda(call, &base, &limit, &lsda) || !scratch())
        return false;
    original_byte = original;
    if (!sweep_once(lsda) || !bit(starts, call))
        return false;
    for (size_t i = 0; i < nseen; i++)
        seen[seen_used[i]] = 0;
    nseen = npending = 0;
    add_state(call, reg);
    while (npending > 0) {
        struct state s = pending[--npending];
        /* The function's entry (the value is its caller's), or a landing
         * pad (the unwinder's: as at a call we may not have walked). */
        if (s.at == base || bit(pads, s.at))
            return false;
        unsigned ways_in = 0;
        if (bit(targets, s.at))
            for (size_t j = 0; j < njumps; j++)
                if (base + jump_to[j] == s.at) {
                    ways_in++;
                    if (!through(base + jump_from[j], s.reg, function))
                        return false;
                }
        uintptr_t p = previous_start(s.at);
        struct ht_insn in;
        if (!p || !decode_at(p, &in))
            return false;
        bool falls_in = in.flow != HT_FLOW_JMP && in.flow != HT_FLOW_STOP &&
                        in.flow != HT_FLOW_JMP_MEMORY && in.flow != HT_FLOW_JMP_COMPUTED &&
                        !(in.flow == HT_FLOW_CALL && ht_call_never_returns(in.target, 0)) &&
                        !(in.flow == HT_FLOW_CALL_INDIRECT && in.rip_relative &&
                          ht_call_never_returns(0, p + in.length + (uintptr_t)(intptr_t)in.disp));
        if (falls_in) {
            ways_in++;
            if (!through(p, s.reg, function))
                return false;
        }
        /* No way in: alignment padding between a jump and a label is
         * never run; anything else is entered from where we cannot see
         * (another function's code), so nothing is proven. */
        if (ways_in == 0) {
            struct ht_insn here;
            if (!decode_at(s.at, &here) || !is_nop(&here))
                return false;
        }
    }
    return true;
}
