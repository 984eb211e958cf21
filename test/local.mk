# Unit tests of the hot-path modules (the symbols and config modules keep
# theirs in their own local.mk).
check_PROGRAMS += test/unit/callstack_tree test/unit/callstack_profile test/unit/clock_ticks \
	test/unit/throttle_exclude test/unit/throttle_insn test/unit/throttle_rule test/unit/short_name
TESTS += test/unit/callstack_tree test/unit/callstack_profile test/unit/clock_ticks \
	test/unit/throttle_exclude test/unit/throttle_insn test/unit/throttle_rule test/unit/short_name
EXTRA_DIST += test/unit/check.h

test_unit_callstack_tree_SOURCES = test/unit/callstack_tree.c
test_unit_callstack_tree_LDADD = libht_callstack.la
test_unit_callstack_profile_SOURCES = test/unit/callstack_profile.c
test_unit_callstack_profile_LDADD = libht_callstack.la
test_unit_clock_ticks_SOURCES = test/unit/clock_ticks.c src/common/clock.c
test_unit_throttle_exclude_SOURCES = test/unit/throttle_exclude.c src/output/throttle.c
test_unit_throttle_exclude_CPPFLAGS = $(HT_LIB_CPPFLAGS)
test_unit_short_name_SOURCES = test/unit/short_name.c src/output/short_name.c
test_unit_short_name_CPPFLAGS = $(HT_LIB_CPPFLAGS)
test_unit_throttle_insn_SOURCES = test/unit/throttle_insn.c src/throttle/insn.c
test_unit_throttle_insn_CPPFLAGS = $(HT_LIB_CPPFLAGS)
test_unit_throttle_rule_SOURCES = test/unit/throttle_rule.c src/throttle/rule.c
test_unit_throttle_rule_CPPFLAGS = $(HT_LIB_CPPFLAGS)

# Integration tests: instrumented programs (built like a user would build
# them: -finstrument-functions, linked with libhooktrace) run by Python
# scripts that assert exact figures from the JSON profile.  -no-install links
# the uninstalled library by rpath, so the programs run without a libtool
# wrapper and the profile carries their own names.  --no-as-needed: the
# MPI libraries named after libhooktrace stay, although libhooktrace's
# wrappers define every MPI routine a program calls (libhooktrace itself
# needs no MPI library: docs/compile.md, "A library without MPI dependency").
HT_TEST_CFLAGS = -g -finstrument-functions $(HT_WARN_CFLAGS)
HT_TEST_LINK = -no-install -Wl,--no-as-needed

check_PROGRAMS += test/programs/basic test/programs/basic_plain test/programs/recursion \
	test/programs/threads test/programs/openmp test/programs/openmp_regions \
	test/programs/sharedlib_main \
	test/programs/exit_deep test/programs/longjmp test/programs/cxx_names \
	test/programs/late_thread test/programs/throttle test/programs/throttle_code \
	test/programs/deep_recursion test/programs/many_threads test/programs/many_threads_plain test/programs/lifecycle
check_LTLIBRARIES += test/programs/libsharedfix.la

