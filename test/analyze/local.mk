# Tests of hooktrace-analyze: synthetic OTF2 archives with known answers,
# written by write_scenario with the OTF2 writer API, analysed by the
# program as a user runs it; one Python driver per concern asserts the
# exact figures (docs/analyze.md describes what is checked).
# Built and run only where OTF2 is (configure --without-otf2 has no analyzer).
if HT_OTF2
check_PROGRAMS += test/analyze/write_scenario
test_analyze_write_scenario_SOURCES = test/analyze/write_scenario.c \
	test/analyze/scenarios.h test/analyze/scenarios_requests.c \
	test/analyze/scenarios_ranks.c test/analyze/scenarios_matching.c \
	test/analyze/scenarios_waits.c \
	test/analyze/scenarios_clocks.c \
	test/analyze/trace_writer.c test/analyze/trace_writer.h
test_analyze_write_scenario_CPPFLAGS = $(AM_CPPFLAGS) $(OTF2_CFLAGS)
test_analyze_write_scenario_LDADD = $(OTF2_LIBS)
endif

# The hash table every lookup of the analyzer uses, against a plain array.
check_PROGRAMS += test/analyze/hashmap_test
test_analyze_hashmap_test_SOURCES = test/analyze/hashmap_test.c src/analyze/hashmap.c \
	src/analyze/hashmap.h src/analyze/fail.c src/analyze/fail.h
test_analyze_hashmap_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/test

HT_ANALYZE_TESTS = test/analyze/hashmap_test test/analyze/nonblocking.py test/analyze/ranks.py \
	test/analyze/warnings.py test/analyze/outputs.py test/analyze/malformed.py \
	test/analyze/streaming.py test/analyze/waits.py test/analyze/threads.py \
	test/analyze/mpirun.py test/analyze/clocks.py
if HT_OTF2
TESTS += $(HT_ANALYZE_TESTS)
endif
EXTRA_DIST += test/analyze/analyzelib.py test/analyze/lsan.supp test/analyze/valgrind.supp $(filter %.py,$(HT_ANALYZE_TESTS))
