# The GCC plugin (src/plugin, docs/plugin.md): a C++ MPI program built with
# the plugin at its default limit, with the plugin keeping every hook
# (max-statements=0 inlined-hooks=keep: the control), with the plugin at -O0 (which it leaves
# alone), and without hooktrace (the reference
# output); a Fortran program with the plugin.  test/plugin/plugin.py runs
# them and also compiles with bad plugin arguments (HT_CXX).
EXTRA_DIST += test/plugin/plugin.py test/plugin/tiny.cpp test/plugin/tiny_O0.cpp \
	test/plugin/tiny_module.f90 test/plugin/after_inlining.py test/plugin/inlined.cpp \
	test/plugin/medium.py test/plugin/medium.cpp \
	test/plugin/throttled_scope.py test/plugin/throttled_scope.cpp \
	test/plugin/containers.cpp test/plugin/containers_O1.cpp test/plugin/containers_O3.cpp \
	test/plugin/containers.py \
	test/plugin/throttle_names.cpp test/plugin/throttle_names.exclude test/plugin/exclude.py \
	test/plugin/lulesh_shape.py test/plugin/lulesh_shape.cpp test/plugin/lulesh_shape_O1.cpp \
	test/plugin/lulesh_shape_O3.cpp
if HT_GCC_PLUGIN
HT_PLUGIN_FLAGS = -fplugin=$(abs_top_builddir)/hooktrace_gcc.so
HT_PLUGIN_TEST_CXXFLAGS = $(MPI_CFLAGS) -O2 -g -finstrument-functions $(HT_WARN_CFLAGS)

check_PROGRAMS += test/plugin/tiny test/plugin/tiny_all test/plugin/tiny_plain test/plugin/tiny_O0
TESTS += test/plugin/plugin.py

test_plugin_tiny_SOURCES = test/plugin/tiny.cpp
test_plugin_tiny_CXXFLAGS = $(HT_PLUGIN_TEST_CXXFLAGS) $(HT_PLUGIN_FLAGS)
test_plugin_tiny_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_tiny_LDFLAGS = $(HT_TEST_LINK)
test_plugin_tiny_all_SOURCES = test/plugin/tiny.cpp
test_plugin_tiny_all_CXXFLAGS = $(HT_PLUGIN_TEST_CXXFLAGS) $(HT_PLUGIN_FLAGS) \
	-fplugin-arg-hooktrace_gcc-max-statements=0 -fplugin-arg-hooktrace_gcc-inlined-hooks=keep
test_plugin_tiny_all_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_tiny_all_LDFLAGS = $(HT_TEST_LINK)
# At -O0 the plugin removes nothing (docs/plugin.md).
test_plugin_tiny_O0_SOURCES = test/plugin/tiny_O0.cpp
test_plugin_tiny_O0_CXXFLAGS = $(HT_PLUGIN_TEST_CXXFLAGS) $(HT_PLUGIN_FLAGS)
test_plugin_tiny_O0_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_tiny_O0_LDFLAGS = $(HT_TEST_LINK)
test_plugin_tiny_plain_SOURCES = test/plugin/tiny.cpp
test_plugin_tiny_plain_CXXFLAGS = $(MPI_CFLAGS) -O2 -g $(HT_WARN_CFLAGS)
test_plugin_tiny_plain_LDADD = $(MPI_LIBS)
# Rebuilt when the plugin changes (BUILT_SOURCES builds it first anyway).
test/plugin/tiny-tiny.$(OBJEXT) test/plugin/tiny_all-tiny.$(OBJEXT) test/plugin/tiny_O0-tiny_O0.$(OBJEXT): \
	hooktrace_gcc.so

