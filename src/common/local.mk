# common: helpers every floor may use: the clock a hook reads, output folders
noinst_LTLIBRARIES += libht_common.la
libht_common_la_SOURCES = src/common/compiler.h \
	src/common/clock.c src/common/clock.h \
	src/common/directory.c src/common/directory.h \
	src/common/library_close.c src/common/library_close.h \
	src/common/quiet_thread.c src/common/quiet_thread.h
libht_common_la_CPPFLAGS = $(HT_LIB_CPPFLAGS)
libht_common_la_CFLAGS = $(HT_LIB_CFLAGS)

# weak_mpi/mpi.h: the MPI's mpi.h with every reference to the MPI made weak,
# so that libhooktrace needs no MPI library (docs/compile.md).  Every floor
# that talks to MPI includes it, so it lives here on the ground floor.
src/common/weak_mpi/weak_refs.h: $(srcdir)/src/common/weak_mpi/weak_refs.py
	$(AM_V_GEN)$(MKDIR_P) src/common/weak_mpi && echo '#include <mpi.h>' | \
		$(CC) -E $(MPI_CFLAGS) -x c - | $(PYTHON3) $(srcdir)/src/common/weak_mpi/weak_refs.py $@
BUILT_SOURCES += src/common/weak_mpi/weak_refs.h
# Before any object of the library (through mpi.h): BUILT_SOURCES are made
# first by all and check only, not by `make libhooktrace.la` or mpi-NAME's
# runtime target.
$(libhooktrace_la_OBJECTS) $(libht_mpi_la_OBJECTS) $(libht_fortran_la_OBJECTS) \
$(libht_runtime_la_OBJECTS) $(libht_merge_la_OBJECTS) $(libht_mpit_la_OBJECTS) \
$(libht_trace_la_OBJECTS) $(libht_output_la_OBJECTS) $(libht_callstack_la_OBJECTS) \
$(libht_counters_la_OBJECTS): src/common/weak_mpi/weak_refs.h
CLEANFILES += src/common/weak_mpi/weak_refs.h
EXTRA_DIST += src/common/weak_mpi/weak_refs.py src/common/weak_mpi/mpi.h
