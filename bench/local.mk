# bench: the hook-cost benchmark and the MPI benchmarks (see BENCHMARKS.md).
# Nothing here is built by `make` or `make check`; `make bench` builds the
# kernels and the hook libraries below and runs bench/hook_cost.py,
# bench/clock_cost and bench/node_memory; `make bench-mpi` (at the end of
# this file) builds and runs the MPI benchmarks, `make bench-coll` the
# collective bookkeeping against the number of ranks, `make bench-fortran` the
# Fortran-against-C MPI call cost, `make bench-apps` (at the very end) two
# application proxies and then `make bench-shapes`, three application shapes.
# Extra driver options: make bench BENCH_ARGS='--rounds 3 --calls 5000000'
#
# One kernel source, four builds:
#   hook_kernel_plain      without -finstrument-functions
#   hook_kernel_empty      hooks that return at once (bench/hooks_empty.c)
#   hook_kernel_rdtsc      hooks that read the TSC once each: the floor
#   hook_kernel_hooktrace  libhooktrace (also run with HOOKTRACE_OFF=1)
EXTRA_PROGRAMS = bench/hook_kernel_plain bench/hook_kernel_empty \
	bench/hook_kernel_rdtsc bench/hook_kernel_hooktrace bench/node_memory \
	bench/clock_cost
EXTRA_LTLIBRARIES = bench/libhtbench_empty.la bench/libhtbench_rdtsc.la

HT_BENCH_BINARIES = bench/hook_kernel_plain$(EXEEXT) bench/hook_kernel_empty$(EXEEXT) \
	bench/hook_kernel_rdtsc$(EXEEXT) bench/hook_kernel_hooktrace$(EXEEXT) \
	bench/node_memory$(EXEEXT) bench/clock_cost$(EXEEXT)
HT_BENCH_KERNEL_INSTR_FLAGS = $(AM_CFLAGS) -pthread -finstrument-functions
# -no-install: run the kernels from the build tree directly (no libtool
# wrapper script), with the uninstalled libraries found through the rpath.
HT_BENCH_KERNEL_LINK_FLAGS = -pthread -no-install

bench_hook_kernel_plain_SOURCES = bench/hook_kernel.c
bench_hook_kernel_plain_CPPFLAGS = $(AM_CPPFLAGS) -DHK_VARIANT='"uninstrumented"'
bench_hook_kernel_plain_CFLAGS = $(AM_CFLAGS) -pthread
bench_hook_kernel_plain_LDFLAGS = $(HT_BENCH_KERNEL_LINK_FLAGS)

bench_hook_kernel_empty_SOURCES = bench/hook_kernel.c
bench_hook_kernel_empty_CPPFLAGS = $(AM_CPPFLAGS) -DHK_VARIANT='"empty"'
bench_hook_kernel_empty_CFLAGS = $(HT_BENCH_KERNEL_INSTR_FLAGS)
bench_hook_kernel_empty_LDFLAGS = $(HT_BENCH_KERNEL_LINK_FLAGS)
bench_hook_kernel_empty_LDADD = bench/libhtbench_empty.la

bench_hook_kernel_rdtsc_SOURCES = bench/hook_kernel.c
bench_hook_kernel_rdtsc_CPPFLAGS = $(AM_CPPFLAGS) -DHK_VARIANT='"rdtsc"'
bench_hook_kernel_rdtsc_CFLAGS = $(HT_BENCH_KERNEL_INSTR_FLAGS)
bench_hook_kernel_rdtsc_LDFLAGS = $(HT_BENCH_KERNEL_LINK_FLAGS)
bench_hook_kernel_rdtsc_LDADD = bench/libhtbench_rdtsc.la

bench_hook_kernel_hooktrace_SOURCES = bench/hook_kernel.c
bench_hook_kernel_hooktrace_CPPFLAGS = $(AM_CPPFLAGS) -DHK_VARIANT='"hooktrace"'
bench_hook_kernel_hooktrace_CFLAGS = $(HT_BENCH_KERNEL_INSTR_FLAGS)
bench_hook_kernel_hooktrace_LDFLAGS = $(HT_BENCH_KERNEL_LINK_FLAGS)
bench_hook_kernel_hooktrace_LDADD = libhooktrace.la

# The comparison hook libraries are shared, like libhooktrace, so every
# variant reaches its hooks through the PLT.  -rpath makes libtool build
# them shared although they are never installed.
HT_BENCH_HOOKLIB_LINK_FLAGS = -rpath $(abs_builddir)/bench -avoid-version
bench_libhtbench_empty_la_SOURCES = bench/hooks_empty.c
bench_libhtbench_empty_la_CFLAGS = $(AM_CFLAGS) $(HT_NOINSTR_CFLAGS)
bench_libhtbench_empty_la_LDFLAGS = $(HT_BENCH_HOOKLIB_LINK_FLAGS)
bench_libhtbench_rdtsc_la_SOURCES = bench/hooks_rdtsc.c
bench_libhtbench_rdtsc_la_CFLAGS = $(AM_CFLAGS) $(HT_NOINSTR_CFLAGS)
bench_libhtbench_rdtsc_la_LDFLAGS = $(HT_BENCH_HOOKLIB_LINK_FLAGS)

