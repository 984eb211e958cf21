/* Shared between the parts of the symbols module: the per-function record
 * the ELF and DWARF readers fill in, the string pool that owns every name,
 * and the name-cleanup entry points.  Not installed, not used elsewhere. */
#ifndef HT_SYMBOLS_INTERNAL_H
#define HT_SYMBOLS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Strings live until ht_symbols_close; one bump allocator avoids a malloc
 * and a free per symbol name (libraries have thousands). */
struct ht_strpool_chunk;
struct ht_strpool {
    struct ht_strpool_chunk *head;
};

char *ht_strpool_alloc(struct ht_strpool *pool, size_t size);
/* Both return NULL only when memory is exhausted. */
char *ht_strpool_dup(struct ht_strpool *pool, const char *s);
char *ht_strpool_dupn(struct ht_strpool *pool, const char *s, size_t n);
void ht_strpool_free(struct ht_strpool *pool);

/* One function of one object.  Addresses are link-time addresses (ELF
 * st_value, DWARF low_pc): the run-time address minus the object's load
 * bias (dlpi_addr). */
struct ht_func {
    uint64_t addr;
    uint64_t size; /* 0 if unknown */
    const char *elf_name; /* NULL if known only from DWARF */
    const char *dwarf_name; /* DW_AT_name, NULL if none */
    const char *linkage_name; /* DW_AT_linkage_name, NULL if none */
    const char *module; /* enclosing Fortran DW_TAG_module, or NULL */
    const char *file; /* NULL if unknown */
    unsigned line; /* 0 if unknown */
    unsigned lang; /* DW_LANG_* of the compile unit, 0 if unknown */
    unsigned char is_main; /* DW_AT_main_subprogram (Fortran program) */
    unsigned char has_dwarf;
    unsigned char inlined_id; /* the id of its inlined copies (GCC plugin):
                                 named and placed as its own body */
    const char *display; /* computed on first lookup, see ht_names_display */
};

/* The ELF objects loaded now (dl_iterate_phdr), the executable first under
 * its real path; the vDSO and unnamed objects are left out.  Which: all,
 * the executable only, or the executable and the objects that call the
 * hooks (an import of __cyg_profile_func_enter or
 * hooktrace_inlined_calls_in, read in memory: no file is opened). */
enum ht_object_list_which { HT_LIST_ALL, HT_LIST_EXECUTABLE, HT_LIST_INSTRUMENTED };
struct ht_object_list {
    enum ht_object_list_which which;
    size_t count, capacity;
    struct ht_scanned_object {
        char *path;
        uintptr_t bias;
    } *objects;
};
void ht_object_list_take(struct ht_object_list *list, enum ht_object_list_which which);
void ht_object_list_free(struct ht_object_list *list);

/* A library noted by ht_symbols_note_closing (closed.c).  Its path and fd
 * stay valid for the life of the process; fd is -1 if the file could not
 * be opened at dlclose. */
#define HT_CLOSED_SEGMENTS 8
#define HT_CLOSED_MAX 256
struct ht_closed_object {
    const char *path;
    uintptr_t bias;
    uintptr_t segments[HT_CLOSED_SEGMENTS][2]; /* run-time [start, end) */
    size_t nsegments;
    int fd;
    uint64_t dev, ino;
};
/* Whether the shared object open at fd calls the hooks: its dynamic
 * symbols import __cyg_profile_func_enter (an executable linked with
 * libhooktrace.a defines it instead).  Only such an object has functions a
 * profile can name (scan.c). */
bool ht_symbols_imports_hooks(int fd);

/* Copies up to max of them into out, newest first; returns how many. */
size_t ht_closed_objects(struct ht_closed_object *out, size_t max);

struct ht_elf_info {
    int has_symtab; /* a full symbol table, static functions included */
    int dwarf_ok; /* safe to hand to libdwarf (see elf_dwarf_check.c) */
};

/* ELF function symbols of the object open on fd: .symtab, then .dynsym,
 * sorted by address, one entry per address.  Returns 0, or -1 if fd is not
 * a readable ELF file or memory ran out (*funcs is then NULL). */
int ht_elf_symtab_load(int fd, struct ht_strpool *pool, struct ht_func **funcs, size_t *count,
                       struct ht_elf_info *info);

/* 0 if the object's DWARF 5 range or location list headers are malformed
 * in a way this libdwarf does not survive. */
struct Elf;
int ht_elf_dwarf_lists_ok(struct Elf *elf);

/* DW_TAG_subprogram entries with code of the object open on fd, in no
 * particular order (several may share an address).  With wanted (sorted
 * link-time addresses), only the compile units whose code holds one of
 * them are read (and those that do not say where their code is); *units
 * grows by the number read.  Returns 0 also when there is no DWARF (count
 * 0); on a libdwarf error keeps what was read before it. */
int ht_dwarf_functions_load(int fd, struct ht_strpool *pool, const uint64_t *wanted,
                            size_t nwanted, struct ht_func **funcs, size_t *count, size_t *units);

struct ht_demangler {
    char *(*cxa_demangle)(const char *mangled, char *buf, size_t *len, int *status);
    void *handle; /* from dlopen, closed by ht_demangler_close */
    int looked_up;
};

/* Demangles an Itanium C++ name into the pool; NULL if it is not one or
 * no demangler is available. */
const char *ht_demangle(struct ht_demangler *dm, struct ht_strpool *pool, const char *mangled);
void ht_demangler_close(struct ht_demangler *dm);

/* "__mod_MOD_proc" -> "mod::proc" in the pool; NULL if not that form. */
const char *ht_fortran_module_name(struct ht_strpool *pool, const char *symbol);

int ht_lang_is_fortran(unsigned lang);

/* name joined with dir when relative (dir may be NULL), then normalised
 * lexically: no "." or empty components, ".." removes the one before it
 * (paths.c).  A pool copy; NULL only when memory is exhausted. */
char *ht_path_normal(struct ht_strpool *pool, const char *dir, const char *name);

/* The name to show for f (cached in f->display).  NULL only when memory
 * is exhausted. */
const char *ht_names_display(struct ht_func *f, struct ht_demangler *dm, struct ht_strpool *pool);

#endif
