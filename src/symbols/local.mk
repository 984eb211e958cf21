# symbols: address -> name, file:line (owned by the symbols module)
noinst_LTLIBRARIES += libht_symbols.la
libht_symbols_la_SOURCES = \
	src/symbols/symbols.h \
	src/symbols/internal.h \
	src/symbols/symbols.c \
	src/symbols/elf_symtab.c \
	src/symbols/elf_dwarf_check.c \
	src/symbols/dwarf_internal.h \
	src/symbols/dwarf_functions.c \
	src/symbols/dwarf_lines.c \
	src/symbols/names.c \
	src/symbols/scan.c \
	src/symbols/closed.c \
	src/symbols/paths.c \
	src/symbols/uninstrumented.c \
	src/symbols/linkage_names.c \
	src/symbols/build_marks.c \
	src/symbols/producer.c \
	src/symbols/strpool.c
libht_symbols_la_CPPFLAGS = $(HT_LIB_CPPFLAGS)
libht_symbols_la_CFLAGS = $(HT_LIB_CFLAGS)
libht_symbols_la_LIBADD = $(DWARF_LIBS) $(LIBELF_LIBS) -ldl

# --- tests ------------------------------------------------------------------
# Fixtures are built with -g -O0 so that their DWARF is complete; the test
# programs are linked -no-install so they run without libtool wrappers.
SYMBOLS_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/test $(DWARF_CFLAGS)

# A real shared object (-rpath makes libtool build one for a check library).
check_LTLIBRARIES += test/programs/libsymfixture.la
test_programs_libsymfixture_la_SOURCES = test/programs/symbols_lib.c test/programs/symbols_fixture.h
test_programs_libsymfixture_la_CFLAGS = $(AM_CFLAGS) -g -O0
test_programs_libsymfixture_la_LDFLAGS = -rpath $(abs_builddir)/test/programs -avoid-version

# Copied, loaded and deleted by symbols_test.
check_LTLIBRARIES += test/programs/libsymgone.la
test_programs_libsymgone_la_SOURCES = test/programs/symbols_gone.c test/programs/symbols_fixture.h
test_programs_libsymgone_la_CFLAGS = $(AM_CFLAGS) -g -O0
test_programs_libsymgone_la_LDFLAGS = -rpath $(abs_builddir)/test/programs -avoid-version

check_PROGRAMS += test/unit/symbols_test test/unit/symbols_nopie test/unit/symbols_names
TESTS += test/unit/symbols_test test/unit/symbols_nopie test/unit/symbols_names

# PIE, with a C++ fixture (so it links libstdc++) and the shared fixture.
test_unit_symbols_test_SOURCES = test/unit/symbols_test.c \
	test/programs/symbols_fixture.c test/programs/symbols_fixture.h \
	test/programs/symbols_fixture_inc.h \
	test/programs/symbols_cxx.cpp
test_unit_symbols_test_CPPFLAGS = $(SYMBOLS_TEST_CPPFLAGS) \
	-DSYMTEST_EXE='"symbols_test"' -DSYMTEST_PIE=1 -DSYMTEST_CXX=1 -DSYMTEST_LIB=1
test_unit_symbols_test_CFLAGS = $(AM_CFLAGS) -g -O0 -fPIE
test_unit_symbols_test_CXXFLAGS = $(HT_WARN_CFLAGS) -g -O0 -fPIE
test_unit_symbols_test_LDFLAGS = -no-install -Wc,-pie
test_unit_symbols_test_LDADD = libht_symbols.la libht_common.la test/programs/libsymfixture.la \
	test/programs/libsymgone.la

# Not PIE, and C only: demangling must then find libstdc++ by dlopen.
test_unit_symbols_nopie_SOURCES = test/unit/symbols_test.c \
	test/programs/symbols_fixture.c test/programs/symbols_fixture.h \
	test/programs/symbols_fixture_inc.h
test_unit_symbols_nopie_CPPFLAGS = $(SYMBOLS_TEST_CPPFLAGS) \
	-DSYMTEST_EXE='"symbols_nopie"' -DSYMTEST_PIE=0 -DSYMTEST_CXX=0 -DSYMTEST_LIB=0
test_unit_symbols_nopie_CFLAGS = $(AM_CFLAGS) -g -O0 -fno-pie
test_unit_symbols_nopie_LDFLAGS = -no-install -Wc,-no-pie
test_unit_symbols_nopie_LDADD = libht_symbols.la libht_common.la

test_unit_symbols_names_SOURCES = test/unit/symbols_names.c
test_unit_symbols_names_CPPFLAGS = $(SYMBOLS_TEST_CPPFLAGS)
test_unit_symbols_names_LDFLAGS = -no-install
test_unit_symbols_names_LDADD = libht_symbols.la libht_common.la

# Which objects a scan opens: the instrumented ones found in memory.
check_LTLIBRARIES += test/programs/libsymhooked.la
test_programs_libsymhooked_la_SOURCES = test/programs/symbols_hooked.c
test_programs_libsymhooked_la_CFLAGS = $(HT_WARN_CFLAGS) -O0 -finstrument-functions
test_programs_libsymhooked_la_LDFLAGS = -rpath $(abs_builddir)/test/programs -avoid-version
check_PROGRAMS += test/unit/symbols_objects
TESTS += test/unit/symbols_objects
test_unit_symbols_objects_SOURCES = test/unit/symbols_objects.c
test_unit_symbols_objects_CPPFLAGS = $(SYMBOLS_TEST_CPPFLAGS)
test_unit_symbols_objects_LDFLAGS = -no-install
test_unit_symbols_objects_LDADD = libht_symbols.la libht_common.la test/programs/libsymfixture.la \
	test/programs/libsymhooked.la

if HAVE_FORTRAN
# The main program is Fortran; the checks are C.
check_PROGRAMS += test/unit/symbols_fortran
TESTS += test/unit/symbols_fortran
test_unit_symbols_fortran_SOURCES = test/unit/symbols_fortran.c \
	test/programs/symbols_fmod.F90 test/programs/symbols_fmain.F90
test_unit_symbols_fortran_CPPFLAGS = $(SYMBOLS_TEST_CPPFLAGS)
test_unit_symbols_fortran_CFLAGS = $(AM_CFLAGS) -g -O0
# These survive a user's -O2: the test finds MAIN__ through the return
# address of a call it makes, which must neither be inlined into main nor
# become a tail jump.
test_unit_symbols_fortran_FCFLAGS = -g -O0 -fno-inline -fno-optimize-sibling-calls
test_unit_symbols_fortran_LDFLAGS = -no-install
test_unit_symbols_fortran_LDADD = libht_symbols.la libht_common.la
endif
# gfortran writes module files into the directory it runs in; symbols_test
# removes its scratch copy itself unless it crashes.
CLEANFILES += mymod.mod symbols_gone_*.so