# Memory per call-stack node, measured on the callstack module itself.
bench_node_memory_SOURCES = bench/node_memory.c
bench_node_memory_CFLAGS = $(HT_LIB_CFLAGS)
bench_node_memory_LDADD = libht_callstack.la

# The cost of one timestamp alone, for context.
bench_clock_cost_SOURCES = bench/clock_cost.c

EXTRA_DIST += bench/hook_cost.py bench/benchlib.py
CLEANFILES += $(HT_BENCH_BINARIES) bench/libhtbench_empty.la bench/libhtbench_rdtsc.la

BENCH_ARGS =
bench: $(HT_BENCH_BINARIES)
	$(PYTHON3) $(srcdir)/bench/hook_cost.py --builddir $(top_builddir) $(BENCH_ARGS)
	@echo
	$(top_builddir)/bench/clock_cost$(EXEEXT)
	@echo
	@echo '## Memory per call-stack node'
	@echo
	$(top_builddir)/bench/node_memory$(EXEEXT)
.PHONY: bench

# --- MPI benchmarks (see BENCHMARKS.md, "MPI wrappers") ----------------------
# `make bench-mpi` builds these and runs bench/mpi_cost.py, which runs them
# under $(MPIEXEC) with 2 ranks.  Extra driver options:
#   make bench-mpi BENCH_MPI_ARGS='--rounds 3 --only calls'
#
# One source for the per-call cost, three builds:
#   mpi_calls_plain          MPI only
#   mpi_calls_hooktrace      linked with libhooktrace, not instrumented
#   mpi_calls_instrumented   the same with -finstrument-functions (not timed
#                            by mpi_cost.py: bench/wrapper_instructions.sh
#                            counts its instructions per MPI call)
# and the hook cost with open requests (instrumented, libhooktrace):
#   open_requests
HT_BENCH_MPI_BINARIES = bench/mpi_calls_plain$(EXEEXT) bench/mpi_calls_hooktrace$(EXEEXT) \
	bench/mpi_calls_instrumented$(EXEEXT) bench/open_requests$(EXEEXT)
EXTRA_PROGRAMS += bench/mpi_calls_plain bench/mpi_calls_hooktrace \
	bench/mpi_calls_instrumented bench/open_requests
HT_BENCH_MPI_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CFLAGS)
# The MPI libraries named after libhooktrace stay under --as-needed
# (libhooktrace needs none of its own: docs/compile.md).
HT_BENCH_MPI_LINK = -no-install -Wl,--no-as-needed

bench_mpi_calls_plain_SOURCES = bench/mpi_calls.c
bench_mpi_calls_plain_CPPFLAGS = $(HT_BENCH_MPI_CPPFLAGS)
bench_mpi_calls_plain_LDFLAGS = -no-install
bench_mpi_calls_plain_LDADD = $(MPI_LIBS)

bench_mpi_calls_hooktrace_SOURCES = bench/mpi_calls.c
bench_mpi_calls_hooktrace_CPPFLAGS = $(HT_BENCH_MPI_CPPFLAGS)
bench_mpi_calls_hooktrace_LDFLAGS = $(HT_BENCH_MPI_LINK)
bench_mpi_calls_hooktrace_LDADD = libhooktrace.la $(MPI_LIBS)

bench_mpi_calls_instrumented_SOURCES = bench/mpi_calls.c
bench_mpi_calls_instrumented_CPPFLAGS = $(HT_BENCH_MPI_CPPFLAGS)
bench_mpi_calls_instrumented_CFLAGS = $(AM_CFLAGS) -finstrument-functions
bench_mpi_calls_instrumented_LDFLAGS = $(HT_BENCH_MPI_LINK)
bench_mpi_calls_instrumented_LDADD = libhooktrace.la $(MPI_LIBS)

bench_open_requests_SOURCES = bench/open_requests.c
bench_open_requests_CPPFLAGS = $(HT_BENCH_MPI_CPPFLAGS)
bench_open_requests_CFLAGS = $(AM_CFLAGS) -finstrument-functions
bench_open_requests_LDFLAGS = $(HT_BENCH_MPI_LINK)
bench_open_requests_LDADD = libhooktrace.la $(MPI_LIBS)

EXTRA_DIST += bench/mpi_cost.py bench/wrapper_instructions.sh
CLEANFILES += $(HT_BENCH_MPI_BINARIES)

BENCH_MPI_ARGS =
bench-mpi: $(HT_BENCH_MPI_BINARIES)
	$(PYTHON3) $(srcdir)/bench/mpi_cost.py --builddir $(top_builddir) \
	  --mpiexec '$(MPIEXEC)' $(BENCH_MPI_ARGS)
.PHONY: bench-mpi

