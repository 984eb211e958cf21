/* Address -> function name and source location, for the executable and every
 * shared object loaded in the process.  Runs at output time only; nothing
 * here is ever called from a hook. */
#ifndef HT_SYMBOLS_SYMBOLS_H
#define HT_SYMBOLS_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ht_symbol {
    const char *name; /* display name, never NULL: demangled C++, Fortran
                         "module::procedure", or "object+0xoffset" */
    const char *file; /* source file, NULL if unknown */
    unsigned line; /* line of the function's definition, 0 if unknown */
    const char *object; /* path of the ELF object holding the address, or
                           NULL if the address lies in no loaded object */
};

struct ht_symbols;

/* Takes a snapshot of the loaded objects (dl_iterate_phdr).  Objects are
 * parsed lazily, each at most once, on the first address that falls in it. */
struct ht_symbols *ht_symbols_open(void);

/* Resolves one address (a function entry as given to the hooks).  The
 * strings stay valid until ht_symbols_close.  Never fails: an unknown
 * address gets an "object+0xoffset" or "0xaddress" name. */
void ht_symbols_resolve(struct ht_symbols *syms, uintptr_t address, struct ht_symbol *out);

void ht_symbols_close(struct ht_symbols *syms);

/* Notes a library that dlclose(handle) is about to close (called by the
 * dlclose interposer, through src/runtime/libraries.c): its path, load bias and
 * segments, and an open descriptor of its file.  Every later
 * ht_symbols_open then knows it as a loaded object, where no object loaded
 * at that time covers its addresses (closed.c, docs/symbols.md).  Takes a
 * lock; never call it from a hook. */
void ht_symbols_note_closing(void *handle);

/* Announces an address that will be resolved, before any is: an object's
 * DWARF is then read only for the compile units that hold announced
 * addresses (docs/symbols.md, "Cost").  Resolving an address that was not
 * announced stays correct (its object is read again, whole). */
void ht_symbols_want(struct ht_symbols *syms, uintptr_t address);

/* How many DWARF compile units have been read (for tests and benchmarks). */
size_t ht_symbols_units_read(const struct ht_symbols *syms);

/* Where an address lies, without reading any file: the loaded object's
 * identity (a hash of its path; 0: in no object) and the address's
 * link-time offset in it.  Processes that run the same binaries give the
 * same function the same key, whatever their load addresses (ASLR), so one
 * process can name the functions of all (merge/names.c). */
struct ht_symbol_key {
    uint64_t object, offset;
};
struct ht_symbol_key ht_symbols_key(const struct ht_symbols *syms, uintptr_t address);

/* ht_symbols_want for a key. */
void ht_symbols_want_key(struct ht_symbols *syms, struct ht_symbol_key key);

/* Resolves a key of one of this process's objects, as ht_symbols_resolve
 * would the address; false if no object here has that identity. */
bool ht_symbols_resolve_key(struct ht_symbols *syms, struct ht_symbol_key key,
                            struct ht_symbol *out);

/* Calls found(address) for every function of the executable (and, unless
 * executable_only, of every shared object loaded now) whose display name
 * passes wanted(name), or, in an object gfortran built (one with MAIN__ or
 * a module procedure), the name the profile shows for it: the program's
 * own name for MAIN__ and "foo" for foo_ (scan.c).  Reads ELF symbol
 * tables, and DWARF only for the main program's unit, when asked about its
 * own name.  For start-up; nothing here may run in a hook. */
void ht_symbols_scan(bool executable_only, bool (*wanted)(const char *name, void *ctx),
                     void (*found)(uintptr_t address, void *ctx), void *ctx);

/* The same, with the ELF symbol's own name (NULL for a function known
 * only from DWARF) handed to found, and wanted given its own context. */
void ht_symbols_scan_symbols(bool executable_only, bool (*wanted)(const char *name, void *ctx),
                             void *wanted_ctx,
                             void (*found)(uintptr_t address, const char *symbol, void *ctx),
                             void *ctx);

/* The same over the objects chosen: all, the executable, or the
 * executable and the shared objects that call the hooks (the only ones
 * whose functions can be recorded: the rest cost most of a scan, in
 * demangling). */
enum ht_scan_objects { HT_SCAN_ALL, HT_SCAN_EXECUTABLE, HT_SCAN_INSTRUMENTED };
void ht_symbols_scan_objects(enum ht_scan_objects which, bool (*wanted)(const char *name, void *ctx),
                             void *wanted_ctx,
                             void (*found)(uintptr_t address, const char *symbol, void *ctx),
                             void *ctx);

/* The same with wanted given the ELF symbol's own name too (NULL for a
 * function known only from DWARF): a Score-P filter's MANGLED rules match
 * it.  object, unless NULL, is asked first whether each object (its load
 * bias and path) is read at all. */
void ht_symbols_scan_named(enum ht_scan_objects which,
                           bool (*object)(uintptr_t bias, const char *path, void *ctx),
                           bool (*wanted)(const char *name, const char *symbol, void *ctx),
                           void *wanted_ctx,
                           void (*found)(uintptr_t address, const char *symbol, void *ctx),
                           void *ctx);

/* Display names of the functions hooktrace's GCC plugin left uninstrumented
 * in the objects loaded now (uninstrumented.c), sorted, each once.  Returns
 * 0, or -1 if memory ran out (out then holds what was read). */
struct ht_name_list {
    const char **names;
    size_t count;
};
int ht_symbols_uninstrumented(struct ht_name_list *out);
void ht_name_list_free(struct ht_name_list *list);

/* The functions whose inlined copies the GCC plugin took the hooks out of
 * (its .hooktrace.inlined sections), display names sorted, each once, with
 * the inlined sites summed over the objects.  Returns 0, or -1 if memory
 * ran out. */
struct ht_inlined_list {
    const char **names;
    unsigned long *sites;
    size_t count;
    unsigned long total_sites;
};
int ht_symbols_inlined(struct ht_inlined_list *out);
void ht_inlined_list_free(struct ht_inlined_list *list);
/* The ELF symbol names (mangled, as the compiler's assembler names) of
 * every function of the executable and the loaded objects whose display
 * name is one of display[0..n) (linkage_names.c), sorted, each once: what
 * the GCC plugin's exclude-file takes.  0, or -1 if memory ran out. */
int ht_symbols_linkage_names(const char *const *display, size_t n, struct ht_name_list *out);

/* What the loaded objects say of their build (build_marks.c). */
struct ht_build_marks {
    bool plugin;      /* some object (the executable included) was compiled
                         with hooktrace's GCC plugin: .hooktrace.plugin */
    bool clang_built; /* the executable's .comment names clang, not GCC */
};
void ht_symbols_build_marks(struct ht_build_marks *out);

/* The DW_AT_producer of the executable at path ("GNU C17 12.2.0 -g ..."),
 * malloc'ed; NULL without DWARF (producer.c). */
char *ht_symbols_producer(const char *path);

#endif
