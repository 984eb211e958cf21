/* Resolves addresses of known functions in this program (built as PIE for
 * symbols_test, as non-PIE for symbols_nopie), in a shared library, in
 * libc, and addresses with no symbol or in no object. */
#define _GNU_SOURCE
#include "symbols/symbols.h"
#include "programs/symbols_fixture.h"
#include "unit/check.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *base_name(const char *path)
{
    if (!path)
        return NULL;
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

struct exe_info {
    uintptr_t bias, lowest_vaddr;
    int found;
};

static int find_exe(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct exe_info *exe = arg;
    (void)size;
    if (info->dlpi_name && info->dlpi_name[0])
        return 0;
    exe->found = 1;
    exe->bias = info->dlpi_addr;
    exe->lowest_vaddr = UINTPTR_MAX;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD && info->dlpi_phdr[i].p_vaddr < exe->lowest_vaddr)
            exe->lowest_vaddr = info->dlpi_phdr[i].p_vaddr;
    return 1;
}

static void check_c_functions(struct ht_symbols *syms)
{
    struct ht_symbol s;
    ht_symbols_resolve(syms, symfix_static_address(), &s);
    CHECK_STR(s.name, "symfix_static_helper");
    CHECK_STR(base_name(s.file), "symbols_fixture.c");
    CHECK_EQ_U64(s.line, symfix_static_line);
    CHECK_STR(base_name(s.object), SYMTEST_EXE);
    CHECK(s.file && s.file[0] == '/');

    ht_symbols_resolve(syms, symfix_header_address(), &s);
    CHECK_STR(s.name, "symfix_header_function");
    CHECK_STR(base_name(s.file), "symbols_fixture_inc.h");
    CHECK_EQ_U64(s.line, symfix_header_function_line);

    ht_symbols_resolve(syms, (uintptr_t)&bar_, &s);
    CHECK_STR(s.name, "bar_");
    CHECK_STR(base_name(s.file), "symbols_fixture.c");
    CHECK_EQ_U64(s.line, symfix_bar_line);

    /* Found by dlsym(RTLD_DEFAULT) in symbols_test (which links
     * libstdc++), by dlopen in symbols_nopie (which does not). */
    ht_symbols_resolve(syms, (uintptr_t)&symfix_mangled, &s);
    CHECK_STR(s.name, "symfix::mangled(int)");
}

static void check_libc(struct ht_symbols *syms)
{
    /* libc's own qsort: RTLD_DEFAULT could find a sanitizer's wrapper. */
    void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
    CHECK(libc != NULL);
    if (!libc)
        return;
    void *qsort_address = dlsym(libc, "qsort");
    CHECK(qsort_address != NULL);
    struct ht_symbol s;
    ht_symbols_resolve(syms, (uintptr_t)qsort_address, &s);
    CHECK_STR(s.name, "qsort");
    CHECK(s.file == NULL);
    CHECK_EQ_U64(s.line, 0);
    CHECK_CONTAINS(base_name(s.object), "libc.so");
    dlclose(libc);
}

static void check_unresolved(struct ht_symbols *syms)
{
    struct exe_info exe = { 0, 0, 0 };
    dl_iterate_phdr(find_exe, &exe);
    CHECK(exe.found);
    const ElfW(Ehdr) *ehdr = (const ElfW(Ehdr) *)(exe.bias + exe.lowest_vaddr);
    CHECK_EQ_U64(ehdr->e_type, SYMTEST_PIE ? ET_DYN : ET_EXEC);

    /* Inside the ELF header: mapped, but no function. */
    struct ht_symbol s;
    char expected[128];
    snprintf(expected, sizeof expected, "%s+0x%jx", SYMTEST_EXE,
             (uintmax_t)(exe.lowest_vaddr + 0x18));
    ht_symbols_resolve(syms, exe.bias + exe.lowest_vaddr + 0x18, &s);
    CHECK_STR(s.name, expected);
    CHECK(s.file == NULL);
    CHECK_STR(base_name(s.object), SYMTEST_EXE);
#if SYMTEST_PIE
    CHECK_STR(s.name, SYMTEST_EXE "+0x18");
#else
    CHECK_STR(s.name, SYMTEST_EXE "+0x400018");
#endif

    ht_symbols_resolve(syms, 0x10, &s);
    CHECK_STR(s.name, "0x10");
    CHECK(s.object == NULL);
    CHECK(s.file == NULL);
    CHECK_EQ_U64(s.line, 0);
}

#if SYMTEST_LIB
static void check_shared_library(struct ht_symbols *syms)
{
    struct ht_symbol s;
    ht_symbols_resolve(syms, (uintptr_t)&symlib_function, &s);
    CHECK_STR(s.name, "symlib_function");
    CHECK_STR(base_name(s.file), "symbols_lib.c");
    CHECK_EQ_U64(s.line, symlib_function_line);
    CHECK_CONTAINS(base_name(s.object), "libsymfixture.so");

    ht_symbols_resolve(syms, (uintptr_t)&symlib_other, &s);
    CHECK_STR(s.name, "symlib_other");
    CHECK_EQ_U64(s.line, symlib_other_line);
}
#endif