# Instructions added per MPI_Allreduce at 2 to 16 ranks (callgrind; slow:
# every rank runs under valgrind).  BENCH_COLL_ARGS='--ranks 2,4 -n 500'
BENCH_COLL_ARGS =
bench-coll: bench/mpi_calls_hooktrace$(EXEEXT)
	$(PYTHON3) $(srcdir)/bench/coll_cost.py --builddir $(top_builddir) \
	  --mpiexec '$(MPIEXEC)' $(BENCH_COLL_ARGS)
.PHONY: bench-coll

# Instructions the wrappers add per 8-byte MPI_Sendrecv + MPI_Allreduce on
# MPI_COMM_WORLD, MPI_COMM_SELF, a split and a Cartesian communicator (one
# rank, callgrind; bench/comm_cost.py).  BENCH_COMM_ARGS='-n 500'
EXTRA_PROGRAMS += bench/comm_calls_plain bench/comm_calls_hooktrace
bench_comm_calls_plain_SOURCES = bench/comm_calls.c
bench_comm_calls_plain_CPPFLAGS = $(HT_BENCH_MPI_CPPFLAGS)
bench_comm_calls_plain_LDFLAGS = -no-install
bench_comm_calls_plain_LDADD = $(MPI_LIBS)
bench_comm_calls_hooktrace_SOURCES = bench/comm_calls.c
bench_comm_calls_hooktrace_CPPFLAGS = $(HT_BENCH_MPI_CPPFLAGS)
bench_comm_calls_hooktrace_LDFLAGS = $(HT_BENCH_MPI_LINK)
bench_comm_calls_hooktrace_LDADD = libhooktrace.la $(MPI_LIBS)
CLEANFILES += bench/comm_calls_plain$(EXEEXT) bench/comm_calls_hooktrace$(EXEEXT)
EXTRA_DIST += bench/comm_cost.py
BENCH_COMM_ARGS =
bench-comm: bench/comm_calls_plain$(EXEEXT) bench/comm_calls_hooktrace$(EXEEXT)
	$(PYTHON3) $(srcdir)/bench/comm_cost.py --builddir $(top_builddir) \
	  --mpiexec '$(MPIEXEC)' $(BENCH_COMM_ARGS)
.PHONY: bench-comm
EXTRA_DIST += bench/coll_cost.py bench/merge_model.py bench/stacks_cost.py bench/threads_memory.py \
	bench/compare_cost.py

# --- OpenMP: what the libgomp wrappers add per region and per task ---------
# `make bench-openmp` builds bench/omp_regions.c without hooktrace and with
# it, and runs bench/omp_cost.py (see BENCHMARKS.md).  Extra driver options:
#   make bench-openmp BENCH_OPENMP_ARGS='--rounds 3 --callgrind'
EXTRA_PROGRAMS += bench/omp_regions_plain bench/omp_regions_hooktrace
bench_omp_regions_plain_SOURCES = bench/omp_regions.c
bench_omp_regions_plain_CFLAGS = $(AM_CFLAGS) $(OPENMP_CFLAGS)
bench_omp_regions_plain_LDFLAGS = -no-install $(OPENMP_CFLAGS)
bench_omp_regions_hooktrace_SOURCES = bench/omp_regions.c
bench_omp_regions_hooktrace_CFLAGS = $(AM_CFLAGS) $(OPENMP_CFLAGS) -finstrument-functions
bench_omp_regions_hooktrace_LDFLAGS = -no-install $(OPENMP_CFLAGS)
bench_omp_regions_hooktrace_LDADD = libhooktrace.la
EXTRA_DIST += bench/omp_cost.py
bench-openmp: bench/omp_regions_plain$(EXEEXT) bench/omp_regions_hooktrace$(EXEEXT)
	$(PYTHON3) $(srcdir)/bench/omp_cost.py --builddir $(top_builddir) $(BENCH_OPENMP_ARGS)
.PHONY: bench-openmp

# The GCC plugin's second rule (docs/plugin.md): medium helpers inlined into
# element loops, built with the plugin's three inlined-hooks modes and with
# clang's -finstrument-functions-after-inlining (bench/inlined_cost.py
# compiles them itself).  Extra driver options:
#   make bench-inlined BENCH_INLINED_ARGS='--rounds 11 --steps 300'
EXTRA_DIST += bench/inlined_cost.py bench/inlined_helpers.cpp
if HT_GCC_PLUGIN
bench-inlined: libhooktrace.la hooktrace_gcc.so
	$(PYTHON3) $(srcdir)/bench/inlined_cost.py --builddir $(top_builddir) $(BENCH_INLINED_ARGS)
endif
# Outside the conditional: automake warns of a .PHONY defined in two conditions.
.PHONY: bench-inlined

# Memory, output size and time at exit with 111,111 call stacks.
bench-stacks: libhooktrace.la
	$(PYTHON3) $(srcdir)/bench/stacks_cost.py --builddir $(top_builddir) $(BENCH_STACKS_ARGS)
