/* Calls that never return (noreturn.h): the callee's name, read from the
 * dynamic relocation that fills the GOT slot the call goes through. */
#define _GNU_SOURCE
#include "throttle/noreturn.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <string.h>

#include "throttle/code_range.h"
#include "throttle/insn.h"
#include "throttle/mappings.h"

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Functions documented never to return.  A name not listed is assumed to
 * return, which is always safe. */
static bool never_returns(const char *name)
{
    static const char *const names[] = {
        "abort", "exit", "_exit", "_Exit", "quick_exit", "__stack_chk_fail", "__assert_fail",
        "__assert_perror_fail", "__fortify_fail", "__chk_fail", "__cxa_throw", "__cxa_rethrow",
        "__cxa_bad_cast", "__cxa_bad_typeid", "__cxa_throw_bad_array_new_length",
        "__cxa_call_terminate", "_Unwind_Resume", "longjmp", "siglongjmp", "_longjmp",
        "__longjmp_chk", "pthread_exit", "_gfortran_stop_string", "_gfortran_error_stop_string",
        "_gfortran_runtime_error", "_gfortran_runtime_error_at", "_gfortran_os_error",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    /* Sanitizers without recovery; libstdc++'s std::__throw_* helpers. */
    return (starts_with(name, "__ubsan_handle_") && ends_with(name, "_abort")) ||
           (starts_with(name, "__asan_report_") && !strstr(name, "noabort")) ||
           (starts_with(name, "_ZSt") && strstr(name, "__throw_"));
}

static uintptr_t dyn_address(const struct link_map *lm, uintptr_t value)
{
    /* glibc relocates these entries in place on x86-64; be safe either way. */
    return value < lm->l_addr ? value + lm->l_addr : value;
}

/* The name of the symbol whose address the dynamic linker put in slot. */
static const char *slot_symbol(uintptr_t slot)
{
    struct dl_find_object dlfo;
    if (_dl_find_object((void *)slot, &dlfo) != 0 || !dlfo.dlfo_link_map)
        return NULL;
    const struct link_map *lm = dlfo.dlfo_link_map;
    uintptr_t jmprel = 0, pltrelsz = 0, rela = 0, relasz = 0, symtab = 0, strtab = 0;
    for (const ElfW(Dyn) *d = lm->l_ld; d && d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_JMPREL: jmprel = dyn_address(lm, d->d_un.d_ptr); break;
        case DT_PLTRELSZ: pltrelsz = d->d_un.d_val; break;
        case DT_RELA: rela = dyn_address(lm, d->d_un.d_ptr); break;
        case DT_RELASZ: relasz = d->d_un.d_val; break;
        case DT_SYMTAB: symtab = dyn_address(lm, d->d_un.d_ptr); break;
        case DT_STRTAB: strtab = dyn_address(lm, d->d_un.d_ptr); break;
        default: break;
        }
    }
    if (!symtab || !strtab)
        return NULL;
    const struct { uintptr_t at, bytes; } tables[2] = {{jmprel, pltrelsz}, {rela, relasz}};
    for (int t = 0; t < 2; t++) {
        const ElfW(Rela) *r = (const ElfW(Rela) *)tables[t].at;
        size_t n = r ? tables[t].bytes / sizeof *r : 0;
        for (size_t i = 0; i < n; i++) {
            if (lm->l_addr + r[i].r_offset != slot)
                continue;
            unsigned type = ELF64_R_TYPE(r[i].r_info);
            if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT)
                return NULL;
            const ElfW(Sym) *sym = (const ElfW(Sym) *)symtab + ELF64_R_SYM(r[i].r_info);
            return (const char *)strtab + sym->st_name;
        }
    }
    return NULL;
}

/* A PLT entry: [endbr64] [bnd] jmp *disp32(%rip); its GOT slot, or 0. */
static uintptr_t plt_slot(uintptr_t target)
{
    bool reloaded = false;
    if (!ht_mapped(target, target + 16, HT_PERM_R | HT_PERM_X, &reloaded))
        return 0;
    const uint8_t *q = (const uint8_t *)target;
    static const uint8_t endbr64[4] = {0xF3, 0x0F, 0x1E, 0xFA};
    if (memcmp(q, endbr64, sizeof endbr64) == 0)
        q += sizeof endbr64;
    if (q[0] == 0xF2)
        q++;
    if (q[0] != 0xFF || q[1] != 0x25)
        return 0;
    int32_t disp;
    memcpy(&disp, q + 2, sizeof disp);
    return (uintptr_t)(q + 6) + (uintptr_t)(intptr_t)disp;
}

/* A function of this program whose code (from its entry to its end, as
 * the unwind tables give it) has no way out: no return, no jump leaving it
 * (a sibling call), no computed jump.  Calling it never returns (GCC
 * makes a `static void fail(...) { ...; exit(1); }` exactly that). */
static bool has_no_way_out(uintptr_t function)
{
    uintptr_t start, end;
    bool reloaded = false;
    if (!ht_code_range(function, &start, &end) || start != function ||
        !ht_mapped(start, end, HT_PERM_R | HT_PERM_X, &reloaded))
        return false;
    for (uintptr_t a = start; a < end;) {
        struct ht_insn in;
        size_t avail = end - a < 15 ? end - a : 15;
        if (!ht_insn_decode((const uint8_t *)a, avail, a, &in))
            return false;
        if (in.flow == HT_FLOW_JMP_MEMORY || in.flow == HT_FLOW_JMP_COMPUTED ||
            ((in.flow == HT_FLOW_JMP || in.flow == HT_FLOW_JCC) &&
             (in.target < start || in.target >= end)))
            return false;
        /* ret, iret; not ud2, hlt or int3, which do not return either */
        if (in.flow == HT_FLOW_STOP && !in.vex && in.map == 0 && in.opcode != 0xF4 &&
            in.opcode != 0xCC)
            return false;
        a += in.length;
    }
    return true;
}

bool ht_call_never_returns(uintptr_t direct_target, uintptr_t slot)
{
    if (direct_target) {
        slot = plt_slot(direct_target);
        if (!slot)
            return has_no_way_out(direct_target);
    }
    const char *name = slot ? slot_symbol(slot) : NULL;
    return name && never_returns(name);
}
