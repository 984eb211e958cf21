# MPI tests (test/mpi): small deterministic MPI programs, built like a user
# would build them (mpi.h, -finstrument-functions, linked with libhooktrace),
# run under the launcher configure found ($(MPIEXEC), exported to the
# scripts as HT_MPIEXEC) by Python scripts that assert exact message counts,
# bytes and peers from the JSON profile (helpers: test/mpi/mpilib.py; the
# models of the messages, shared with test/fortran: test/mpi/models.py).
# Each program also has a *_plain copy built without hooktrace: the
# reference for its standard output.
HT_MPI_TEST_CFLAGS = $(MPI_CFLAGS) -g -finstrument-functions $(HT_WARN_CFLAGS)
HT_MPI_PLAIN_CFLAGS = $(MPI_CFLAGS) -g $(HT_WARN_CFLAGS)
HT_MPI_TEST_LDADD = libhooktrace.la $(MPI_LIBS)

# Rank 0 under a file size limit that fails the JSON alone (test/mpi/file_limit.py).
check_PROGRAMS += test/mpi/file_limit test/mpi/file_limit_plain
test_mpi_file_limit_SOURCES = test/mpi/file_limit.c
test_mpi_file_limit_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_file_limit_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_file_limit_LDFLAGS = $(HT_TEST_LINK)
test_mpi_file_limit_plain_SOURCES = test/mpi/file_limit.c
test_mpi_file_limit_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS)
test_mpi_file_limit_plain_LDADD = $(MPI_LIBS)

check_PROGRAMS += test/mpi/lifecycle_mpi test/mpi/lifecycle_mpi_plain
test_mpi_lifecycle_mpi_SOURCES = test/mpi/lifecycle_mpi.c
test_mpi_lifecycle_mpi_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_lifecycle_mpi_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_lifecycle_mpi_LDFLAGS = $(HT_TEST_LINK)
test_mpi_lifecycle_mpi_plain_SOURCES = test/mpi/lifecycle_mpi.c
test_mpi_lifecycle_mpi_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS)
test_mpi_lifecycle_mpi_plain_LDADD = $(MPI_LIBS)

# The profile's metadata (test/mpi/metadata.py) and PAPI's messages once per
# job (test/mpi/counters_once.py).
check_PROGRAMS += test/mpi/library_version
test_mpi_library_version_SOURCES = test/mpi/library_version.c
test_mpi_library_version_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_library_version_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_library_version_LDFLAGS = $(HT_TEST_LINK)

check_PROGRAMS += test/mpi/p2p test/mpi/requests test/mpi/collectives test/mpi/rma \
	test/mpi/control test/mpi/throttle_mpi \
	test/mpi/p2p_plain test/mpi/requests_plain test/mpi/collectives_plain \
	test/mpi/rma_plain test/mpi/control_plain test/mpi/throttle_mpi_plain

test_mpi_p2p_SOURCES = test/mpi/p2p.c test/mpi/common.h
test_mpi_p2p_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_p2p_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_p2p_LDFLAGS = $(HT_TEST_LINK)
test_mpi_p2p_plain_SOURCES = test/mpi/p2p.c test/mpi/common.h
test_mpi_p2p_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS)
test_mpi_p2p_plain_LDADD = $(MPI_LIBS)

test_mpi_requests_SOURCES = test/mpi/requests.c test/mpi/common.h
test_mpi_requests_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_requests_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_requests_LDFLAGS = $(HT_TEST_LINK)
test_mpi_requests_plain_SOURCES = test/mpi/requests.c test/mpi/common.h
test_mpi_requests_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS)
test_mpi_requests_plain_LDADD = $(MPI_LIBS)

test_mpi_collectives_SOURCES = test/mpi/collectives.c test/mpi/common.h
test_mpi_collectives_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_collectives_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_collectives_LDFLAGS = $(HT_TEST_LINK)
test_mpi_collectives_plain_SOURCES = test/mpi/collectives.c test/mpi/common.h
test_mpi_collectives_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS)
test_mpi_collectives_plain_LDADD = $(MPI_LIBS)

test_mpi_rma_SOURCES = test/mpi/rma.c test/mpi/common.h
test_mpi_rma_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_rma_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_rma_LDFLAGS = $(HT_TEST_LINK)
test_mpi_rma_plain_SOURCES = test/mpi/rma.c test/mpi/common.h
test_mpi_rma_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS)
test_mpi_rma_plain_LDADD = $(MPI_LIBS)