.PHONY: bench-stacks

# hooktrace-report --compare and --scaling on two profiles of 111,111 stacks.
bench-compare: hooktrace-report
	$(PYTHON3) $(srcdir)/bench/compare_cost.py --builddir $(top_builddir) $(BENCH_COMPARE_ARGS)
.PHONY: bench-compare

# --compare --fail-above 1.2 on real noise (issue 38): bench/gate_app.c on 4
# ranks, three runs of one build against three more, and kernel_b given
# twice the work.  Options: BENCH_GATE_ARGS='--experiments 5'
EXTRA_DIST += bench/compare_gate.py bench/gate_app.c
bench-gate: libhooktrace.la hooktrace-report
	$(PYTHON3) $(srcdir)/bench/compare_gate.py --builddir $(top_builddir) \
	  --mpiexec '$(MPIEXEC)' --mpicc '$(MPICC)' $(BENCH_GATE_ARGS)
.PHONY: bench-gate

# --- Fortran against C: added cost per MPI call (see BENCHMARKS.md) ----------
# `make bench-fortran` builds these and runs bench/fortran_cost.py, which
# runs them under $(MPIEXEC) with 1 rank.  Extra driver options:
#   make bench-fortran BENCH_FORTRAN_ARGS='--rounds 3 --iterations 200000'
#
# Two sources doing the same MPI calls (MPI_Send to MPI_PROC_NULL, 8-byte
# MPI_Allreduce), each built without hooktrace (*_plain) and linked with
# libhooktrace (*_hooktrace, not instrumented):
#   fortran_calls_c_*     bench/fortran_calls_c.c
#   fortran_calls_f90_*   bench/fortran_calls.F90, `use mpi`
#   fortran_calls_f08_*   bench/fortran_calls.F90, `use mpi_f08` (-DHT_F08)
EXTRA_DIST += bench/fortran_cost.py bench/fortran_calls.F90 bench/fortran_calls_c.c
BENCH_FORTRAN_ARGS =
if HT_FORTRAN_TESTS
HT_BENCH_FORTRAN_BINARIES = bench/fortran_calls_c_plain$(EXEEXT) \
	bench/fortran_calls_c_hooktrace$(EXEEXT) bench/fortran_calls_f90_plain$(EXEEXT) \
	bench/fortran_calls_f90_hooktrace$(EXEEXT) bench/fortran_calls_f08_plain$(EXEEXT) \
	bench/fortran_calls_f08_hooktrace$(EXEEXT)
EXTRA_PROGRAMS += bench/fortran_calls_c_plain bench/fortran_calls_c_hooktrace \
	bench/fortran_calls_f90_plain bench/fortran_calls_f90_hooktrace \
	bench/fortran_calls_f08_plain bench/fortran_calls_f08_hooktrace
# MPICH's `use mpi` checks buffer types ($(HT_FC_MISMATCH), -w as in
# test/fortran/local.mk).  The program defines no module, so the builds
# write no .mod file and need no module directory of their own.
HT_BENCH_F_FCFLAGS = $(HT_MPI_FCFLAGS) $(HT_FC_MISMATCH) -g -O2

bench_fortran_calls_c_plain_SOURCES = bench/fortran_calls_c.c
bench_fortran_calls_c_plain_CPPFLAGS = $(HT_BENCH_MPI_CPPFLAGS)
bench_fortran_calls_c_plain_LDFLAGS = -no-install
bench_fortran_calls_c_plain_LDADD = $(MPI_LIBS)
bench_fortran_calls_c_hooktrace_SOURCES = bench/fortran_calls_c.c
bench_fortran_calls_c_hooktrace_CPPFLAGS = $(HT_BENCH_MPI_CPPFLAGS)
bench_fortran_calls_c_hooktrace_LDFLAGS = $(HT_BENCH_MPI_LINK)
bench_fortran_calls_c_hooktrace_LDADD = libhooktrace.la $(MPI_LIBS)

bench_fortran_calls_f90_plain_SOURCES = bench/fortran_calls.F90
bench_fortran_calls_f90_plain_FCFLAGS = $(HT_BENCH_F_FCFLAGS) -w
bench_fortran_calls_f90_plain_LDFLAGS = -no-install
bench_fortran_calls_f90_plain_LDADD = $(MPI_FORT_LIBS)
bench_fortran_calls_f90_hooktrace_SOURCES = bench/fortran_calls.F90
bench_fortran_calls_f90_hooktrace_FCFLAGS = $(HT_BENCH_F_FCFLAGS) -w
bench_fortran_calls_f90_hooktrace_LDFLAGS = $(HT_BENCH_MPI_LINK)
bench_fortran_calls_f90_hooktrace_LDADD = libhooktrace.la $(MPI_FORT_LIBS)

