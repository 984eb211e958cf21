# Trace-mode tests: programs run with "trace": {"enabled": true}; every
# archive is read back with otf2-print (exit status 0), and its events are
# compared with the profile of the same run: Enter events per region equal
# the calls, and per sender and receiver the MpiSend + MpiIsend events equal
# the comm_matrix.  Helpers: test/trace/otf2lib.py.
HT_TRACE_TESTS = test/trace/serial.py test/trace/mpi.py test/trace/analyze.py \
	test/trace/wait_states.py test/trace/clocks.py
# Throttle markers, trace.max_bytes_per_rank and hooktrace-score (issue 26).
HT_TRACE_TESTS += test/trace/volume.py
if HT_OTF2
TESTS += $(HT_TRACE_TESTS)
endif
EXTRA_DIST += test/trace/otf2lib.py $(HT_TRACE_TESTS)

check-trace:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(HT_TRACE_TESTS)'
.PHONY: check-trace