# The second rule, after inlining (test/plugin/after_inlining.py): the
# default at -O1, -O2, -O3, under -flto (the plugin and
# -finstrument-functions given at the link too, as the hooktrace driver
# does: the rule runs in the link-time compile) and with OpenMP; the other
# two modes at -O2; the reference without hooktrace.
HT_INLINED_FLAGS = $(MPI_CFLAGS) -g -finstrument-functions $(HT_WARN_CFLAGS) $(HT_PLUGIN_FLAGS)
HT_INLINED_BINS = test/plugin/inlined_O1 test/plugin/inlined_O2 test/plugin/inlined_O3 \
	test/plugin/inlined_lto test/plugin/inlined_omp test/plugin/inlined_remove test/plugin/inlined_keep \
	test/plugin/inlined_keeploops
check_PROGRAMS += $(HT_INLINED_BINS) test/plugin/inlined_plain
TESTS += test/plugin/after_inlining.py
test_plugin_inlined_O1_SOURCES = test/plugin/inlined.cpp
test_plugin_inlined_O1_CXXFLAGS = $(HT_INLINED_FLAGS) -O1
test_plugin_inlined_O1_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_inlined_O1_LDFLAGS = $(HT_TEST_LINK)
test_plugin_inlined_O2_SOURCES = test/plugin/inlined.cpp
test_plugin_inlined_O2_CXXFLAGS = $(HT_INLINED_FLAGS) -O2
test_plugin_inlined_O2_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_inlined_O2_LDFLAGS = $(HT_TEST_LINK)
test_plugin_inlined_O3_SOURCES = test/plugin/inlined.cpp
test_plugin_inlined_O3_CXXFLAGS = $(HT_INLINED_FLAGS) -O3
test_plugin_inlined_O3_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_inlined_O3_LDFLAGS = $(HT_TEST_LINK)
test_plugin_inlined_lto_SOURCES = test/plugin/inlined.cpp
test_plugin_inlined_lto_CXXFLAGS = $(HT_INLINED_FLAGS) -O2 -flto
test_plugin_inlined_lto_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_inlined_lto_LDFLAGS = $(HT_TEST_LINK) -O2 -flto -finstrument-functions $(HT_PLUGIN_FLAGS)
test_plugin_inlined_omp_SOURCES = test/plugin/inlined.cpp
test_plugin_inlined_omp_CXXFLAGS = $(HT_INLINED_FLAGS) -O2 $(OPENMP_CFLAGS)
test_plugin_inlined_omp_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_inlined_omp_LDFLAGS = $(HT_TEST_LINK) $(OPENMP_CFLAGS)
test_plugin_inlined_remove_SOURCES = test/plugin/inlined.cpp
test_plugin_inlined_remove_CXXFLAGS = $(HT_INLINED_FLAGS) -O2 -fplugin-arg-hooktrace_gcc-inlined-hooks=remove
test_plugin_inlined_remove_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_inlined_remove_LDFLAGS = $(HT_TEST_LINK)
test_plugin_inlined_keep_SOURCES = test/plugin/inlined.cpp
test_plugin_inlined_keep_CXXFLAGS = $(HT_INLINED_FLAGS) -O2 -fplugin-arg-hooktrace_gcc-inlined-hooks=keep
test_plugin_inlined_keep_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_inlined_keep_LDFLAGS = $(HT_TEST_LINK)
test_plugin_inlined_keeploops_SOURCES = test/plugin/inlined.cpp
test_plugin_inlined_keeploops_CXXFLAGS = $(HT_INLINED_FLAGS) -O2 -fplugin-arg-hooktrace_gcc-inlined-hooks=keep-loops
test_plugin_inlined_keeploops_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_inlined_keeploops_LDFLAGS = $(HT_TEST_LINK)
# The program as written (test/plugin/lulesh_shape.py): a LULESH-shaped
# MPI + OpenMP code with the default rule at each level, under -flto, and
# without OpenMP; the reference without hooktrace.
HT_LULESH_BINS = test/plugin/lulesh_shape_O1 test/plugin/lulesh_shape_O2 test/plugin/lulesh_shape_O3 \
	test/plugin/lulesh_shape_lto test/plugin/lulesh_shape_serial test/plugin/lulesh_shape_keeploops