bench_fortran_calls_f08_plain_SOURCES = bench/fortran_calls.F90
bench_fortran_calls_f08_plain_FCFLAGS = $(HT_BENCH_F_FCFLAGS) -DHT_F08
bench_fortran_calls_f08_plain_LDFLAGS = -no-install
bench_fortran_calls_f08_plain_LDADD = $(MPI_FORT_LIBS)
bench_fortran_calls_f08_hooktrace_SOURCES = bench/fortran_calls.F90
bench_fortran_calls_f08_hooktrace_FCFLAGS = $(HT_BENCH_F_FCFLAGS) -DHT_F08
bench_fortran_calls_f08_hooktrace_LDFLAGS = $(HT_BENCH_MPI_LINK)
bench_fortran_calls_f08_hooktrace_LDADD = libhooktrace.la $(MPI_FORT_LIBS)

CLEANFILES += $(HT_BENCH_FORTRAN_BINARIES)

bench-fortran: $(HT_BENCH_FORTRAN_BINARIES)
	$(PYTHON3) $(srcdir)/bench/fortran_cost.py --builddir $(top_builddir) \
	  --mpiexec '$(MPIEXEC)' --mpi '$(HT_MPI_NAME)' $(BENCH_FORTRAN_ARGS)
else
bench-fortran:
	@echo 'bench-fortran: needs a Fortran compiler and the MPI Fortran bindings (see configure)' >&2; exit 1
endif
.PHONY: bench-fortran

# make bench-trace: trace mode against profile mode on the hook-cost kernel
# (bench/trace_cost.py; results in BENCHMARKS.md).
EXTRA_DIST += bench/trace_cost.py
bench-trace: bench/hook_kernel_hooktrace$(EXEEXT)
	HT_TOP_BUILDDIR='$(abs_top_builddir)' $(PYTHON3) $(srcdir)/bench/trace_cost.py
.PHONY: bench-trace

# --- Application proxies -------------------------------------------------------
# `make bench-apps` builds these and runs bench/apps_cost.py, which times
# whole runs of two application-shaped programs against their builds without
# hooktrace (what is run and reported: the docstring of bench/apps_cost.py).
# Extra driver options:
#   make bench-apps BENCH_APPS_ARGS='--rounds 3 --timeout 60'   (or '--quick')
#
#   lulesh_proxy_plain      serial C++ LULESH proxy, -O2 -g, no hooktrace
#   lulesh_proxy_hooktrace  the same with -finstrument-functions and
#                           libhooktrace (also run with throttling off and
#                           with HOOKTRACE_OFF=1)
#   lulesh_proxy_plugin     the same built as the README says: with
#                           instrument_flags (-finstrument-functions and the
#                           GCC plugin), when the plugin is built; not
#                           timed (bench-asbuilt times the README's build),
#                           run under callgrind for its DWARF read
#   halo_plain              MPI halo exchange (2-D Jacobi), no hooktrace
#   halo_hooktrace          the same with -finstrument-functions and libhooktrace
HT_BENCH_APPS_BINARIES = bench/lulesh_proxy_plain$(EXEEXT) \
	bench/lulesh_proxy_hooktrace$(EXEEXT) bench/halo_plain$(EXEEXT) \
	bench/halo_hooktrace$(EXEEXT)
EXTRA_PROGRAMS += bench/lulesh_proxy_plain bench/lulesh_proxy_hooktrace \
	bench/halo_plain bench/halo_hooktrace
# No $(HT_NOINSTR_CFLAGS) here: its exclude list ("include/") would leave
# std::vector's operator[] uninstrumented, which an application built with
# plain -finstrument-functions does not get.
HT_BENCH_APPS_CXXFLAGS = $(HT_WARN_CFLAGS) -O2 -g

bench_lulesh_proxy_plain_SOURCES = bench/lulesh_proxy.cpp bench/lulesh_proxy.h
bench_lulesh_proxy_plain_CXXFLAGS = $(HT_BENCH_APPS_CXXFLAGS)
bench_lulesh_proxy_plain_LDFLAGS = -no-install

bench_lulesh_proxy_hooktrace_SOURCES = bench/lulesh_proxy.cpp bench/lulesh_proxy.h
bench_lulesh_proxy_hooktrace_CXXFLAGS = $(HT_BENCH_APPS_CXXFLAGS) -finstrument-functions
bench_lulesh_proxy_hooktrace_LDFLAGS = -no-install
bench_lulesh_proxy_hooktrace_LDADD = libhooktrace.la

if HT_GCC_PLUGIN
HT_BENCH_APPS_BINARIES += bench/lulesh_proxy_plugin$(EXEEXT)
EXTRA_PROGRAMS += bench/lulesh_proxy_plugin
bench_lulesh_proxy_plugin_SOURCES = bench/lulesh_proxy.cpp bench/lulesh_proxy.h
bench_lulesh_proxy_plugin_CXXFLAGS = $(HT_BENCH_APPS_CXXFLAGS) -finstrument-functions \
	-fplugin=$(abs_top_builddir)/hooktrace_gcc.so