test_programs_basic_SOURCES = test/programs/basic.c
test_programs_basic_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_basic_LDADD = libhooktrace.la
test_programs_basic_LDFLAGS = $(HT_TEST_LINK)
# The same program without hooktrace: the reference output.
test_programs_basic_plain_SOURCES = test/programs/basic.c
test_programs_basic_plain_CFLAGS = -g $(HT_WARN_CFLAGS)
# Instrumented, with libc BEFORE libhooktrace in the lookup order: the hooks
# bind to glibc's empty ones (test/integration/hook_binding.py).
# --no-as-needed keeps libhooktrace loaded although nothing binds to it.
check_PROGRAMS += test/programs/basic_hooks_elsewhere
test_programs_basic_hooks_elsewhere_SOURCES = test/programs/basic.c
test_programs_basic_hooks_elsewhere_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_basic_hooks_elsewhere_LDADD = -lc libhooktrace.la
test_programs_basic_hooks_elsewhere_LDFLAGS = $(HT_TEST_LINK) -Wl,--no-as-needed
test_programs_recursion_SOURCES = test/programs/recursion.c
test_programs_recursion_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_recursion_LDADD = libhooktrace.la
test_programs_recursion_LDFLAGS = $(HT_TEST_LINK)
test_programs_deep_recursion_SOURCES = test/programs/deep_recursion.c
test_programs_deep_recursion_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_deep_recursion_LDADD = libhooktrace.la
test_programs_deep_recursion_LDFLAGS = $(HT_TEST_LINK)
test_programs_many_threads_SOURCES = test/programs/many_threads.c
test_programs_many_threads_CFLAGS = $(HT_TEST_CFLAGS) -pthread
test_programs_many_threads_LDADD = libhooktrace.la
test_programs_many_threads_LDFLAGS = $(HT_TEST_LINK) -pthread
test_programs_many_threads_plain_SOURCES = test/programs/many_threads.c
test_programs_many_threads_plain_CFLAGS = -g $(HT_WARN_CFLAGS) -pthread
test_programs_many_threads_plain_LDFLAGS = -pthread
test_programs_threads_SOURCES = test/programs/threads.c
test_programs_threads_CFLAGS = $(HT_TEST_CFLAGS) -pthread
test_programs_threads_LDADD = libhooktrace.la
test_programs_threads_LDFLAGS = $(HT_TEST_LINK) -pthread
test_programs_openmp_SOURCES = test/programs/openmp.c
test_programs_openmp_CFLAGS = $(HT_TEST_CFLAGS) $(OPENMP_CFLAGS)
test_programs_openmp_LDADD = libhooktrace.la
test_programs_openmp_LDFLAGS = $(HT_TEST_LINK) $(OPENMP_CFLAGS)
test_programs_openmp_regions_SOURCES = test/programs/openmp_regions.c
test_programs_openmp_regions_CFLAGS = $(HT_TEST_CFLAGS) $(OPENMP_CFLAGS)
test_programs_openmp_regions_LDADD = libhooktrace.la
test_programs_openmp_regions_LDFLAGS = $(HT_TEST_LINK) $(OPENMP_CFLAGS)
test_programs_libsharedfix_la_SOURCES = test/programs/sharedlib_lib.c
test_programs_libsharedfix_la_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_libsharedfix_la_LDFLAGS = -rpath /nowhere -avoid-version
test_programs_sharedlib_main_SOURCES = test/programs/sharedlib_main.c
test_programs_sharedlib_main_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_sharedlib_main_LDADD = test/programs/libsharedfix.la libhooktrace.la
test_programs_sharedlib_main_LDFLAGS = $(HT_TEST_LINK)
test_programs_exit_deep_SOURCES = test/programs/exit_deep.c
test_programs_exit_deep_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_exit_deep_LDADD = libhooktrace.la
test_programs_exit_deep_LDFLAGS = $(HT_TEST_LINK)
test_programs_longjmp_SOURCES = test/programs/longjmp.c
test_programs_longjmp_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_longjmp_LDADD = libhooktrace.la
test_programs_longjmp_LDFLAGS = $(HT_TEST_LINK)
test_programs_lifecycle_SOURCES = test/programs/lifecycle.c
test_programs_lifecycle_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_lifecycle_LDADD = libhooktrace.la
test_programs_lifecycle_LDFLAGS = $(HT_TEST_LINK)
# Signal-handling idioms, instrumented and plain (test/integration/signals_diff.py).
check_PROGRAMS += test/programs/signals_idioms test/programs/signals_idioms_plain
test_programs_signals_idioms_SOURCES = test/programs/signals_idioms.c
test_programs_signals_idioms_CFLAGS = $(HT_TEST_CFLAGS) -pthread
test_programs_signals_idioms_LDADD = libhooktrace.la
test_programs_signals_idioms_LDFLAGS = $(HT_TEST_LINK) -pthread
test_programs_signals_idioms_plain_SOURCES = test/programs/signals_idioms.c
test_programs_signals_idioms_plain_CFLAGS = -g $(HT_WARN_CFLAGS) -pthread
test_programs_signals_idioms_plain_LDFLAGS = -pthread
test_programs_late_thread_SOURCES = test/programs/late_thread.c
test_programs_late_thread_CFLAGS = $(HT_TEST_CFLAGS) -pthread
test_programs_late_thread_LDADD = libhooktrace.la
test_programs_late_thread_LDFLAGS = $(HT_TEST_LINK) -pthread
test_programs_throttle_SOURCES = test/programs/throttle.c
test_programs_throttle_CFLAGS = $(HT_TEST_CFLAGS) -pthread $(OPENMP_CFLAGS)
test_programs_throttle_LDADD = test/programs/libsharedfix.la libhooktrace.la
test_programs_throttle_LDFLAGS = $(HT_TEST_LINK) -pthread $(OPENMP_CFLAGS)
# Throttling by cost (test/integration/throttle_cost.py).
check_PROGRAMS += test/programs/throttle_cost
test_programs_throttle_cost_SOURCES = test/programs/throttle_cost.c
test_programs_throttle_cost_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_throttle_cost_LDADD = libhooktrace.la
test_programs_throttle_cost_LDFLAGS = $(HT_TEST_LINK)
test_programs_throttle_code_SOURCES = test/programs/throttle_code.c
test_programs_throttle_code_CFLAGS = $(HT_TEST_CFLAGS) -pthread
test_programs_throttle_code_LDADD = libhooktrace.la -ldl
test_programs_throttle_code_LDFLAGS = $(HT_TEST_LINK) -pthread
# Functions excluded by the config (test/integration/filter.py).
check_PROGRAMS += test/programs/filter
test_programs_filter_SOURCES = test/programs/filter.cpp
test_programs_filter_CXXFLAGS = -g -finstrument-functions $(HT_WARN_CFLAGS)
test_programs_filter_LDADD = libhooktrace.la
test_programs_filter_LDFLAGS = $(HT_TEST_LINK)
test_programs_cxx_names_SOURCES = test/programs/cxx_names.cpp
test_programs_cxx_names_CXXFLAGS = -g -finstrument-functions $(HT_WARN_CFLAGS)
test_programs_cxx_names_LDADD = libhooktrace.la
test_programs_cxx_names_LDFLAGS = $(HT_TEST_LINK)
check_PROGRAMS += test/programs/regions_cxx
test_programs_regions_cxx_SOURCES = test/programs/regions_cxx.cpp
test_programs_regions_cxx_CXXFLAGS = -g -finstrument-functions $(HT_WARN_CFLAGS) -pthread
test_programs_regions_cxx_LDADD = libhooktrace.la
test_programs_regions_cxx_LDFLAGS = $(HT_TEST_LINK) -pthread
check_PROGRAMS += test/programs/cxx_long_names
test_programs_cxx_long_names_SOURCES = test/programs/cxx_long_names.cpp
test_programs_cxx_long_names_CXXFLAGS = -g -finstrument-functions $(HT_WARN_CFLAGS)
test_programs_cxx_long_names_LDADD = libhooktrace.la
test_programs_cxx_long_names_LDFLAGS = $(HT_TEST_LINK)
if HAVE_FORTRAN
check_PROGRAMS += test/programs/fortran_names
test_programs_fortran_names_SOURCES = test/programs/fortran_names.f90
test_programs_fortran_names_FCFLAGS = -g -finstrument-functions
test_programs_fortran_names_LDADD = libhooktrace.la
test_programs_fortran_names_LDFLAGS = $(HT_TEST_LINK)
# The main program by its own name (test/integration/fortran_main.py); its
# module goes to a folder of its own, away from the MPI build's.
check_PROGRAMS += test/programs/heat_demo
test_programs_heat_demo_SOURCES = test/programs/heat_demo.F90
test_programs_heat_demo_FCFLAGS = -g -finstrument-functions -Jtest/programs
test_programs_heat_demo_LDADD = libhooktrace.la
test_programs_heat_demo_LDFLAGS = $(HT_TEST_LINK)
TESTS += test/integration/fortran_main.py
# `program main` and a program without a `program` statement, both MAIN__
# in DWARF (fortran_main.py).
check_PROGRAMS += test/programs/program_main test/programs/program_unnamed
test_programs_program_main_SOURCES = test/programs/program_main.f90
test_programs_program_main_FCFLAGS = -g -finstrument-functions
test_programs_program_main_LDADD = libhooktrace.la
test_programs_program_main_LDFLAGS = $(HT_TEST_LINK)
test_programs_program_unnamed_SOURCES = test/programs/program_unnamed.f90
test_programs_program_unnamed_FCFLAGS = -g -finstrument-functions
test_programs_program_unnamed_LDADD = libhooktrace.la
test_programs_program_unnamed_LDFLAGS = $(HT_TEST_LINK)
check_PROGRAMS += test/programs/openmp_fortran
test_programs_openmp_fortran_SOURCES = test/programs/openmp_fortran.f90
test_programs_openmp_fortran_FCFLAGS = -g -finstrument-functions $(OPENMP_CFLAGS)
test_programs_openmp_fortran_LDADD = libhooktrace.la
test_programs_openmp_fortran_LDFLAGS = $(HT_TEST_LINK) $(OPENMP_CFLAGS)
endif
EXTRA_DIST += test/integration/fortran_main.py test/programs/heat_demo.F90 \
	test/programs/program_main.f90 test/programs/program_unnamed.f90