check_PROGRAMS += $(HT_LULESH_BINS) test/plugin/lulesh_shape_plain
TESTS += test/plugin/lulesh_shape.py
test_plugin_lulesh_shape_O1_SOURCES = test/plugin/lulesh_shape_O1.cpp
test_plugin_lulesh_shape_O1_CXXFLAGS = $(HT_INLINED_FLAGS) -O1 $(OPENMP_CFLAGS)
test_plugin_lulesh_shape_O1_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_lulesh_shape_O1_LDFLAGS = $(HT_TEST_LINK) $(OPENMP_CFLAGS)
test_plugin_lulesh_shape_O2_SOURCES = test/plugin/lulesh_shape.cpp
test_plugin_lulesh_shape_O2_CXXFLAGS = $(HT_INLINED_FLAGS) -O2 $(OPENMP_CFLAGS)
test_plugin_lulesh_shape_O2_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_lulesh_shape_O2_LDFLAGS = $(HT_TEST_LINK) $(OPENMP_CFLAGS)
test_plugin_lulesh_shape_O3_SOURCES = test/plugin/lulesh_shape_O3.cpp
test_plugin_lulesh_shape_O3_CXXFLAGS = $(HT_INLINED_FLAGS) -O3 $(OPENMP_CFLAGS)
test_plugin_lulesh_shape_O3_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_lulesh_shape_O3_LDFLAGS = $(HT_TEST_LINK) $(OPENMP_CFLAGS)
test_plugin_lulesh_shape_lto_SOURCES = test/plugin/lulesh_shape.cpp
test_plugin_lulesh_shape_lto_CXXFLAGS = $(HT_INLINED_FLAGS) -O2 -flto $(OPENMP_CFLAGS)
test_plugin_lulesh_shape_lto_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_lulesh_shape_lto_LDFLAGS = $(HT_TEST_LINK) -O2 -flto -finstrument-functions $(HT_PLUGIN_FLAGS) \
	$(OPENMP_CFLAGS)
test_plugin_lulesh_shape_serial_SOURCES = test/plugin/lulesh_shape.cpp
test_plugin_lulesh_shape_serial_CXXFLAGS = $(HT_INLINED_FLAGS) -O2 -Wno-unknown-pragmas
test_plugin_lulesh_shape_serial_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_lulesh_shape_serial_LDFLAGS = $(HT_TEST_LINK)
test_plugin_lulesh_shape_keeploops_SOURCES = test/plugin/lulesh_shape.cpp
test_plugin_lulesh_shape_keeploops_CXXFLAGS = $(HT_INLINED_FLAGS) -O2 $(OPENMP_CFLAGS) \
	-fplugin-arg-hooktrace_gcc-inlined-hooks=keep-loops