bench_lulesh_proxy_plugin_LDFLAGS = -no-install
bench_lulesh_proxy_plugin_LDADD = libhooktrace.la
bench/lulesh_proxy_plugin-lulesh_proxy.$(OBJEXT): hooktrace_gcc.so
endif

bench_halo_plain_SOURCES = bench/halo.c
bench_halo_plain_CPPFLAGS = $(HT_BENCH_MPI_CPPFLAGS)
bench_halo_plain_CFLAGS = $(AM_CFLAGS) -O2 -g
bench_halo_plain_LDFLAGS = -no-install
bench_halo_plain_LDADD = $(MPI_LIBS)

bench_halo_hooktrace_SOURCES = bench/halo.c
bench_halo_hooktrace_CPPFLAGS = $(HT_BENCH_MPI_CPPFLAGS)
bench_halo_hooktrace_CFLAGS = $(AM_CFLAGS) -O2 -g -finstrument-functions
bench_halo_hooktrace_LDFLAGS = $(HT_BENCH_MPI_LINK)
bench_halo_hooktrace_LDADD = libhooktrace.la $(MPI_LIBS)

EXTRA_DIST += bench/apps_cost.py
CLEANFILES += $(HT_BENCH_APPS_BINARIES)

BENCH_APPS_ARGS =
bench-apps: $(HT_BENCH_APPS_BINARIES)
	$(PYTHON3) $(srcdir)/bench/apps_cost.py --builddir $(top_builddir) \
	  --mpiexec '$(MPIEXEC)' --mpi '$(HT_MPI_NAME)' --cxx '$(CXX)' $(BENCH_APPS_ARGS)
	$(MAKE) $(AM_MAKEFLAGS) bench-shapes \
	  BENCH_SHAPES_ARGS='$(filter --quick,$(BENCH_APPS_ARGS)) $(BENCH_SHAPES_ARGS)'
.PHONY: bench-apps

# --- Application shapes (issue 24) ---------------------------------------------
# `make bench-shapes` (also run by `make bench-apps`): bench/shapes_cost.py
# builds bench/elem_helpers.cpp, bench/fem_proxy.cpp and bench/lulesh_mpi.cpp
# as a user does, with the `hooktrace` driver of a copy of hooktrace installed
# under bench/stage (make install DESTDIR=...), and also plain, without the
# plugin, and with clang's -finstrument-functions-after-inlining; then times
# them interleaved (BENCHMARKS.md, "Real-application shapes").  Options:
#   make bench-shapes BENCH_SHAPES_ARGS='--rounds 7 --only lulesh --ranks 8'
EXTRA_DIST += bench/shapes_cost.py bench/elem_helpers.cpp bench/fem_proxy.cpp \
	bench/lulesh_mpi.cpp
BENCH_SHAPES_ARGS =
HT_BENCH_STAGE = $(abs_top_builddir)/bench/stage
bench-shapes: all
	rm -rf '$(HT_BENCH_STAGE)'
	$(MAKE) $(AM_MAKEFLAGS) install DESTDIR='$(HT_BENCH_STAGE)' >/dev/null
	$(PYTHON3) $(srcdir)/bench/shapes_cost.py \
	  --hooktrace '$(HT_BENCH_STAGE)$(bindir)/hooktrace' --cxx '$(CXX)' \
	  --mpicxx '$(subst mpicc,mpicxx,$(MPICC))' --mpiexec '$(MPIEXEC)' \
	  --mpi '$(HT_MPI_NAME)' $(BENCH_SHAPES_ARGS)
.PHONY: bench-shapes

# --- The program as written (issue 35) -----------------------------------------
# `make bench-asbuilt`: bench/asbuilt_cost.py builds five shapes with the
# staged `hooktrace` driver (the plugin's default, inlined-hooks=leaf), with
# inlined-hooks=keep-loops (the old default) and without hooktrace, times
# them alternated (whole process), and checks that every default-build
# profile is the program's tree with exact counts, against a reference build
# that records every call (BENCHMARKS.md, "Real-application shapes").
#   make bench-asbuilt BENCH_ASBUILT_ARGS='--rounds 11 --only lulesh_shape'   (or '--quick')
EXTRA_DIST += bench/asbuilt_cost.py bench/lulesh_shape.cpp
BENCH_ASBUILT_ARGS =
bench-asbuilt: all
	rm -rf '$(HT_BENCH_STAGE)'
	$(MAKE) $(AM_MAKEFLAGS) install DESTDIR='$(HT_BENCH_STAGE)' >/dev/null
	$(PYTHON3) $(srcdir)/bench/asbuilt_cost.py \
	  --hooktrace '$(HT_BENCH_STAGE)$(bindir)/hooktrace' --cxx '$(CXX)' \
	  --mpicxx '$(subst mpicc,mpicxx,$(MPICC))' --mpiexec '$(MPIEXEC)' \
	  --mpi '$(HT_MPI_NAME)' $(BENCH_ASBUILT_ARGS)
.PHONY: bench-asbuilt

