# Fortran MPI tests (test/fortran): test/fortran/p2p.F90 and coll.F90
# (collectives, matched probes, cancel, Testsome: fcoll_*) each built as `use mpi`
# (fmpi_f90), `include 'mpif.h'` (fmpi_f77) and `use mpi_f08` (fmpi_f08),
# (MPICH's `use mpi` checks buffer types, hence $(HT_FC_MISMATCH)),
# each also without hooktrace (*_plain, the reference for its output), and a
# mixed C/Fortran program; run by fortran.py and mixed.py with the helpers
# of test/mpi/mpilib.py.
EXTRA_DIST += test/fortran/fortran.py test/fortran/mixed.py test/fortran/p2p.F90 \
	test/fortran/mixed.c test/fortran/mixed_f.F90 test/fortran/coll.py test/fortran/coll.F90
if HT_FORTRAN_TESTS
HT_F_TEST_FCFLAGS = $(HT_MPI_FCFLAGS) $(HT_FC_MISMATCH) -g -finstrument-functions
HT_F_PLAIN_FCFLAGS = $(HT_MPI_FCFLAGS) $(HT_FC_MISMATCH) -g
HT_F_TEST_LDADD = libhooktrace.la $(MPI_FORT_LIBS)
# mpif.h declares no interfaces and MPICH's `use mpi` checks buffer types:
# passing REAL and INTEGER buffers to one routine is legal MPI code that
# gfortran can only warn about (with -fallow-argument-mismatch), so the
# -Werror builds of CI must not see warnings from these test programs.
# The use mpi_f08 builds keep every warning.
HT_F_LEGACY = -w

# The six builds of p2p.F90 each write module `comm`: one module directory
# each (-J), so that parallel make does not mix them.  The six builds of
# coll.F90 (module `coll`) share those directories, one each likewise.
HT_F_MODDIRS = test/fortran/mod_f90 test/fortran/mod_f77 test/fortran/mod_f08 \
	test/fortran/mod_f90_plain test/fortran/mod_f77_plain test/fortran/mod_f08_plain
test/fortran/mod.stamp:
	$(AM_V_at)$(MKDIR_P) $(HT_F_MODDIRS) && touch $@
BUILT_SOURCES += test/fortran/mod.stamp
CLEANFILES += test/fortran/mod.stamp test/fortran/mod_*/*.mod

check_PROGRAMS += test/fortran/fmpi_f90 test/fortran/fmpi_f77 test/fortran/fmpi_f08 \
	test/fortran/fmpi_f90_plain test/fortran/fmpi_f77_plain test/fortran/fmpi_f08_plain \
	test/fortran/mixed

test_fortran_fmpi_f90_SOURCES = test/fortran/p2p.F90
test_fortran_fmpi_f90_FCFLAGS = $(HT_F_TEST_FCFLAGS) -Jtest/fortran/mod_f90 $(HT_F_LEGACY)
test_fortran_fmpi_f90_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fmpi_f90_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fmpi_f90_plain_SOURCES = test/fortran/p2p.F90
test_fortran_fmpi_f90_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) -Jtest/fortran/mod_f90_plain $(HT_F_LEGACY)
test_fortran_fmpi_f90_plain_LDADD = $(MPI_FORT_LIBS)

test_fortran_fmpi_f77_SOURCES = test/fortran/p2p.F90
test_fortran_fmpi_f77_FCFLAGS = $(HT_F_TEST_FCFLAGS) -DHT_MPIF_H -Jtest/fortran/mod_f77 $(HT_F_LEGACY)
test_fortran_fmpi_f77_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fmpi_f77_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fmpi_f77_plain_SOURCES = test/fortran/p2p.F90
test_fortran_fmpi_f77_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) -DHT_MPIF_H -Jtest/fortran/mod_f77_plain $(HT_F_LEGACY)
test_fortran_fmpi_f77_plain_LDADD = $(MPI_FORT_LIBS)

test_fortran_fmpi_f08_SOURCES = test/fortran/p2p.F90
test_fortran_fmpi_f08_FCFLAGS = $(HT_F_TEST_FCFLAGS) -DHT_F08 -Jtest/fortran/mod_f08
test_fortran_fmpi_f08_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fmpi_f08_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fmpi_f08_plain_SOURCES = test/fortran/p2p.F90
test_fortran_fmpi_f08_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) -DHT_F08 -Jtest/fortran/mod_f08_plain
test_fortran_fmpi_f08_plain_LDADD = $(MPI_FORT_LIBS)

check_PROGRAMS += test/fortran/fcoll_f90 test/fortran/fcoll_f77 test/fortran/fcoll_f08 \
	test/fortran/fcoll_f90_plain test/fortran/fcoll_f77_plain test/fortran/fcoll_f08_plain

test_fortran_fcoll_f90_SOURCES = test/fortran/coll.F90
test_fortran_fcoll_f90_FCFLAGS = $(HT_F_TEST_FCFLAGS) -Jtest/fortran/mod_f90 $(HT_F_LEGACY)
test_fortran_fcoll_f90_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fcoll_f90_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fcoll_f90_plain_SOURCES = test/fortran/coll.F90
test_fortran_fcoll_f90_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) -Jtest/fortran/mod_f90_plain $(HT_F_LEGACY)
test_fortran_fcoll_f90_plain_LDADD = $(MPI_FORT_LIBS)

test_fortran_fcoll_f77_SOURCES = test/fortran/coll.F90
test_fortran_fcoll_f77_FCFLAGS = $(HT_F_TEST_FCFLAGS) -DHT_MPIF_H -Jtest/fortran/mod_f77 $(HT_F_LEGACY)
test_fortran_fcoll_f77_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fcoll_f77_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fcoll_f77_plain_SOURCES = test/fortran/coll.F90
test_fortran_fcoll_f77_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) -DHT_MPIF_H -Jtest/fortran/mod_f77_plain $(HT_F_LEGACY)
test_fortran_fcoll_f77_plain_LDADD = $(MPI_FORT_LIBS)

test_fortran_fcoll_f08_SOURCES = test/fortran/coll.F90
test_fortran_fcoll_f08_FCFLAGS = $(HT_F_TEST_FCFLAGS) -DHT_F08 -Jtest/fortran/mod_f08
test_fortran_fcoll_f08_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fcoll_f08_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fcoll_f08_plain_SOURCES = test/fortran/coll.F90
test_fortran_fcoll_f08_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) -DHT_F08 -Jtest/fortran/mod_f08_plain
test_fortran_fcoll_f08_plain_LDADD = $(MPI_FORT_LIBS)

test_fortran_mixed_SOURCES = test/fortran/mixed.c test/fortran/mixed_f.F90
test_fortran_mixed_CFLAGS = $(MPI_CFLAGS) -g -finstrument-functions $(HT_WARN_CFLAGS)
test_fortran_mixed_FCFLAGS = $(HT_F_TEST_FCFLAGS) -Jtest/fortran/mod_f90 $(HT_F_LEGACY)
test_fortran_mixed_LDADD = $(HT_F_TEST_LDADD) $(MPI_LIBS)
test_fortran_mixed_LDFLAGS = $(HT_TEST_LINK)

HT_FORTRAN_TESTS = test/fortran/fortran.py test/fortran/mixed.py test/fortran/coll.py
TESTS += $(HT_FORTRAN_TESTS)
endif