test_plugin_lulesh_shape_keeploops_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_lulesh_shape_keeploops_LDFLAGS = $(HT_TEST_LINK) $(OPENMP_CFLAGS)
test_plugin_lulesh_shape_plain_SOURCES = test/plugin/lulesh_shape.cpp
test_plugin_lulesh_shape_plain_CXXFLAGS = $(MPI_CFLAGS) -O2 -g $(HT_WARN_CFLAGS) $(OPENMP_CFLAGS)
test_plugin_lulesh_shape_plain_LDADD = $(MPI_LIBS)
test_plugin_lulesh_shape_plain_LDFLAGS = $(OPENMP_CFLAGS)
test/plugin/lulesh_shape_O1-lulesh_shape_O1.$(OBJEXT) test/plugin/lulesh_shape_O2-lulesh_shape.$(OBJEXT) \
test/plugin/lulesh_shape_O3-lulesh_shape_O3.$(OBJEXT) test/plugin/lulesh_shape_lto-lulesh_shape.$(OBJEXT) \
test/plugin/lulesh_shape_serial-lulesh_shape.$(OBJEXT) test/plugin/lulesh_shape_keeploops-lulesh_shape.$(OBJEXT) \
$(HT_LULESH_BINS): hooktrace_gcc.so
test_plugin_inlined_plain_SOURCES = test/plugin/inlined.cpp
test_plugin_inlined_plain_CXXFLAGS = $(MPI_CFLAGS) -O2 -g $(HT_WARN_CFLAGS)
test_plugin_inlined_plain_LDADD = $(MPI_LIBS)
test/plugin/inlined_O1-inlined.$(OBJEXT) test/plugin/inlined_O2-inlined.$(OBJEXT) \
test/plugin/inlined_O3-inlined.$(OBJEXT) test/plugin/inlined_lto-inlined.$(OBJEXT) \
test/plugin/inlined_omp-inlined.$(OBJEXT) test/plugin/inlined_remove-inlined.$(OBJEXT) \
test/plugin/inlined_keep-inlined.$(OBJEXT) test/plugin/inlined_keeploops-inlined.$(OBJEXT) \
$(HT_INLINED_BINS): hooktrace_gcc.so
# C++ as written, at each optimisation level (test/plugin/containers.py;
# -O1 and -O3 by a pragma, as tiny_O0, so that CI's CXXFLAGS cannot win).
# The first rule alone: the inlined copies of the kept functions keep their
# hooks, so that what is recorded below them does not depend on what GCC
# chose to inline (the second rule is after_inlining.py's).
HT_CONTAINERS_CXXFLAGS = -g -finstrument-functions $(HT_WARN_CFLAGS) $(HT_PLUGIN_FLAGS) \
	-fplugin-arg-hooktrace_gcc-max-statements=16 -fplugin-arg-hooktrace_gcc-inlined-hooks=keep
check_PROGRAMS += test/plugin/containers_O1 test/plugin/containers_O2 test/plugin/containers_O3 \
	test/plugin/containers_all
TESTS += test/plugin/containers.py
test_plugin_containers_O1_SOURCES = test/plugin/containers_O1.cpp
test_plugin_containers_O1_CXXFLAGS = -O1 $(HT_CONTAINERS_CXXFLAGS)
test_plugin_containers_O1_LDADD = libhooktrace.la
test_plugin_containers_O1_LDFLAGS = $(HT_TEST_LINK)
test_plugin_containers_O2_SOURCES = test/plugin/containers.cpp
test_plugin_containers_O2_CXXFLAGS = -O2 $(HT_CONTAINERS_CXXFLAGS)
test_plugin_containers_O2_LDADD = libhooktrace.la
test_plugin_containers_O2_LDFLAGS = $(HT_TEST_LINK)
test_plugin_containers_O3_SOURCES = test/plugin/containers_O3.cpp
test_plugin_containers_O3_CXXFLAGS = -O3 $(HT_CONTAINERS_CXXFLAGS)
test_plugin_containers_O3_LDADD = libhooktrace.la
test_plugin_containers_O3_LDFLAGS = $(HT_TEST_LINK)
# The control: every hook kept.
test_plugin_containers_all_SOURCES = test/plugin/containers.cpp
test_plugin_containers_all_CXXFLAGS = -O2 $(HT_CONTAINERS_CXXFLAGS) -fplugin-arg-hooktrace_gcc-max-statements=0
test_plugin_containers_all_LDADD = libhooktrace.la
test_plugin_containers_all_LDFLAGS = $(HT_TEST_LINK)
test/plugin/containers_O1-containers_O1.$(OBJEXT) test/plugin/containers_O2-containers.$(OBJEXT) \
test/plugin/containers_O3-containers_O3.$(OBJEXT) test/plugin/containers_all-containers.$(OBJEXT): hooktrace_gcc.so

