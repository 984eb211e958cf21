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
# through weak references (src/common/weak_mpi; docs/compile.md).

HT_MPI_GENERATOR = $(srcdir)/src/mpi/generate.py $(srcdir)/src/mpi/routines.py
src/mpi/wrappers.c: $(HT_MPI_GENERATOR)
	$(AM_V_GEN)$(MKDIR_P) src/mpi && $(PYTHON3) $(srcdir)/src/mpi/generate.py c $@
BUILT_SOURCES += src/mpi/wrappers.c
CLEANFILES += src/mpi/wrappers.c
EXTRA_DIST += $(HT_MPI_GENERATOR)

# --- collectives and one-sided patterns (collectives.c, rma.c, ...) ---------
libht_mpi_la_SOURCES += src/mpi/collectives.c src/mpi/collectives_neighbor.c src/mpi/rma.c
