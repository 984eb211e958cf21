/* The length and the few properties of one x86-64 instruction that proving
 * a hook call's argument needs (site_proof.c).  Not a disassembler: it
 * knows the encodings compilers emit in 64-bit code and answers "unknown"
 * for anything else, which makes the caller give up. */
#ifndef HT_THROTTLE_INSN_H
#define HT_THROTTLE_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ht_insn_flow {
    HT_FLOW_NEXT,          /* falls through to the next instruction */
    HT_FLOW_JCC,           /* conditional direct branch (also loop, jrcxz) */
    HT_FLOW_JMP,           /* unconditional direct jump */
    HT_FLOW_CALL,          /* direct call */
    HT_FLOW_CALL_INDIRECT, /* call through a register or memory */
    HT_FLOW_JMP_MEMORY,    /* jmp *disp32(%rip): a tail call through the GOT */
    HT_FLOW_JMP_COMPUTED,  /* any other indirect jump: jump tables, goto * */
    HT_FLOW_STOP,          /* ret, ud2, hlt, int3: nothing falls through */
};

struct ht_insn {
    uint8_t length;
    uint8_t map;        /* 0 one-byte, 1 0F, 2 0F38, 3 0F3A, more for EVEX */
    uint8_t opcode;
    bool vex;           /* VEX or EVEX encoded */
    bool has_modrm;
    bool rex_w;
    bool opsize16;      /* a 0x66 prefix */
    bool rip_relative;  /* memory operand disp32(%rip) */
    uint8_t mod, reg, rm; /* reg and rm with REX.R / REX.B; rm is the base
                             register only when mod == 3 */
    uint8_t opreg;      /* the register in the opcode's low bits, with REX.B */
    uint8_t vvvv;       /* VEX/EVEX second register, 0xff if none */
    int32_t disp;       /* the memory operand's displacement */
    uint8_t mem_base;   /* its base register (with REX.B), 0xff if none
                           or %rip */
    uint8_t mem_index;  /* its index register, 0xff if none */
    uint64_t imm;       /* the first immediate, zero-extended */
    enum ht_insn_flow flow;
    uintptr_t target;   /* direct branches and calls */
};

/* Decodes the instruction at p (its address: at), of which avail bytes may
 * be read.  False if it is not one this decoder knows. */
bool ht_insn_decode(const uint8_t *p, size_t avail, uintptr_t at, struct ht_insn *out);

#endif