# --- MPI_Finalize's added wall time against the ranks --------------------------
# `make bench-finalize` (bench/finalize_cost.py): bench/halo with and without
# hooktrace on 2, 4, 8 and 16 ranks (oversubscribed), the slowest rank's
# MPI_Finalize per run.  Options: BENCH_FINALIZE_ARGS='--ranks 16 --rounds 9'
EXTRA_DIST += bench/finalize_cost.py
BENCH_FINALIZE_ARGS =
bench-finalize: bench/halo_plain$(EXEEXT) bench/halo_hooktrace$(EXEEXT)
	$(PYTHON3) $(srcdir)/bench/finalize_cost.py --builddir $(top_builddir) \
	  --mpiexec '$(MPIEXEC)' --mpi '$(HT_MPI_NAME)' $(BENCH_FINALIZE_ARGS)
.PHONY: bench-finalize

# --- fixed cost of a short job and where it goes (issue 24) ---------------------
# `make bench-fixed` (bench/fixed_cost.py): bench/halo.c built plain, linked
# with libhooktrace (no hooks), instrumented with the plugin, and under
# `hooktrace run`, on 1, 4 and 16 ranks (oversubscribed), whole job from
# mpirun to exit; then MPI_Finalize with one output or MPI_T off at a time.
# Options: BENCH_FIXED_ARGS='--ranks 4 --rounds 9'
EXTRA_DIST += bench/fixed_cost.py
BENCH_FIXED_ARGS =
bench-fixed: libhooktrace.la
	$(PYTHON3) $(srcdir)/bench/fixed_cost.py --builddir $(top_builddir) \
	  --mpiexec '$(MPIEXEC)' --mpi '$(HT_MPI_NAME)' --mpicc '$(MPICC)' $(BENCH_FIXED_ARGS)
.PHONY: bench-fixed

# --- DWARF read against the compile units a run touched ------------------------
# `make bench-units` (bench/units_cost.py): a generated 41-unit program run
# under callgrind calling into 2 units and into all; needs valgrind.
EXTRA_DIST += bench/units_cost.py
bench-units: libhooktrace.la
	$(PYTHON3) $(srcdir)/bench/units_cost.py --builddir $(top_builddir) --cc '$(CC)'
.PHONY: bench-units

# --- Counters ------------------------------------------------------------------
# `make bench-counters`: the hook-cost kernel with three software-defined PAPI
# events, run with 0, 1 and 3 of them in "counters", and with one and two perf
# events where the machine has them (bench/counters_cost.py;
# results in BENCHMARKS.md).  Needs PAPI with its SDE library.
EXTRA_DIST += bench/counters_cost.py bench/counters_sde.c
if HAVE_PAPI_SDE
EXTRA_PROGRAMS += bench/hook_kernel_counters
bench_hook_kernel_counters_SOURCES = bench/hook_kernel.c bench/counters_sde.c
bench_hook_kernel_counters_CPPFLAGS = $(AM_CPPFLAGS) -DHK_VARIANT='"hooktrace-counters"'
bench_hook_kernel_counters_CFLAGS = $(HT_BENCH_KERNEL_INSTR_FLAGS) $(PAPI_CFLAGS)
bench_hook_kernel_counters_LDFLAGS = $(HT_BENCH_KERNEL_LINK_FLAGS)
bench_hook_kernel_counters_LDADD = libhooktrace.la -lsde
CLEANFILES += bench/hook_kernel_counters$(EXEEXT)
BENCH_COUNTERS_ARGS =
bench-counters: bench/hook_kernel_counters$(EXEEXT)
	$(PYTHON3) $(srcdir)/bench/counters_cost.py --builddir $(top_builddir) $(BENCH_COUNTERS_ARGS)
else
bench-counters:
	@echo 'bench-counters: needs PAPI with sde_lib.h (libpapi-dev)' >&2; exit 1
endif
.PHONY: bench-counters

# --- The partial profile a killed rank writes -------------------------------------
# `make bench-partial` (bench/partial_write.py): bench/partial_app (about 450
# stacks, MPI_T on, the default config) on 4 ranks, each sent SIGTERM while
# it runs, with busy loops loading the machine; the time from the signal to
# each rank's death (--merge N: N rounds of SIGTERM to mpirun during the
# job's merge).  Options: BENCH_PARTIAL_ARGS='--rounds 9 --load 2 --merge 12'
EXTRA_PROGRAMS += bench/partial_app
bench_partial_app_SOURCES = bench/partial_app.c
bench_partial_app_CPPFLAGS = $(HT_BENCH_MPI_CPPFLAGS)
bench_partial_app_CFLAGS = $(AM_CFLAGS) -O2 -g -finstrument-functions
bench_partial_app_LDFLAGS = $(HT_BENCH_MPI_LINK)
bench_partial_app_LDADD = libhooktrace.la $(MPI_LIBS)
EXTRA_DIST += bench/partial_write.py
CLEANFILES += bench/partial_app$(EXEEXT)
BENCH_PARTIAL_ARGS =
bench-partial: bench/partial_app$(EXEEXT)
	$(PYTHON3) $(srcdir)/bench/partial_write.py --builddir $(top_builddir) \
	  --mpiexec '$(MPIEXEC)' --mpi '$(HT_MPI_NAME)' $(BENCH_PARTIAL_ARGS)