test_mpi_control_SOURCES = test/mpi/control.c test/mpi/common.h
test_mpi_control_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_control_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_control_LDFLAGS = $(HT_TEST_LINK)
test_mpi_control_plain_SOURCES = test/mpi/control.c test/mpi/common.h
test_mpi_control_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS)
test_mpi_control_plain_LDADD = $(MPI_LIBS)

# Every rank dlopens, calls and dlcloses test/programs/libdlclosefix.so
# (test/mpi/dlclose.py).
check_PROGRAMS += test/mpi/dlclose_mpi
test_mpi_dlclose_mpi_SOURCES = test/programs/dlclose_main.c
test_mpi_dlclose_mpi_CFLAGS = $(HT_MPI_TEST_CFLAGS) -DHT_WITH_MPI
test_mpi_dlclose_mpi_LDADD = $(HT_MPI_TEST_LDADD) -ldl
test_mpi_dlclose_mpi_LDFLAGS = $(HT_TEST_LINK)

# One rank dlopens a library the others lack (test/mpi/names.py).
check_PROGRAMS += test/mpi/names_mpmd test/mpi/deep_recursion_mpi
test_mpi_deep_recursion_mpi_SOURCES = test/mpi/deep_recursion_mpi.c
test_mpi_deep_recursion_mpi_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_deep_recursion_mpi_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_deep_recursion_mpi_LDFLAGS = $(HT_TEST_LINK)
test_mpi_names_mpmd_SOURCES = test/mpi/names_mpmd.c
test_mpi_names_mpmd_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_names_mpmd_LDADD = $(HT_MPI_TEST_LDADD) -ldl
test_mpi_names_mpmd_LDFLAGS = $(HT_TEST_LINK)

test_mpi_throttle_mpi_SOURCES = test/mpi/throttle_mpi.c test/mpi/common.h
test_mpi_throttle_mpi_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_throttle_mpi_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_throttle_mpi_LDFLAGS = $(HT_TEST_LINK)
test_mpi_throttle_mpi_plain_SOURCES = test/mpi/throttle_mpi.c test/mpi/common.h
test_mpi_throttle_mpi_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS)
test_mpi_throttle_mpi_plain_LDADD = $(MPI_LIBS)

# Messages over 2 GiB (test/mpi/large.py): no plain copy (each run copies
# 2.2 GB per message).
check_PROGRAMS += test/mpi/large
test_mpi_large_SOURCES = test/mpi/large.c test/mpi/common.h
test_mpi_large_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_large_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_large_LDFLAGS = $(HT_TEST_LINK)

# Every rank's inclusive time on the top stacks (test/mpi/rank_times.py).
check_PROGRAMS += test/mpi/rank_times test/mpi/rank_times_plain
test_mpi_rank_times_SOURCES = test/mpi/rank_times.c test/mpi/common.h
test_mpi_rank_times_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_rank_times_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_rank_times_LDFLAGS = $(HT_TEST_LINK)
test_mpi_rank_times_plain_SOURCES = test/mpi/rank_times.c test/mpi/common.h
test_mpi_rank_times_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS)
test_mpi_rank_times_plain_LDADD = $(MPI_LIBS)

# MPI_Allreduce repeated from one call site (test/mpi/coll_memo.py).
check_PROGRAMS += test/mpi/coll_memo
test_mpi_coll_memo_SOURCES = test/mpi/coll_memo.c test/mpi/common.h
test_mpi_coll_memo_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_coll_memo_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_coll_memo_LDFLAGS = $(HT_TEST_LINK)

# Derived datatypes freed and made again (test/mpi/type_reuse.py).
check_PROGRAMS += test/mpi/type_reuse
test_mpi_type_reuse_SOURCES = test/mpi/type_reuse.c test/mpi/common.h
test_mpi_type_reuse_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_type_reuse_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_type_reuse_LDFLAGS = $(HT_TEST_LINK)

