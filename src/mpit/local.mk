# mpit: MPI_T control variables read once, performance variables read
# around every MPI call (mpit.h, docs/mpi_t.md)
noinst_LTLIBRARIES += libht_mpit.la
libht_mpit_la_SOURCES = \
	src/mpit/mpit.h src/mpit/mpit.c src/mpit/mpit_internal.h \
	src/mpit/mpit_cvars.c src/mpit/mpit_late.c src/mpit/mpit_pvars.c src/mpit/mpit_choose.c src/mpit/mpit_values.c \
	src/mpit/view.h
libht_mpit_la_CPPFLAGS = $(HT_LIB_CPPFLAGS)
libht_mpit_la_CFLAGS = $(HT_LIB_CFLAGS)