CLEANFILES += test/programs/*.mod

# A library dlopened, called and dlclosed before the profile is named
# (test/integration/dlclose.py; the MPI build is test/mpi/dlclose_mpi).
check_LTLIBRARIES += test/programs/libdlclosefix.la
test_programs_libdlclosefix_la_SOURCES = test/programs/dlclose_lib.c
test_programs_libdlclosefix_la_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_libdlclosefix_la_LDFLAGS = -rpath /nowhere -avoid-version
check_PROGRAMS += test/programs/dlclose_main
test_programs_dlclose_main_SOURCES = test/programs/dlclose_main.c
test_programs_dlclose_main_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_dlclose_main_LDADD = libhooktrace.la -ldl
test_programs_dlclose_main_LDFLAGS = $(HT_TEST_LINK)
# Excluded functions of a library loaded with dlopen
# (test/integration/filter_dlopen.py).
check_LTLIBRARIES += test/programs/libfilterdl.la
test_programs_libfilterdl_la_SOURCES = test/programs/filter_dlopen_lib.c
test_programs_libfilterdl_la_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_libfilterdl_la_LDFLAGS = -rpath /nowhere -avoid-version
check_PROGRAMS += test/programs/filter_dlopen_main
test_programs_filter_dlopen_main_SOURCES = test/programs/filter_dlopen_main.c
test_programs_filter_dlopen_main_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_filter_dlopen_main_LDADD = libhooktrace.la -ldl
test_programs_filter_dlopen_main_LDFLAGS = $(HT_TEST_LINK)

TESTS += test/integration/basic.py test/integration/no_otf2.py test/integration/recursion.py \
	test/integration/threads.py test/integration/sharedlib.py \
	test/integration/exit_paths.py test/integration/names.py test/integration/log_names.py \
	test/integration/metadata.py \
	test/integration/config_runtime.py test/integration/throttle.py \
	test/integration/throttle_code.py test/integration/throttle_cost.py \
	test/integration/filter.py test/integration/filter_dlopen.py \
	test/integration/dlclose.py test/integration/paths.py \
	test/integration/openmp.py \
	test/integration/deep_output.py test/integration/thread_groups.py \
	test/integration/config_input.py test/integration/config_patterns.py \
	test/integration/lifecycle.py test/integration/files_safety.py test/integration/other_formats.py \
	test/integration/hook_binding.py test/integration/report.py test/integration/report_tree.py \
	test/integration/page_width.py test/integration/report_screenshot.py \
	test/integration/signals_diff.py test/integration/compare.py test/integration/compare_runs.py \
	test/integration/regions.py
# Clang through the hooktrace command, compiled at test time (skipped
# without clang): test/integration/clang.py, clang_openmp.py.
TESTS += test/integration/clang.py test/integration/clang_openmp.py
EXTRA_DIST += test/integration/prefixlib.py test/programs/clang_inline.c test/programs/clang_inline.cpp \
	test/programs/clang_openmp.c
EXTRA_DIST += test/integration/htlib.py test/integration/formats_lib.py test/integration/omplib.py \
	test/integration/browser.py test/integration/pixels.py test/integration/comparelib.py $(filter %.py,$(TESTS))

# hooktrace-report --compare and --scaling (test/integration/compare.py): one
# program built twice, the second with one more function (other addresses
# and stack IDs, the same call paths).
check_PROGRAMS += test/programs/compare_work test/programs/compare_work_moved
test_programs_compare_work_SOURCES = test/programs/compare_work.c
test_programs_compare_work_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_compare_work_LDADD = libhooktrace.la
test_programs_compare_work_LDFLAGS = $(HT_TEST_LINK)
test_programs_compare_work_moved_SOURCES = test/programs/compare_work.c
test_programs_compare_work_moved_CFLAGS = $(HT_TEST_CFLAGS) -DHT_MOVED
test_programs_compare_work_moved_LDADD = libhooktrace.la
test_programs_compare_work_moved_LDFLAGS = $(HT_TEST_LINK)
# Several runs a side (test/integration/compare_runs.py): kernels whose
# times are set by the arguments.
check_PROGRAMS += test/programs/compare_noise
test_programs_compare_noise_SOURCES = test/programs/compare_noise.c
test_programs_compare_noise_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_compare_noise_LDADD = libhooktrace.la
test_programs_compare_noise_LDFLAGS = $(HT_TEST_LINK)

# Counters (test/integration/counters.py): a program with its own PAPI
# software-defined events, built where PAPI has the SDE library.
if HAVE_PAPI_SDE
check_PROGRAMS += test/programs/counters
test_programs_counters_SOURCES = test/programs/counters.c
test_programs_counters_CFLAGS = $(HT_TEST_CFLAGS) $(PAPI_CFLAGS) -pthread
test_programs_counters_LDADD = libhooktrace.la -lsde
test_programs_counters_LDFLAGS = $(HT_TEST_LINK) -pthread
endif
EXTRA_DIST += test/programs/counters.c
TESTS += test/integration/counters.py
# Every state of PAPI hooktrace handles, on any machine
# (test/integration/papi_states.py): a stand-in for libpapi whose state the
# test chooses (test/papi_stub/papi_stub.c), loaded in its place through
# LD_LIBRARY_PATH.
if HAVE_PAPI
check_LTLIBRARIES += test/papi_stub/libpapi_stub.la
test_papi_stub_libpapi_stub_la_SOURCES = test/papi_stub/papi_stub.c
test_papi_stub_libpapi_stub_la_CPPFLAGS = $(PAPI_CFLAGS)
test_papi_stub_libpapi_stub_la_CFLAGS = $(HT_WARN_CFLAGS) $(HT_NOINSTR_CFLAGS) -pthread
test_papi_stub_libpapi_stub_la_LDFLAGS = -rpath /nowhere -avoid-version -pthread
endif
EXTRA_DIST += test/papi_stub/papi_stub.c
TESTS += test/integration/papi_states.py
# The same throttled set with and without counters (counters_throttle.py).
check_PROGRAMS += test/programs/counters_throttle
test_programs_counters_throttle_SOURCES = test/programs/counters_throttle.c
test_programs_counters_throttle_CFLAGS = $(HT_TEST_CFLAGS)
test_programs_counters_throttle_LDADD = libhooktrace.la
test_programs_counters_throttle_LDFLAGS = $(HT_TEST_LINK)
TESTS += test/integration/counters_throttle.py

# Counted inlined copies in every output (test/integration/inlined_outputs.py,
# which skips without the GCC plugin): a helper the plugin counts, inlined
# into an OpenMP loop and into a serial loop.
if HT_GCC_PLUGIN
check_PROGRAMS += test/programs/inlined_counts
test_programs_inlined_counts_SOURCES = test/programs/inlined_counts.cpp
test_programs_inlined_counts_CXXFLAGS = -O2 $(HT_TEST_CFLAGS) $(HT_PLUGIN_FLAGS) $(OPENMP_CFLAGS)
test_programs_inlined_counts_LDADD = libhooktrace.la
test_programs_inlined_counts_LDFLAGS = $(HT_TEST_LINK) $(OPENMP_CFLAGS)
test/programs/inlined_counts-inlined_counts.$(OBJEXT): hooktrace_gcc.so
endif
EXTRA_DIST += test/programs/inlined_counts.cpp
TESTS += test/integration/inlined_outputs.py

# Trace mode (test/trace): the same kind of programs with "trace.enabled";
# the archives are read back with otf2-print.
check_PROGRAMS += test/programs/trace_calls
test_programs_trace_calls_SOURCES = test/programs/trace_calls.c
test_programs_trace_calls_CFLAGS = $(HT_TEST_CFLAGS) -pthread
test_programs_trace_calls_LDADD = libhooktrace.la
test_programs_trace_calls_LDFLAGS = $(HT_TEST_LINK) -pthread

# The layering of src/ (docs/architecture.md), from this build's objects.
TESTS += test/layers.sh
EXTRA_DIST += test/layers.sh scripts/layers.py
# libhooktrace needs no MPI library and refers to MPI weakly only.
TESTS += test/mpi_weak.sh
EXTRA_DIST += test/mpi_weak.sh

# Fuzz targets, their seeds and valid anchors (docs/fuzzing.md): built and
# run by scripts/fuzz.sh with clang's libFuzzer, not by `make check`.
EXTRA_DIST += test/fuzz
# Relative links and anchors of README.md, BENCHMARKS.md and docs/.
TESTS += test/docs/links.py
EXTRA_DIST += test/docs/links.py
# The lengths of README.md and the pages of docs/, the README's two commands
# near its top, and every page in the index docs/README.md (issue 39).
TESTS += test/docs/lengths.py
EXTRA_DIST += test/docs/lengths.py
# BENCHMARKS.md: at most 600 lines, its sections present.
TESTS += test/docs/benchmarks_length.py
EXTRA_DIST += test/docs/benchmarks_length.py
