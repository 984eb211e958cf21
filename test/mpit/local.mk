# MPI_T tests (issue 7; docs/mpi_t.md): small MPI programs built like the
# ones in test/mpi (HT_MPI_TEST_CFLAGS and friends come from
# test/mpi/local.mk), run by Python scripts that assert exact figures from
# the JSON and the logfile (helpers: test/mpi/mpilib.py).  counting.h lets
# a program count hooktrace's own MPI_T calls.
check_PROGRAMS += test/mpit/queues test/mpit/threads test/mpit/traffic

test_mpit_queues_SOURCES = test/mpit/queues.c test/mpit/counting.h
test_mpit_queues_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpit_queues_LDADD = $(HT_MPI_TEST_LDADD)
test_mpit_queues_LDFLAGS = $(HT_TEST_LINK)

test_mpit_threads_SOURCES = test/mpit/threads.c test/mpit/counting.h
test_mpit_threads_CFLAGS = $(HT_MPI_TEST_CFLAGS) -pthread
test_mpit_threads_LDADD = $(HT_MPI_TEST_LDADD)
test_mpit_threads_LDFLAGS = $(HT_TEST_LINK) -pthread

test_mpit_traffic_SOURCES = test/mpit/traffic.c test/mpit/counting.h
test_mpit_traffic_CFLAGS = $(HT_MPI_TEST_CFLAGS)
test_mpit_traffic_LDADD = $(HT_MPI_TEST_LDADD)
test_mpit_traffic_LDFLAGS = $(HT_TEST_LINK)

HT_MPIT_TESTS = test/mpit/config.py test/mpit/cvars.py test/mpit/pvars.py \
	test/mpit/threads.py test/mpit/monitoring.py test/mpit/startup.py \
	test/mpit/once.py
TESTS += $(HT_MPIT_TESTS)
EXTRA_DIST += test/mpit/mpitlib.py $(HT_MPIT_TESTS)

# Only these tests: make check-mpit
check-mpit:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(HT_MPIT_TESTS)'
.PHONY: check-mpit

# --- benchmark: added cost per MPI call with 0, 1 and 10 pvars read ----------
# `make bench-mpit` builds bench/mpit_calls (linked with libhooktrace) and
# bench/mpit_calls_plain (MPI only), and runs bench/mpit_cost.py, which runs
# them with 1 rank under $(MPIEXEC) (see BENCHMARKS.md, "MPI wrappers").  Extra
# driver options: make bench-mpit BENCH_MPIT_ARGS='--rounds 3'
# Plain rules rather than automake programs: bench/local.mk owns
# EXTRA_PROGRAMS and is included after this file.
HT_MPIT_BENCH_CC = $(CC) $(AM_CPPFLAGS) $(CPPFLAGS) $(MPI_CFLAGS) $(AM_CFLAGS) $(CFLAGS) -O2
bench/mpit_calls$(EXEEXT): $(srcdir)/bench/mpit_calls.c libhooktrace.la
	@$(MKDIR_P) bench
	$(AM_V_CCLD)$(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(HT_MPIT_BENCH_CC) -no-install \
	  $(LDFLAGS) -Wl,--no-as-needed -o $@ $(srcdir)/bench/mpit_calls.c libhooktrace.la $(MPI_LIBS)
bench/mpit_calls_plain$(EXEEXT): $(srcdir)/bench/mpit_calls.c
	@$(MKDIR_P) bench
	$(AM_V_CCLD)$(HT_MPIT_BENCH_CC) $(LDFLAGS) -o $@ $(srcdir)/bench/mpit_calls.c $(MPI_LIBS)
EXTRA_DIST += bench/mpit_calls.c bench/mpit_cost.py
CLEANFILES += bench/mpit_calls$(EXEEXT) bench/mpit_calls_plain$(EXEEXT)

BENCH_MPIT_ARGS =
bench-mpit: bench/mpit_calls$(EXEEXT) bench/mpit_calls_plain$(EXEEXT)
	$(PYTHON3) $(srcdir)/bench/mpit_cost.py --builddir $(top_builddir) \
	  --mpiexec '$(MPIEXEC)' --mpi '$(HT_MPI_NAME)' $(BENCH_MPIT_ARGS)
.PHONY: bench-mpit