# Cancelled requests, waited for or freed (test/mpi/cancel.py).
check_PROGRAMS += test/mpi/cancel
test_mpi_cancel_SOURCES = test/mpi/cancel.c test/mpi/common.h
test_mpi_cancel_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_cancel_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_cancel_LDFLAGS = $(HT_TEST_LINK)
# MPI calls inside an OpenMP region (test/mpi/openmp.py).
check_PROGRAMS += test/mpi/openmp_mpi test/mpi/openmp_mpi_plain
test_mpi_openmp_mpi_SOURCES = test/mpi/openmp_mpi.c test/mpi/common.h
test_mpi_openmp_mpi_CFLAGS = $(HT_MPI_TEST_CFLAGS) $(OPENMP_CFLAGS)
test_mpi_openmp_mpi_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_openmp_mpi_LDFLAGS = $(HT_TEST_LINK) $(OPENMP_CFLAGS)
test_mpi_openmp_mpi_plain_SOURCES = test/mpi/openmp_mpi.c test/mpi/common.h
test_mpi_openmp_mpi_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS) $(OPENMP_CFLAGS)
test_mpi_openmp_mpi_plain_LDADD = $(MPI_LIBS)
test_mpi_openmp_mpi_plain_LDFLAGS = $(OPENMP_CFLAGS)

# Counters in an MPI program (test/mpi/counters.py), where PAPI has its SDE
# library.
if HAVE_PAPI_SDE
check_PROGRAMS += test/mpi/counters_mpi
test_mpi_counters_mpi_SOURCES = test/mpi/counters_mpi.c
test_mpi_counters_mpi_CFLAGS = $(HT_MPI_TEST_CFLAGS) $(PAPI_CFLAGS)
test_mpi_counters_mpi_LDADD = $(HT_MPI_TEST_LDADD) -lsde
test_mpi_counters_mpi_LDFLAGS = $(HT_TEST_LINK)
endif
EXTRA_DIST += test/mpi/counters_mpi.c

# One script per program; each runs its program once per configuration
# (60 s limit per launch) and ends with "N passed, N failed".
# A halo exchange for the HTML report, loaded in chromium (test/mpi/report.py).
check_PROGRAMS += test/mpi/report_mpi
test_mpi_report_mpi_SOURCES = test/mpi/report_mpi.c test/mpi/common.h
test_mpi_report_mpi_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_report_mpi_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_report_mpi_LDFLAGS = $(HT_TEST_LINK)

# Requests made on one thread and completed on another (pthreads).
check_PROGRAMS += test/mpi/threads_requests test/mpi/threads_requests_plain
test_mpi_threads_requests_SOURCES = test/mpi/threads_requests.c test/mpi/common.h
test_mpi_threads_requests_CFLAGS = $(HT_MPI_TEST_CFLAGS) -pthread
test_mpi_threads_requests_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_threads_requests_LDFLAGS = $(HT_TEST_LINK) -pthread
test_mpi_threads_requests_plain_SOURCES = test/mpi/threads_requests.c test/mpi/common.h
test_mpi_threads_requests_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS) -pthread
test_mpi_threads_requests_plain_LDADD = $(MPI_LIBS)
test_mpi_threads_requests_plain_LDFLAGS = -pthread

# MPI_Cancel of a receive another thread is testing (test/mpi/cancel_race.py);
# no plain copy: its output is the counts the run itself saw.
check_PROGRAMS += test/mpi/cancel_race
test_mpi_cancel_race_SOURCES = test/mpi/cancel_race.c test/mpi/common.h
test_mpi_cancel_race_CFLAGS = $(HT_MPI_TEST_CFLAGS) -pthread
test_mpi_cancel_race_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_cancel_race_LDFLAGS = $(HT_TEST_LINK) -pthread

# Split and Cartesian communicators, one freed and its handle reused
# (test/mpi/comm_reuse.py).
check_PROGRAMS += test/mpi/comm_reuse test/mpi/comm_reuse_plain
test_mpi_comm_reuse_SOURCES = test/mpi/comm_reuse.c test/mpi/common.h
test_mpi_comm_reuse_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_comm_reuse_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_comm_reuse_LDFLAGS = $(HT_TEST_LINK)
test_mpi_comm_reuse_plain_SOURCES = test/mpi/comm_reuse.c test/mpi/common.h
test_mpi_comm_reuse_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS)
test_mpi_comm_reuse_plain_LDADD = $(MPI_LIBS)

