/* Display names: C++ demangling through the C++ runtime's own demangler,
 * and gfortran naming conventions. */
#define _GNU_SOURCE
#include "symbols/internal.h"

#include <ctype.h>
#include <dlfcn.h>
#include <dwarf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/library_close.h"

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

/* Looked up at run time so that the C library never links libstdc++: a C
 * or Fortran program does not need it, and a C++ program already has it. */
static void demangler_lookup(struct ht_demangler *dm)
{
    dm->looked_up = 1;
    void *sym = dlsym(RTLD_DEFAULT, "__cxa_demangle");
    if (!sym) {
        dm->handle = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_NOLOAD);
        if (!dm->handle)
            dm->handle = dlopen("libstdc++.so.6", RTLD_LAZY);
        if (dm->handle)
            sym = dlsym(dm->handle, "__cxa_demangle");
    }
    /* ISO C forbids the object-to-function pointer cast; POSIX requires
     * it to work, and memcpy says so without a warning. */
    if (sym)
        memcpy(&dm->cxa_demangle, &sym, sizeof sym);
}

const char *ht_demangle(struct ht_demangler *dm, struct ht_strpool *pool, const char *mangled)
{
    if (strncmp(mangled, "_Z", 2) != 0)
        return NULL;
    if (!dm->looked_up)
        demangler_lookup(dm);
    if (!dm->cxa_demangle)
        return NULL;
    int status = -1;
    char *plain = dm->cxa_demangle(mangled, NULL, NULL, &status);
    const char *copy = NULL;
    if (plain && status == 0)
        copy = ht_strpool_dup(pool, plain);
    free(plain);
    return copy;
}

void ht_demangler_close(struct ht_demangler *dm)
{
    if (dm->handle)
        ht_library_close(dm->handle);
    dm->handle = NULL;
    dm->cxa_demangle = NULL;
    dm->looked_up = 0;
}

const char *ht_fortran_module_name(struct ht_strpool *pool, const char *symbol)
{
    if (strncmp(symbol, "__", 2) != 0)
        return NULL;
    const char *module = symbol + 2;
    const char *sep = strstr(module, "_MOD_");
    if (!sep || sep == module || sep[5] == '\0')
        return NULL;
    size_t mlen = (size_t)(sep - module), plen = strlen(sep + 5);
    char *out = ht_strpool_alloc(pool, mlen + 2 + plen + 1);
    if (out) {
        memcpy(out, module, mlen);
        memcpy(out + mlen, "::", 2);
        memcpy(out + mlen + 2, sep + 5, plen + 1);
    }
    return out;
}

int ht_lang_is_fortran(unsigned lang)
{
    switch (lang) {
    case DW_LANG_Fortran77:
    case DW_LANG_Fortran90:
    case DW_LANG_Fortran95:
    case DW_LANG_Fortran03:
    case DW_LANG_Fortran08:
        return 1;
    default:
        return 0;
    }
}

static const char *join_module(struct ht_strpool *pool, const char *module, const char *name)
{
    size_t mlen = strlen(module), nlen = strlen(name);
    char *out = ht_strpool_alloc(pool, mlen + 2 + nlen + 1);
    if (out) {
        memcpy(out, module, mlen);
        memcpy(out + mlen, "::", 2);
        memcpy(out + mlen + 2, name, nlen + 1);
    }
    return out;
}

/* gfortran names `program main` MAIN__ in DWARF too (the name "main" is
 * the C entry point it generates), exactly as it names a program without a
 * `program` statement.  Only the source tells them apart: the line DWARF
 * gives for MAIN__ is the `program` statement when there is one.  NULL when
 * the file cannot be read or the line is something else. */
static const char *program_statement_name(struct ht_strpool *pool, const char *file, unsigned line)
{
    FILE *f = file && line ? fopen(file, "r") : NULL;
    if (!f)
        return NULL;
    char text[512];
    const char *name = NULL;
    for (unsigned n = 1; fgets(text, sizeof text, f); n++) {
        if (n < line)
            continue;
        const char *p = text;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncasecmp(p, "program", 7) == 0 && (p[7] == ' ' || p[7] == '\t')) {
            p += 7;
            while (*p == ' ' || *p == '\t')
                p++;
            size_t len = 0;
            while (isalnum((unsigned char)p[len]) || p[len] == '_')
                len++;
            char *out = len ? ht_strpool_alloc(pool, len + 1) : NULL;
            if (out) {
                for (size_t i = 0; i < len; i++) /* Fortran names are case-blind */
                    out[i] = (char)tolower((unsigned char)p[i]);
                out[len] = '\0';
                name = out;
            }
        }
        break;
    }
    fclose(f);
    return name;
}

/* Fortran: DWARF knows the source name, which is what the user wrote
 * (lower-cased by gfortran), without the "_" or "__m_MOD_" decoration. */
static const char *fortran_display(struct ht_func *f, struct ht_strpool *pool)
{
    if (f->dwarf_name && f->module && !f->is_main) {
        /* GCC names the OpenMP outlined functions of a module procedure
         * after its linkage name, "__m_MOD_run._omp_fn.0" (a Fortran name
         * never starts with "_"): m::run._omp_fn.0. */
        const char *outlined = ht_fortran_module_name(pool, f->dwarf_name);
        return outlined ? outlined : join_module(pool, f->module, f->dwarf_name);
    }
    /* The out-of-line copy of a module procedure that was also inlined sits
     * outside its DW_TAG_module and names it only through its abstract
     * instance; its linkage name still carries the module. */
    const char *linked = f->linkage_name ? f->linkage_name : f->elf_name;
    const char *from_linkage = linked && !f->is_main ? ht_fortran_module_name(pool, linked) : NULL;
    if (from_linkage)
        return from_linkage;
    if (f->is_main && f->dwarf_name && strcmp(f->dwarf_name, "MAIN__") == 0) {
        const char *own = program_statement_name(pool, f->file, f->line);
        if (own)
            return own;
    }
    if (f->dwarf_name)
        return f->dwarf_name;
    if (!f->elf_name)
        return NULL;
    const char *mod = ht_fortran_module_name(pool, f->elf_name);
    if (mod)
        return mod;
    /* The language is known to be Fortran, so a trailing underscore is the
     * one gfortran appended (a Fortran name may itself end in "_", which
     * then shows as "__": strip only one). */
    size_t len = strlen(f->elf_name);
    if (len > 1 && f->elf_name[len - 1] == '_')
        return ht_strpool_dupn(pool, f->elf_name, len - 1);
    return f->elf_name;
}

static const char *compute_display(struct ht_func *f, struct ht_demangler *dm,
                                   struct ht_strpool *pool)
{
    if (ht_lang_is_fortran(f->lang)) {
        const char *name = fortran_display(f, pool);
        if (name)
            return name;
    }
    /* The ELF name carries the full C++ signature; DW_AT_name would be
     * just "resize". */
    const char *sym = f->elf_name ? f->elf_name : f->linkage_name;
    if (sym) {
        const char *name = ht_demangle(dm, pool, sym);
        if (name)
            return name;
        name = ht_fortran_module_name(pool, sym);
        if (name)
            return name;
        return sym;
    }
    if (f->dwarf_name && f->module)
        return join_module(pool, f->module, f->dwarf_name);
    return f->dwarf_name;
}

const char *ht_names_display(struct ht_func *f, struct ht_demangler *dm, struct ht_strpool *pool)
{
    if (!f->display)
        f->display = compute_display(f, dm, pool);
    return f->display;
}
