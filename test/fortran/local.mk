# Fortran MPI tests (test/fortran), the C MPI tests of test/mpi mirrored
# through the Fortran bindings.  Each program is one source (interfaces
# chosen by binding.h) built as `use mpi` (*_f90), `include 'mpif.h'`
# (*_f77) and `use mpi_f08` (*_f08), some in two of these, and without
# hooktrace (*_plain, the reference for its output); plus a mixed C/Fortran
# program; the modules share module_head.h, checksum.h and buffers.h
# (cpp includes, so no module build order).  One Python driver each, with
# the helpers of flib.py and test/mpi/mpilib.py and the message models of
# test/mpi/models.py; docs/fortran.md lists what each covers.  MPICH's
# `use mpi` checks buffer types, hence $(HT_FC_MISMATCH).
EXTRA_DIST += test/fortran/fortran.py test/fortran/mixed.py test/fortran/p2p.F90 \
	test/fortran/mixed.c test/fortran/mixed_f.F90 test/fortran/coll.py test/fortran/coll.F90 \
	test/fortran/binding.h test/fortran/module_head.h test/fortran/checksum.h test/fortran/buffers.h \
	test/fortran/flib.py test/fortran/neighbour.py test/fortran/neighbour.F90 \
	test/fortran/nbcoll.py test/fortran/nbcoll.F90 test/fortran/sends.py test/fortran/sends.F90 \
	test/fortran/requests.py test/fortran/requests.F90 \
	test/fortran/rma.py test/fortran/rma.F90 \
	test/fortran/control.py test/fortran/control.F90 test/fortran/heat_demo.py \
	test/fortran/throttle.py test/fortran/throttle.F90 test/fortran/mpi4.py test/fortran/mpi4.F90 \
	test/fortran/regions.py test/fortran/regions.F90
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
# use mpi_f08; its Wait/Test any/some count from HT_F08_INDEX_BASE (binding.h).
HT_F_F08 = -DHT_F08 -DHT_F08_INDEX_BASE=$(HT_F08_INDEX_BASE)

# The builds of one source each write its module (p2p.F90: `comm`): one
# module directory per interface (-J), so that parallel make does not mix
# them; the programs' modules have different names, so they share these.
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
test_fortran_fmpi_f08_FCFLAGS = $(HT_F_TEST_FCFLAGS) $(HT_F_F08) -Jtest/fortran/mod_f08
test_fortran_fmpi_f08_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fmpi_f08_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fmpi_f08_plain_SOURCES = test/fortran/p2p.F90
test_fortran_fmpi_f08_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) $(HT_F_F08) -Jtest/fortran/mod_f08_plain
test_fortran_fmpi_f08_plain_LDADD = $(MPI_FORT_LIBS)

# mpi4.F90: MPI 4's Isendrecv(_replace) and a persistent Bcast_init, as
# `use mpi_f08` and `include 'mpif.h'` (test/fortran/mpi4.py); compiled
# without them where configure found none (HT_MPI4_COMM).
HT_F_MPI4 = -DHT_MPI4_$(HT_MPI4_COMM)
check_PROGRAMS += test/fortran/fmpi4_f08 test/fortran/fmpi4_f77 test/fortran/fmpi4_plain
test_fortran_fmpi4_f08_SOURCES = test/fortran/mpi4.F90
test_fortran_fmpi4_f08_FCFLAGS = $(HT_F_TEST_FCFLAGS) $(HT_F_F08) $(HT_F_MPI4) -Jtest/fortran/mod_f08
test_fortran_fmpi4_f08_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fmpi4_f08_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fmpi4_f77_SOURCES = test/fortran/mpi4.F90
test_fortran_fmpi4_f77_FCFLAGS = $(HT_F_TEST_FCFLAGS) -DHT_MPIF_H $(HT_F_MPI4) -Jtest/fortran/mod_f77 $(HT_F_LEGACY)
test_fortran_fmpi4_f77_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fmpi4_f77_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fmpi4_plain_SOURCES = test/fortran/mpi4.F90
test_fortran_fmpi4_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) $(HT_F_F08) $(HT_F_MPI4) -Jtest/fortran/mod_f08_plain
test_fortran_fmpi4_plain_LDADD = $(MPI_FORT_LIBS)

