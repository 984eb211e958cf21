/* Function symbols from an ELF object with libelf. */
#include "symbols/internal.h"

#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

static const char inlined_id_prefix[] = "__hooktrace_inlined.";

struct raw_sym {
    uint64_t addr, size;
    const char *name; /* in the ELF string table until copied */
    int score;
    int inlined_id;
};

struct sym_vec {
    struct raw_sym *v;
    size_t n, cap;
};

static int push(struct sym_vec *s, struct raw_sym sym)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        struct raw_sym *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = sym;
    return 0;
}

/* Several names often share an address (aliases such as __libc_malloc and
 * malloc, or a weak and a strong name).  The one a user recognises is
 * usually global and without leading underscores. */
static int score(const GElf_Sym *sym, const char *name)
{
    int s = 0;
    switch (GELF_ST_BIND(sym->st_info)) {
    case STB_GLOBAL:
        s += 8;
        break;
    case STB_WEAK:
        s += 4;
        break;
    default:
        break;
    }
    if (name[0] != '_')
        s += 2;
    else if (name[1] != '_')
        s += 1;
    return s;
}

static int read_table(Elf *elf, Elf_Scn *scn, const GElf_Shdr *shdr, struct sym_vec *out)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!data || shdr->sh_entsize == 0)
        return 0;
    size_t count = shdr->sh_size / shdr->sh_entsize;
    for (size_t i = 1; i < count; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(data, (int)i, &sym))
            break;
        int type = GELF_ST_TYPE(sym.st_info);
        if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT)
            continue;
        if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE || sym.st_value == 0)
            continue;
        const char *name = elf_strptr(elf, shdr->sh_link, sym.st_name);
        if (!name || !name[0])
            continue;
        /* The id of a function's inlined copies (GCC plugin, docs/plugin.md)
         * is named after it: the hooks name copies by it. */
        if (type == STT_OBJECT) {
            if (strncmp(name, inlined_id_prefix, sizeof inlined_id_prefix - 1) != 0)
                continue;
            name += sizeof inlined_id_prefix - 1;
        }
        struct raw_sym r = { sym.st_value, sym.st_size, name, score(&sym, name), type == STT_OBJECT };
        if (push(out, r) != 0)
            return -1;
    }
    return 0;
}

static int by_addr_then_score(const void *a, const void *b)
{
    const struct raw_sym *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The winner of each address, with the largest size any alias gives. */
static int unique_copy(struct sym_vec *syms, struct ht_strpool *pool, struct ht_func **funcs,
                       size_t *count)
{
    if (syms->n > 1)
        qsort(syms->v, syms->n, sizeof *syms->v, by_addr_then_score);
    struct ht_func *out = calloc(syms->n ? syms->n : 1, sizeof *out);
    if (!out)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < syms->n; i++) {
        const struct raw_sym *r = &syms->v[i];
        if (n && out[n - 1].addr == r->addr) {
            if (r->size > out[n - 1].size)
                out[n - 1].size = r->size;
            continue;
        }
        const char *name = ht_strpool_dup(pool, r->name);
        if (!name) {
            free(out);
            return -1;
        }
        out[n].addr = r->addr;
        out[n].size = r->size;
        out[n].elf_name = name;
        out[n].inlined_id = (unsigned char)r->inlined_id;
        n++;
    }
    *funcs = out;
    *count = n;
    return 0;
}

int ht_elf_symtab_load(int fd, struct ht_strpool *pool, struct ht_func **funcs, size_t *count,
                       struct ht_elf_info *info)
{
    *funcs = NULL;
    *count = 0;
    info->has_symtab = 0;
    info->dwarf_ok = 0;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    if (!elf)
        return -1;
    int rc = -1;
    struct sym_vec syms = { NULL, 0, 0 };
    if (elf_kind(elf) != ELF_K_ELF)
        goto out;
    /* .symtab is a superset of .dynsym when present, but reading both
     * costs little and covers objects whose .symtab was trimmed. */
    for (int pass = 0; pass < 2; pass++) {
        Elf_Scn *scn = NULL;
        while ((scn = elf_nextscn(elf, scn)) != NULL) {
            GElf_Shdr shdr;
            if (!gelf_getshdr(scn, &shdr))
                continue;
            if (shdr.sh_type != (pass == 0 ? SHT_SYMTAB : SHT_DYNSYM))
                continue;
            if (pass == 0)
                info->has_symtab = 1;
            if (read_table(elf, scn, &shdr, &syms) != 0)
                goto out;
        }
    }
    rc = unique_copy(&syms, pool, funcs, count);
    info->dwarf_ok = ht_elf_dwarf_lists_ok(elf);
out:
    free(syms.v);
    elf_end(elf);
    return rc;
}