.PHONY: bench-partial

# --- Trace volume (issue 26, point 5) -------------------------------------------
# `make bench-trace-volume` (bench/trace_volume.py): the LULESH-like MPI proxy
# built with the `hooktrace` driver of a DESTDIR-staged install, traced on 8
# ranks with the defaults: archive bytes per rank per second of compute, and
# its MPI events (BENCHMARKS.md, "Trace").  Options:
#   BENCH_TRACE_VOLUME_ARGS='--rounds 5 --base-lib /path/to/other/lib'
EXTRA_DIST += bench/trace_volume.py
BENCH_TRACE_VOLUME_ARGS =
bench-trace-volume: all
	rm -rf '$(HT_BENCH_STAGE)'
	$(MAKE) $(AM_MAKEFLAGS) install DESTDIR='$(HT_BENCH_STAGE)' >/dev/null
	$(PYTHON3) $(srcdir)/bench/trace_volume.py \
	  --hooktrace '$(HT_BENCH_STAGE)$(bindir)/hooktrace' \
	  --mpicxx '$(subst mpicc,mpicxx,$(MPICC))' --mpiexec '$(MPIEXEC)' $(BENCH_TRACE_VOLUME_ARGS)
.PHONY: bench-trace-volume

# --- clock synchronisation in trace mode (issue 26) ----------------------------
# `make bench-clock-sync`: the cost of the offsets measured at a traced job's
# start and end (bench/clock_sync_cost.c), on 4 ranks by default:
#   make bench-clock-sync BENCH_CLOCK_SYNC_RANKS=8
EXTRA_PROGRAMS += bench/clock_sync_cost
bench_clock_sync_cost_SOURCES = bench/clock_sync_cost.c src/trace/clock_sync.c \
	src/trace/clock_skew.c src/common/clock.c
bench_clock_sync_cost_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src $(MPI_CFLAGS)
bench_clock_sync_cost_LDFLAGS = -no-install
bench_clock_sync_cost_LDADD = $(MPI_LIBS) -lm
BENCH_CLOCK_SYNC_RANKS = 4
bench-clock-sync: bench/clock_sync_cost$(EXEEXT)
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
	  $(MPIEXEC) $(if $(findstring mpich,$(HT_MPI_NAME)),,--oversubscribe) \
	  -n $(BENCH_CLOCK_SYNC_RANKS) bench/clock_sync_cost$(EXEEXT)
.PHONY: bench-clock-sync

# --- Throttling by cost (issue 35, point 3) --------------------------------------
# `make bench-throttle` (bench/throttle_shape.py): an NPB LU-like loop of four
# sweep kernels of 2-7 us beside a helper of a few ns, plain and with
# hooktrace under the cost rule, the old fixed 10 us and throttling off,
# interleaved (BENCHMARKS.md, "Real-application shapes").  Options:
#   make bench-throttle BENCH_THROTTLE_ARGS='--rounds 15 --steps 100000'
EXTRA_PROGRAMS += bench/throttle_shape_plain bench/throttle_shape_hooktrace
bench_throttle_shape_plain_SOURCES = bench/throttle_shape.c
bench_throttle_shape_plain_LDFLAGS = -no-install
bench_throttle_shape_hooktrace_SOURCES = bench/throttle_shape.c
bench_throttle_shape_hooktrace_CFLAGS = $(AM_CFLAGS) -finstrument-functions
bench_throttle_shape_hooktrace_LDFLAGS = -no-install
bench_throttle_shape_hooktrace_LDADD = libhooktrace.la
EXTRA_DIST += bench/throttle_shape.py bench/filter_cost.py
CLEANFILES += bench/throttle_shape_plain$(EXEEXT) bench/throttle_shape_hooktrace$(EXEEXT)
BENCH_THROTTLE_ARGS =
bench-throttle: bench/throttle_shape_plain$(EXEEXT) bench/throttle_shape_hooktrace$(EXEEXT)
	$(PYTHON3) $(srcdir)/bench/throttle_shape.py --builddir $(top_builddir) $(BENCH_THROTTLE_ARGS)
.PHONY: bench-throttle

# `make bench-filter` (bench/filter_cost.py): the same program, its helper
# excluded by the config with throttling off (docs/filter.md, BENCHMARKS.md
# "Hooks").
BENCH_FILTER_ARGS =
bench-filter: bench/throttle_shape_plain$(EXEEXT) bench/throttle_shape_hooktrace$(EXEEXT)
	$(PYTHON3) $(srcdir)/bench/filter_cost.py --builddir $(top_builddir) $(BENCH_FILTER_ARGS)
.PHONY: bench-filter