# gfortran's main program by its own name on 2 ranks (test/fortran/heat_demo.py).
check_PROGRAMS += test/fortran/fheat_demo
test_fortran_fheat_demo_SOURCES = test/programs/heat_demo.F90
test_fortran_fheat_demo_FCFLAGS = $(HT_F_TEST_FCFLAGS) -DHT_WITH_MPI -Jtest/fortran/mod_f90 $(HT_F_LEGACY)
test_fortran_fheat_demo_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fheat_demo_LDFLAGS = $(HT_TEST_LINK)

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
test_fortran_fcoll_f08_FCFLAGS = $(HT_F_TEST_FCFLAGS) $(HT_F_F08) -Jtest/fortran/mod_f08
test_fortran_fcoll_f08_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fcoll_f08_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fcoll_f08_plain_SOURCES = test/fortran/coll.F90
test_fortran_fcoll_f08_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) $(HT_F_F08) -Jtest/fortran/mod_f08_plain
test_fortran_fcoll_f08_plain_LDADD = $(MPI_FORT_LIBS)

test_fortran_mixed_SOURCES = test/fortran/mixed.c test/fortran/mixed_f.F90
test_fortran_mixed_CFLAGS = $(MPI_CFLAGS) -g -finstrument-functions $(HT_WARN_CFLAGS)
test_fortran_mixed_FCFLAGS = $(HT_F_TEST_FCFLAGS) -Jtest/fortran/mod_f90 $(HT_F_LEGACY)
test_fortran_mixed_LDADD = $(HT_F_TEST_LDADD) $(MPI_LIBS)
test_fortran_mixed_LDFLAGS = $(HT_TEST_LINK)

# neighbour.F90: use mpi and use mpi_f08, one reference without hooktrace.
check_PROGRAMS += test/fortran/fneighbour_f90 test/fortran/fneighbour_f08 test/fortran/fneighbour_plain
test_fortran_fneighbour_f90_SOURCES = test/fortran/neighbour.F90
test_fortran_fneighbour_f90_FCFLAGS = $(HT_F_TEST_FCFLAGS) -Jtest/fortran/mod_f90 $(HT_F_LEGACY)
test_fortran_fneighbour_f90_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fneighbour_f90_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fneighbour_f08_SOURCES = test/fortran/neighbour.F90
test_fortran_fneighbour_f08_FCFLAGS = $(HT_F_TEST_FCFLAGS) $(HT_F_F08) -Jtest/fortran/mod_f08
test_fortran_fneighbour_f08_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fneighbour_f08_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fneighbour_plain_SOURCES = test/fortran/neighbour.F90
test_fortran_fneighbour_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) -Jtest/fortran/mod_f90_plain $(HT_F_LEGACY)
test_fortran_fneighbour_plain_LDADD = $(MPI_FORT_LIBS)

# nbcoll.F90: likewise.
check_PROGRAMS += test/fortran/fnbcoll_f90 test/fortran/fnbcoll_f08 test/fortran/fnbcoll_plain
test_fortran_fnbcoll_f90_SOURCES = test/fortran/nbcoll.F90
test_fortran_fnbcoll_f90_FCFLAGS = $(HT_F_TEST_FCFLAGS) -Jtest/fortran/mod_f90 $(HT_F_LEGACY)
test_fortran_fnbcoll_f90_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fnbcoll_f90_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fnbcoll_f08_SOURCES = test/fortran/nbcoll.F90
test_fortran_fnbcoll_f08_FCFLAGS = $(HT_F_TEST_FCFLAGS) $(HT_F_F08) -Jtest/fortran/mod_f08
test_fortran_fnbcoll_f08_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fnbcoll_f08_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fnbcoll_plain_SOURCES = test/fortran/nbcoll.F90
test_fortran_fnbcoll_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) -Jtest/fortran/mod_f90_plain $(HT_F_LEGACY)
test_fortran_fnbcoll_plain_LDADD = $(MPI_FORT_LIBS)

