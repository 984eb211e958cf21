# mpi: the wrappers (generated from routines.py by generate.py), message
# recording, the open-request table, rank translation
noinst_LTLIBRARIES += libht_mpi.la
libht_mpi_la_SOURCES = \
	src/mpi/call.h src/mpi/call.c src/mpi/state.h src/mpi/state.c src/mpi/job.c src/mpi/abi.h src/mpi/abi.c \
	src/mpi/thread_data.h src/mpi/messages.h src/mpi/messages.c \
	src/mpi/ranks.h src/mpi/ranks.c \
	src/mpi/requests.h src/mpi/requests.c src/mpi/requests_shared.c src/mpi/poll.h \
	src/mpi/record.h src/mpi/p2p.c \
	src/mpi/collectives.h src/mpi/rma.h
nodist_libht_mpi_la_SOURCES = src/mpi/wrappers.c
libht_mpi_la_CPPFLAGS = $(HT_LIB_CPPFLAGS) $(MPI_CFLAGS)
libht_mpi_la_CFLAGS = $(HT_LIB_CFLAGS)
# No MPI library linked: libhooktrace binds to the process's own MPI
# through weak references (include/mpi.h, weak_refs.py; docs/compile.md).

src/mpi/weak_refs.h: $(srcdir)/src/mpi/weak_refs.py
	$(AM_V_GEN)$(MKDIR_P) src/mpi && echo '#include <mpi.h>' | \
		$(CC) -E $(MPI_CFLAGS) -x c - | $(PYTHON3) $(srcdir)/src/mpi/weak_refs.py $@
BUILT_SOURCES += src/mpi/weak_refs.h
# Before any object of the library (through mpi.h): BUILT_SOURCES are made
# first by all and check only, not by `make libhooktrace.la` or mpi-NAME's
# runtime target.
$(libhooktrace_la_OBJECTS) $(libht_mpi_la_OBJECTS) $(libht_fortran_la_OBJECTS) \
$(libht_runtime_la_OBJECTS) $(libht_merge_la_OBJECTS) $(libht_mpit_la_OBJECTS) \
$(libht_trace_la_OBJECTS) $(libht_output_la_OBJECTS) $(libht_callstack_la_OBJECTS) \
$(libht_counters_la_OBJECTS): src/mpi/weak_refs.h
CLEANFILES += src/mpi/weak_refs.h
EXTRA_DIST += src/mpi/weak_refs.py src/mpi/include/mpi.h

HT_MPI_GENERATOR = $(srcdir)/src/mpi/generate.py $(srcdir)/src/mpi/routines.py
src/mpi/wrappers.c: $(HT_MPI_GENERATOR)
	$(AM_V_GEN)$(MKDIR_P) src/mpi && $(PYTHON3) $(srcdir)/src/mpi/generate.py c $@
BUILT_SOURCES += src/mpi/wrappers.c
CLEANFILES += src/mpi/wrappers.c
EXTRA_DIST += $(HT_MPI_GENERATOR)

# --- collectives and one-sided patterns (collectives.c, rma.c, ...) ---------
libht_mpi_la_SOURCES += src/mpi/collectives.c src/mpi/collectives_neighbor.c src/mpi/rma.c
