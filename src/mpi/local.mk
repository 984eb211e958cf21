# mpi: the wrappers (generated from routines.py by generate.py), message
# recording, the open-request table, rank translation, the cross-rank merge
noinst_LTLIBRARIES += libht_mpi.la
libht_mpi_la_SOURCES = \
	src/mpi/call.h src/mpi/state.h src/mpi/state.c \
	src/mpi/thread_data.h src/mpi/messages.h src/mpi/messages.c \
	src/mpi/ranks.h src/mpi/ranks.c \
	src/mpi/requests.h src/mpi/requests.c src/mpi/poll.h \
	src/mpi/record.h src/mpi/p2p.c \
	src/mpi/collectives.h src/mpi/rma.h \
	src/mpi/merge.h src/mpi/merge.c
nodist_libht_mpi_la_SOURCES = src/mpi/wrappers.c
libht_mpi_la_CPPFLAGS = $(HT_LIB_CPPFLAGS) $(MPI_CFLAGS)
libht_mpi_la_CFLAGS = $(HT_LIB_CFLAGS)
libht_mpi_la_LIBADD = $(MPI_LIBS)

HT_MPI_GENERATOR = $(srcdir)/src/mpi/generate.py $(srcdir)/src/mpi/routines.py
src/mpi/wrappers.c: $(HT_MPI_GENERATOR)
	$(AM_V_GEN)$(MKDIR_P) src/mpi && $(PYTHON3) $(srcdir)/src/mpi/generate.py c $@
BUILT_SOURCES += src/mpi/wrappers.c
CLEANFILES += src/mpi/wrappers.c
EXTRA_DIST += $(HT_MPI_GENERATOR)

# --- collectives and one-sided patterns (collectives.c, rma.c, ...) ---------
libht_mpi_la_SOURCES += src/mpi/collectives.c src/mpi/collectives_neighbor.c src/mpi/rma.c

# --- cross-rank merge and the MPI parts of the outputs -----------------------
libht_mpi_la_SOURCES += src/mpi/merge_internal.h src/mpi/merge_paths.c src/mpi/merge_tree.c src/mpi/merge_local.c src/mpi/merge_summary.c

# --- MPI_T: control and performance variables (mpit*.c) ----------------------
libht_mpi_la_SOURCES += src/mpi/mpit.h src/mpi/mpit.c src/mpi/mpit_internal.h \
	src/mpi/mpit_cvars.c src/mpi/mpit_pvars.c src/mpi/mpit_values.c \
	src/mpi/mpit_merge.h src/mpi/mpit_merge.c \
	src/output/output_mpit.h src/output/json_mpit.c src/output/logfile_mpit.c