# Exact exclusions (test/plugin/exclude.py): the same program built with the
# plugin (keeping every hook, so that throttling has work), without it, and
# with the plugin and the names a run of the first writes.
HT_NAMES_CXXFLAGS = -O2 -g -finstrument-functions $(HT_WARN_CFLAGS)
HT_NAMES_PLUGIN_KEEP = -fplugin-arg-hooktrace_gcc-max-statements=0 -fplugin-arg-hooktrace_gcc-inlined-hooks=keep
check_PROGRAMS += test/plugin/names_plugin test/plugin/names_plain test/plugin/names_excluded
TESTS += test/plugin/exclude.py
test_plugin_names_plugin_SOURCES = test/plugin/throttle_names.cpp
test_plugin_names_plugin_CXXFLAGS = $(HT_NAMES_CXXFLAGS) $(HT_PLUGIN_FLAGS) $(HT_NAMES_PLUGIN_KEEP)
test_plugin_names_plugin_LDADD = libhooktrace.la
test_plugin_names_plugin_LDFLAGS = $(HT_TEST_LINK)
test_plugin_names_plain_SOURCES = test/plugin/throttle_names.cpp
test_plugin_names_plain_CXXFLAGS = $(HT_NAMES_CXXFLAGS)
test_plugin_names_plain_LDADD = libhooktrace.la
test_plugin_names_plain_LDFLAGS = $(HT_TEST_LINK)
test_plugin_names_excluded_SOURCES = test/plugin/throttle_names.cpp
test_plugin_names_excluded_CXXFLAGS = $(HT_NAMES_CXXFLAGS) $(HT_PLUGIN_FLAGS) $(HT_NAMES_PLUGIN_KEEP) \
	-fplugin-arg-hooktrace_gcc-exclude-file=$(abs_top_srcdir)/test/plugin/throttle_names.exclude
test_plugin_names_excluded_LDADD = libhooktrace.la
test_plugin_names_excluded_LDFLAGS = $(HT_TEST_LINK)
test/plugin/names_plugin-throttle_names.$(OBJEXT): hooktrace_gcc.so
test/plugin/names_excluded-throttle_names.$(OBJEXT): hooktrace_gcc.so $(srcdir)/test/plugin/throttle_names.exclude

# The application shapes of bench/ (bench/shapes_cost.py), small, with the
# plugin and without hooktrace: test/plugin/shapes.py compares their
# checksums and counts.
EXTRA_DIST += test/plugin/shapes.py
check_PROGRAMS += test/plugin/shape_helpers test/plugin/shape_helpers_plain \
	test/plugin/shape_fem test/plugin/shape_fem_plain \
	test/plugin/shape_lulesh test/plugin/shape_lulesh_plain
TESTS += test/plugin/shapes.py
HT_SHAPE_CXXFLAGS = -O2 -g $(HT_WARN_CFLAGS)
test_plugin_shape_helpers_SOURCES = bench/elem_helpers.cpp
test_plugin_shape_helpers_CXXFLAGS = $(HT_SHAPE_CXXFLAGS) -finstrument-functions $(HT_PLUGIN_FLAGS)
test_plugin_shape_helpers_LDADD = libhooktrace.la
test_plugin_shape_helpers_LDFLAGS = $(HT_TEST_LINK)
test_plugin_shape_helpers_plain_SOURCES = bench/elem_helpers.cpp
test_plugin_shape_helpers_plain_CXXFLAGS = $(HT_SHAPE_CXXFLAGS)
test_plugin_shape_fem_SOURCES = bench/fem_proxy.cpp
test_plugin_shape_fem_CXXFLAGS = $(HT_PLUGIN_TEST_CXXFLAGS) $(HT_PLUGIN_FLAGS)
test_plugin_shape_fem_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_shape_fem_LDFLAGS = $(HT_TEST_LINK)
test_plugin_shape_fem_plain_SOURCES = bench/fem_proxy.cpp
test_plugin_shape_fem_plain_CXXFLAGS = $(MPI_CFLAGS) $(HT_SHAPE_CXXFLAGS)
test_plugin_shape_fem_plain_LDADD = $(MPI_LIBS)
test_plugin_shape_lulesh_SOURCES = bench/lulesh_mpi.cpp
test_plugin_shape_lulesh_CXXFLAGS = $(HT_PLUGIN_TEST_CXXFLAGS) $(HT_PLUGIN_FLAGS) $(OPENMP_CFLAGS)
test_plugin_shape_lulesh_LDADD = $(HT_MPI_TEST_LDADD)
test_plugin_shape_lulesh_LDFLAGS = $(HT_TEST_LINK) $(OPENMP_CFLAGS)
test_plugin_shape_lulesh_plain_SOURCES = bench/lulesh_mpi.cpp
test_plugin_shape_lulesh_plain_CXXFLAGS = $(MPI_CFLAGS) $(HT_SHAPE_CXXFLAGS) $(OPENMP_CFLAGS)
test_plugin_shape_lulesh_plain_LDADD = $(MPI_LIBS)
test_plugin_shape_lulesh_plain_LDFLAGS = $(OPENMP_CFLAGS)
bench/test_plugin_shape_helpers-elem_helpers.$(OBJEXT) bench/test_plugin_shape_fem-fem_proxy.$(OBJEXT) \
	bench/test_plugin_shape_lulesh-lulesh_mpi.$(OBJEXT): hooktrace_gcc.so

