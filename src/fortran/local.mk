# fortran: the mpif.h / use mpi and use mpi_f08 entry points (Open MPI's
# mpi_send_f08_, MPICH's mpi_send_f08ts_), generated from the same rows as
# the C wrappers (src/mpi/routines.py) by src/mpi/generate.py fortran.  C
# code: no Fortran compiler needed.  The MPI library's Fortran bindings
# (MPI_FORT_LIBS, found by configure) are referred to weakly, not linked.
EXTRA_DIST += src/fortran/generate_fortran.py
if HT_FORTRAN_MPI
noinst_LTLIBRARIES += libht_fortran.la
libht_fortran_la_SOURCES = src/fortran/fortran.h src/fortran/support.c
nodist_libht_fortran_la_SOURCES = src/fortran/wrappers_f.c
libht_fortran_la_CPPFLAGS = $(HT_LIB_CPPFLAGS) $(MPI_CFLAGS)
libht_fortran_la_CFLAGS = $(HT_LIB_CFLAGS)
libhooktrace_la_LIBADD += libht_fortran.la

src/fortran/wrappers_f.c: $(HT_MPI_GENERATOR) $(srcdir)/src/fortran/generate_fortran.py
	$(AM_V_GEN)$(MKDIR_P) src/fortran && $(PYTHON3) $(srcdir)/src/mpi/generate.py fortran $@
BUILT_SOURCES += src/fortran/wrappers_f.c
CLEANFILES += src/fortran/wrappers_f.c
endif