#if SYMTEST_LIB
static int copy_file(const char *from, int to)
{
    int in = open(from, O_RDONLY);
    if (in < 0)
        return -1;
    char buf[8192];
    ssize_t n;
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(to, buf, (size_t)n) != n)
            break;
    close(in);
    return n == 0 ? 0 : -1;
}

/* An object whose file is gone by the time it is parsed: names fall back
 * to "object+0xoffset", and nothing crashes. */
static void check_deleted_object(void)
{
    Dl_info info;
    CHECK(dladdr((void *)&symgone_function, &info) != 0);
    char path[] = "symbols_gone_XXXXXX.so";
    int fd = mkstemps(path, 3);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    int copied = copy_file(info.dli_fname, fd);
    close(fd);
    CHECK(copied == 0);
    char abs_path[4096];
    CHECK(realpath(path, abs_path) != NULL);
    void *lib = dlopen(abs_path, RTLD_NOW | RTLD_LOCAL);
    CHECK(lib != NULL);
    unlink(path);
    if (!lib)
        return;
    void *fn = dlsym(lib, "symgone_function");
    CHECK(fn != NULL);
    Dl_info gone;
    CHECK(dladdr(fn, &gone) != 0);
    struct ht_symbols *syms = ht_symbols_open();
    struct ht_symbol s;
    ht_symbols_resolve(syms, (uintptr_t)fn, &s);
    char expected[64];
    snprintf(expected, sizeof expected, "%s+0x%jx", path,
             (uintmax_t)((uintptr_t)fn - (uintptr_t)gone.dli_fbase));
    CHECK_STR(s.name, expected);
    CHECK(s.file == NULL);
    CHECK_STR(s.object, abs_path);
    ht_symbols_close(syms);
    dlclose(lib);
}
#endif

#if SYMTEST_CXX
static void check_cxx(struct ht_symbols *syms)
{
    struct ht_symbol s;
    ht_symbols_resolve(syms, symcxx_resize_address(), &s);
    CHECK_STR(s.name, "ns::Widget::resize(int, double)");
    CHECK_STR(base_name(s.file), "symbols_cxx.cpp");
    CHECK_EQ_U64(s.line, symcxx_resize_line);

    ht_symbols_resolve(syms, symcxx_twice_address(), &s);
    CHECK_STR(s.name, "int ns::twice<int>(int)");
    CHECK_STR(base_name(s.file), "symbols_cxx.cpp");
    CHECK_EQ_U64(s.line, symcxx_twice_line);
}
#endif

/* Announced addresses: only the compile units that hold them are read;
 * an address that was not announced is still resolved with its file and
 * line, its object read again whole. */
static void check_announced(void)
{
    struct ht_symbols *syms = ht_symbols_open();
    CHECK(syms != NULL);
    if (!syms)
        return;
    ht_symbols_want(syms, (uintptr_t)&bar_);
    struct ht_symbol s;
    ht_symbols_resolve(syms, (uintptr_t)&bar_, &s);
    CHECK_STR(s.name, "bar_");
    CHECK_STR(base_name(s.file), "symbols_fixture.c");
    CHECK_EQ_U64(s.line, symfix_bar_line);
    /* symbols_fixture.c's unit, and any that does not say where its code
     * is (a sanitizer's asan_preinit.cpp) */
    size_t partial = ht_symbols_units_read(syms);
    ht_symbols_resolve(syms, symfix_static_address(), &s);
    CHECK_STR(s.name, "symfix_static_helper");
    CHECK_STR(base_name(s.file), "symbols_fixture.c");
    CHECK_EQ_U64(s.line, symfix_static_line);
    /* not announced: every unit, read again (this test's, the fixture's,
     * the symbols module's own sources linked in) */
    size_t all = ht_symbols_units_read(syms) - partial;
    CHECK(partial >= 1);
    CHECK(all >= 3);
    CHECK(partial < all);
    ht_symbols_close(syms);
}

int main(void)
{
    struct ht_symbols *syms = ht_symbols_open();
    CHECK(syms != NULL);
    if (!syms)
        return CHECK_DONE();
    check_announced();
    check_c_functions(syms);
    check_libc(syms);
    check_unresolved(syms);
#if SYMTEST_LIB
    check_shared_library(syms);
    check_deleted_object();
#endif
#if SYMTEST_CXX
    check_cxx(syms);
#endif
    /* A second lookup is served from the already parsed object. */
    struct ht_symbol s;
    ht_symbols_resolve(syms, (uintptr_t)&bar_, &s);
    CHECK_STR(s.name, "bar_");
    ht_symbols_close(syms);
    return CHECK_DONE();
}