# sends.F90: use mpi, include 'mpif.h' and use mpi_f08, one reference.
check_PROGRAMS += test/fortran/fsends_f90 test/fortran/fsends_f77 test/fortran/fsends_f08 \
	test/fortran/fsends_plain
test_fortran_fsends_f90_SOURCES = test/fortran/sends.F90
test_fortran_fsends_f90_FCFLAGS = $(HT_F_TEST_FCFLAGS) -Jtest/fortran/mod_f90 $(HT_F_LEGACY)
test_fortran_fsends_f90_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fsends_f90_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fsends_f77_SOURCES = test/fortran/sends.F90
test_fortran_fsends_f77_FCFLAGS = $(HT_F_TEST_FCFLAGS) -DHT_MPIF_H -Jtest/fortran/mod_f77 $(HT_F_LEGACY)
test_fortran_fsends_f77_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fsends_f77_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fsends_f08_SOURCES = test/fortran/sends.F90
test_fortran_fsends_f08_FCFLAGS = $(HT_F_TEST_FCFLAGS) $(HT_F_F08) -Jtest/fortran/mod_f08
test_fortran_fsends_f08_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fsends_f08_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fsends_plain_SOURCES = test/fortran/sends.F90
test_fortran_fsends_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) -Jtest/fortran/mod_f90_plain $(HT_F_LEGACY)
test_fortran_fsends_plain_LDADD = $(MPI_FORT_LIBS)

# requests.F90: likewise.
check_PROGRAMS += test/fortran/freq_f90 test/fortran/freq_f77 test/fortran/freq_f08 test/fortran/freq_plain
test_fortran_freq_f90_SOURCES = test/fortran/requests.F90
test_fortran_freq_f90_FCFLAGS = $(HT_F_TEST_FCFLAGS) -Jtest/fortran/mod_f90 $(HT_F_LEGACY)
test_fortran_freq_f90_LDADD = $(HT_F_TEST_LDADD)
test_fortran_freq_f90_LDFLAGS = $(HT_TEST_LINK)
test_fortran_freq_f77_SOURCES = test/fortran/requests.F90
test_fortran_freq_f77_FCFLAGS = $(HT_F_TEST_FCFLAGS) -DHT_MPIF_H -Jtest/fortran/mod_f77 $(HT_F_LEGACY)
test_fortran_freq_f77_LDADD = $(HT_F_TEST_LDADD)
test_fortran_freq_f77_LDFLAGS = $(HT_TEST_LINK)
test_fortran_freq_f08_SOURCES = test/fortran/requests.F90
test_fortran_freq_f08_FCFLAGS = $(HT_F_TEST_FCFLAGS) $(HT_F_F08) -Jtest/fortran/mod_f08
test_fortran_freq_f08_LDADD = $(HT_F_TEST_LDADD)
test_fortran_freq_f08_LDFLAGS = $(HT_TEST_LINK)
test_fortran_freq_plain_SOURCES = test/fortran/requests.F90
test_fortran_freq_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) -Jtest/fortran/mod_f90_plain $(HT_F_LEGACY)
test_fortran_freq_plain_LDADD = $(MPI_FORT_LIBS)

# rma.F90: likewise.
check_PROGRAMS += test/fortran/frma_f90 test/fortran/frma_f77 test/fortran/frma_f08 test/fortran/frma_plain
test_fortran_frma_f90_SOURCES = test/fortran/rma.F90
test_fortran_frma_f90_FCFLAGS = $(HT_F_TEST_FCFLAGS) -Jtest/fortran/mod_f90 $(HT_F_LEGACY)
test_fortran_frma_f90_LDADD = $(HT_F_TEST_LDADD)
test_fortran_frma_f90_LDFLAGS = $(HT_TEST_LINK)
test_fortran_frma_f77_SOURCES = test/fortran/rma.F90
test_fortran_frma_f77_FCFLAGS = $(HT_F_TEST_FCFLAGS) -DHT_MPIF_H -Jtest/fortran/mod_f77 $(HT_F_LEGACY)
test_fortran_frma_f77_LDADD = $(HT_F_TEST_LDADD)
test_fortran_frma_f77_LDFLAGS = $(HT_TEST_LINK)
test_fortran_frma_f08_SOURCES = test/fortran/rma.F90
test_fortran_frma_f08_FCFLAGS = $(HT_F_TEST_FCFLAGS) $(HT_F_F08) -Jtest/fortran/mod_f08
test_fortran_frma_f08_LDADD = $(HT_F_TEST_LDADD)
test_fortran_frma_f08_LDFLAGS = $(HT_TEST_LINK)
test_fortran_frma_plain_SOURCES = test/fortran/rma.F90
test_fortran_frma_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) -Jtest/fortran/mod_f90_plain $(HT_F_LEGACY)
test_fortran_frma_plain_LDADD = $(MPI_FORT_LIBS)

