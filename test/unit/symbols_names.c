/* Naming rules on records as the ELF and DWARF readers would fill them,
 * including the cases without DWARF. */
#include "symbols/internal.h"
#include "unit/check.h"

#include <dwarf.h>

static const char *display(struct ht_func f, struct ht_demangler *dm, struct ht_strpool *pool)
{
    return ht_names_display(&f, dm, pool);
}

int main(void)
{
    struct ht_strpool pool = { 0 };
    struct ht_demangler dm = { 0 };

    /* ELF only. */
    CHECK_STR(display((struct ht_func){ .elf_name = "__m_MOD_p" }, &dm, &pool), "m::p");
    CHECK_STR(display((struct ht_func){ .elf_name = "foo_" }, &dm, &pool), "foo_");
    CHECK_STR(display((struct ht_func){ .elf_name = "MAIN__" }, &dm, &pool), "MAIN__");
    CHECK_STR(display((struct ht_func){ .elf_name = "_ZN2ns3fooEv" }, &dm, &pool), "ns::foo()");
    CHECK_STR(display((struct ht_func){ .elf_name = "_Znot_mangled" }, &dm, &pool),
              "_Znot_mangled");
    CHECK_STR(display((struct ht_func){ .elf_name = "__MOD_x" }, &dm, &pool), "__MOD_x");
    CHECK_STR(display((struct ht_func){ .elf_name = "memcpy" }, &dm, &pool), "memcpy");

    /* A C compile unit keeps a trailing underscore. */
    CHECK_STR(display((struct ht_func){ .elf_name = "bar_", .dwarf_name = "bar_",
                                        .lang = DW_LANG_C11 },
                      &dm, &pool),
              "bar_");
    /* Fortran without DW_AT_name: one appended underscore goes. */
    CHECK_STR(display((struct ht_func){ .elf_name = "baz_", .lang = DW_LANG_Fortran95 }, &dm,
                      &pool),
              "baz");
    CHECK_STR(display((struct ht_func){ .elf_name = "my_name__", .lang = DW_LANG_Fortran90 },
                      &dm, &pool),
              "my_name_");
    /* Fortran with DWARF: source names, module prefix, program name. */
    CHECK_STR(display((struct ht_func){ .elf_name = "__mymod_MOD_myproc", .dwarf_name = "myproc",
                                        .module = "mymod", .lang = DW_LANG_Fortran08 },
                      &dm, &pool),
              "mymod::myproc");
    CHECK_STR(display((struct ht_func){ .elf_name = "MAIN__", .dwarf_name = "heat",
                                        .is_main = 1, .lang = DW_LANG_Fortran08 },
                      &dm, &pool),
              "heat");
    /* C++: the ELF name carries the signature DW_AT_name lacks. */
    CHECK_STR(display((struct ht_func){ .elf_name = "_ZN2ns6Widget6resizeEid",
                                        .dwarf_name = "resize", .lang = DW_LANG_C_plus_plus_14 },
                      &dm, &pool),
              "ns::Widget::resize(int, double)");
    /* DWARF only (no ELF symbol). */
    CHECK_STR(display((struct ht_func){ .linkage_name = "_ZN2ns3barEi", .dwarf_name = "bar" },
                      &dm, &pool),
              "ns::bar(int)");
    CHECK_STR(display((struct ht_func){ .dwarf_name = "lonely" }, &dm, &pool), "lonely");
    CHECK(display((struct ht_func){ 0 }, &dm, &pool) == NULL);

    CHECK(ht_fortran_module_name(&pool, "__a_b_MOD_c_d") != NULL);
    CHECK_STR(ht_fortran_module_name(&pool, "__a_b_MOD_c_d"), "a_b::c_d");
    CHECK(ht_fortran_module_name(&pool, "__m_MOD_") == NULL);
    CHECK(ht_fortran_module_name(&pool, "m_MOD_p") == NULL);

    /* Source paths: joined with comp_dir, normalised without the disk. */
    CHECK_STR(ht_path_normal(&pool, "/w/app/build/rel", "../../src/x.c"), "/w/app/src/x.c");
    CHECK_STR(ht_path_normal(&pool, "/w/app/", "./src//./y.c"), "/w/app/src/y.c");
    CHECK_STR(ht_path_normal(&pool, "/w/app", "/abs/a/b/../../c.c"), "/abs/c.c");
    CHECK_STR(ht_path_normal(&pool, "/w", "../../../up.c"), "/up.c");
    CHECK_STR(ht_path_normal(&pool, NULL, "./a/../../b/c.c"), "../b/c.c");
    CHECK_STR(ht_path_normal(&pool, "", "a/b/.."), "a");
    CHECK_STR(ht_path_normal(&pool, NULL, "a/.."), ".");
    CHECK_STR(ht_path_normal(&pool, "/", ".."), "/");
    CHECK_STR(ht_path_normal(&pool, "/w/x..y", ".hidden/..z/f.c"), "/w/x..y/.hidden/..z/f.c");

    ht_demangler_close(&dm);
    ht_strpool_free(&pool);
    return CHECK_DONE();
}