# An MPI 4 sessions program without MPI_Init (test/mpi/sessions.py); it
# exits with 77 where the library has no sessions (Open MPI 4.1).
check_PROGRAMS += test/mpi/sessions test/mpi/sessions_plain
test_mpi_sessions_SOURCES = test/mpi/sessions.c
test_mpi_sessions_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_sessions_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_sessions_LDFLAGS = $(HT_TEST_LINK)
test_mpi_sessions_plain_SOURCES = test/mpi/sessions.c
test_mpi_sessions_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS)
test_mpi_sessions_plain_LDADD = $(MPI_LIBS)

# MPI 4's Isendrecv, persistent collectives and partitioned communication
# (test/mpi/mpi4.py); it exits with 77 where the library has none (Open MPI
# 4.1).  test/mpi/exports.py compares the MPI library's exported MPI_
# routines with the wrapped ones and docs/mpi_routines.md's list.
check_PROGRAMS += test/mpi/mpi4 test/mpi/mpi4_plain
test_mpi_mpi4_SOURCES = test/mpi/mpi4.c test/mpi/common.h
test_mpi_mpi4_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_mpi4_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_mpi4_LDFLAGS = $(HT_TEST_LINK)
test_mpi_mpi4_plain_SOURCES = test/mpi/mpi4.c test/mpi/common.h
test_mpi_mpi4_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS)
test_mpi_mpi4_plain_LDADD = $(MPI_LIBS)

# Regions (docs/regions.md): regions_plain is the same source without
# libhooktrace, whose weak references make the region calls no-ops.
check_PROGRAMS += test/mpi/regions test/mpi/regions_plain
test_mpi_regions_SOURCES = test/mpi/regions.c
test_mpi_regions_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_regions_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_regions_LDFLAGS = $(HT_TEST_LINK)
test_mpi_regions_plain_SOURCES = test/mpi/regions.c
test_mpi_regions_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS)
test_mpi_regions_plain_LDADD = $(MPI_LIBS)

HT_MPI_TESTS = test/mpi/p2p.py test/mpi/requests.py test/mpi/collectives.py test/mpi/rma.py \
	test/mpi/control.py test/mpi/throttle.py test/mpi/names.py test/mpi/dlclose.py \
	test/mpi/large.py test/mpi/cancel.py test/mpi/type_reuse.py test/mpi/coll_memo.py test/mpi/openmp.py \
	test/mpi/deep_output.py test/mpi/lifecycle.py test/mpi/file_limit.py test/mpi/other_formats.py test/mpi/hatchet_thicket.py \
	test/mpi/rank_times.py test/mpi/report.py test/mpi/counters.py \
	test/mpi/threads_requests.py test/mpi/cancel_race.py test/mpi/comm_reuse.py test/mpi/sessions.py test/mpi/abi_mismatch.py \
	test/mpi/metadata.py test/mpi/counters_once.py test/mpi/compare.py test/mpi/descriptors.py \
	test/mpi/mpi4.py test/mpi/exports.py test/mpi/filter.py test/mpi/regions.py test/mpi/phases.py
TESTS += $(HT_MPI_TESTS)
EXTRA_DIST += test/mpi/mpilib.py test/mpi/models.py $(HT_MPI_TESTS)
# Built by abi_mismatch.py itself, with the other MPI's compiler wrappers.
EXTRA_DIST += test/mpi/abi_mismatch.c test/mpi/abi_mismatch.F90

# p2p.c compiled at test time by clang behind the MPI wrapper, through the
# hooktrace command (skipped without clang).
HT_MPI_TESTS += test/mpi/clang_mpi.py

# Only the MPI tests: make check-mpi
check-mpi:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(HT_MPI_TESTS)'
.PHONY: check-mpi

# Planted wait states for hooktrace-analyze (test/trace/wait_states.py).
check_PROGRAMS += test/mpi/wait_states test/mpi/wait_states_plain
test_mpi_wait_states_SOURCES = test/mpi/wait_states.c test/mpi/common.h
test_mpi_wait_states_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpi_wait_states_LDADD = $(HT_MPI_TEST_LDADD)
test_mpi_wait_states_LDFLAGS = $(HT_TEST_LINK)
test_mpi_wait_states_plain_SOURCES = test/mpi/wait_states.c test/mpi/common.h
test_mpi_wait_states_plain_CFLAGS = $(HT_MPI_PLAIN_CFLAGS)
test_mpi_wait_states_plain_LDADD = $(MPI_LIBS)