# regions.F90: `use hooktrace` (the module built at the top, hooktrace.mod)
# and the same calls without it.
check_PROGRAMS += test/fortran/fregions
test_fortran_fregions_SOURCES = test/fortran/regions.F90
test_fortran_fregions_FCFLAGS = $(HT_F_TEST_FCFLAGS) -I$(top_builddir) -Jtest/fortran/mod_f90 \
	$(HT_F_LEGACY)
test_fortran_fregions_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fregions_LDFLAGS = $(HT_TEST_LINK)

# throttle.F90: throttling's estimate of the hook calls saved, `use mpi` only.
check_PROGRAMS += test/fortran/fthrottle_f90 test/fortran/fthrottle_plain
test_fortran_fthrottle_f90_SOURCES = test/fortran/throttle.F90
test_fortran_fthrottle_f90_FCFLAGS = $(HT_F_TEST_FCFLAGS) -Jtest/fortran/mod_f90 $(HT_F_LEGACY)
test_fortran_fthrottle_f90_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fthrottle_f90_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fthrottle_plain_SOURCES = test/fortran/throttle.F90
test_fortran_fthrottle_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) -Jtest/fortran/mod_f90_plain $(HT_F_LEGACY)
test_fortran_fthrottle_plain_LDADD = $(MPI_FORT_LIBS)

# control.F90: likewise.
check_PROGRAMS += test/fortran/fcontrol_f90 test/fortran/fcontrol_f77 test/fortran/fcontrol_f08 \
	test/fortran/fcontrol_plain
test_fortran_fcontrol_f90_SOURCES = test/fortran/control.F90
test_fortran_fcontrol_f90_FCFLAGS = $(HT_F_TEST_FCFLAGS) -Jtest/fortran/mod_f90 $(HT_F_LEGACY)
test_fortran_fcontrol_f90_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fcontrol_f90_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fcontrol_f77_SOURCES = test/fortran/control.F90
test_fortran_fcontrol_f77_FCFLAGS = $(HT_F_TEST_FCFLAGS) -DHT_MPIF_H -Jtest/fortran/mod_f77 $(HT_F_LEGACY)
test_fortran_fcontrol_f77_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fcontrol_f77_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fcontrol_f08_SOURCES = test/fortran/control.F90
test_fortran_fcontrol_f08_FCFLAGS = $(HT_F_TEST_FCFLAGS) $(HT_F_F08) -Jtest/fortran/mod_f08
test_fortran_fcontrol_f08_LDADD = $(HT_F_TEST_LDADD)
test_fortran_fcontrol_f08_LDFLAGS = $(HT_TEST_LINK)
test_fortran_fcontrol_plain_SOURCES = test/fortran/control.F90
test_fortran_fcontrol_plain_FCFLAGS = $(HT_F_PLAIN_FCFLAGS) -Jtest/fortran/mod_f90_plain $(HT_F_LEGACY)
test_fortran_fcontrol_plain_LDADD = $(MPI_FORT_LIBS)

HT_FORTRAN_TESTS = test/fortran/fortran.py test/fortran/mixed.py test/fortran/coll.py \
	test/fortran/neighbour.py test/fortran/nbcoll.py test/fortran/sends.py test/fortran/requests.py \
	test/fortran/rma.py test/fortran/control.py test/fortran/heat_demo.py test/fortran/throttle.py \
	test/fortran/regions.py \
	test/fortran/mpi4.py
TESTS += $(HT_FORTRAN_TESTS)
endif