if HAVE_FORTRAN
check_PROGRAMS += test/plugin/tiny_module
test_plugin_tiny_module_SOURCES = test/plugin/tiny_module.f90
test_plugin_tiny_module_FCFLAGS = -O2 -g -finstrument-functions $(HT_PLUGIN_FLAGS)
test_plugin_tiny_module_LDADD = libhooktrace.la
test_plugin_tiny_module_LDFLAGS = $(HT_TEST_LINK)
test/plugin/tiny_module-tiny_module.$(OBJEXT): hooktrace_gcc.so
endif
endif

# Hooks the inliner does not see (test/plugin/medium.py): a medium static
# helper called once, inlined by the plain build at -O2 (a pragma), must be
# inlined by the default plugin build too.
check_PROGRAMS += test/plugin/medium_plugin test/plugin/medium_plain
TESTS += test/plugin/medium.py
test_plugin_medium_plugin_SOURCES = test/plugin/medium.cpp
test_plugin_medium_plugin_CXXFLAGS = -O2 -g -finstrument-functions $(HT_WARN_CFLAGS) $(HT_PLUGIN_FLAGS)
test_plugin_medium_plugin_LDADD = libhooktrace.la
test_plugin_medium_plugin_LDFLAGS = $(HT_TEST_LINK)
test_plugin_medium_plain_SOURCES = test/plugin/medium.cpp
test_plugin_medium_plain_CXXFLAGS = -O2 -g $(HT_WARN_CFLAGS)
if HT_GCC_PLUGIN
test/plugin/medium_plugin-medium.$(OBJEXT): hooktrace_gcc.so
endif

# A counted copy inside a copy that throttling stops
# (test/plugin/throttled_scope.py): its counts stop with it, and land
# nowhere else.
check_PROGRAMS += test/plugin/throttled_scope
TESTS += test/plugin/throttled_scope.py
test_plugin_throttled_scope_SOURCES = test/plugin/throttled_scope.cpp
test_plugin_throttled_scope_CXXFLAGS = -O2 -g -finstrument-functions $(HT_WARN_CFLAGS) $(HT_PLUGIN_FLAGS)
test_plugin_throttled_scope_LDADD = libhooktrace.la
test_plugin_throttled_scope_LDFLAGS = $(HT_TEST_LINK)
if HT_GCC_PLUGIN
test/plugin/throttled_scope-throttled_scope.$(OBJEXT): hooktrace_gcc.so
endif

# The LLVM plugin (test/plugin/clang_lulesh.py, docs/clang.md): a
# LULESH-shaped program built by the test itself through `hooktrace
# clang++`, as a user would, at each level, and with MPI through `hooktrace
# mpicxx` over clang++ (clang_lulesh_mpi.py); skipped without clang++,
# libomp or the plugin.
EXTRA_DIST += test/plugin/clang_lulesh.py test/plugin/clang_lulesh_mpi.py test/plugin/clang_lulesh.cpp
TESTS += test/plugin/clang_lulesh.py test/plugin/clang_lulesh_mpi.py
