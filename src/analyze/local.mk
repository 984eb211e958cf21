# hooktrace-analyze: the OTF2 analyzer program (issue 6, docs/analyze.md).
# A program of its own: links OTF2 and jansson, never libhooktrace or MPI.
# Not built by configure --without-otf2 (docs/install.md).
if HT_OTF2
bin_PROGRAMS += hooktrace-analyze
hooktrace_analyze_SOURCES = src/analyze/launcher.c src/analyze/launcher.h \
	$(HT_ANALYZE_SOURCES)
HT_ANALYZE_SOURCES = \
	src/analyze/main.c \
	src/analyze/options.c src/analyze/options.h \
	src/analyze/fail.c src/analyze/fail.h \
	src/analyze/hashmap.c src/analyze/hashmap.h \
	src/analyze/pool.c src/analyze/pool.h \
	src/analyze/endpoint.h \
	src/analyze/clock_correct.c src/analyze/clock_correct.h \
	src/analyze/rankmap.c src/analyze/rankmap.h \
	src/analyze/translate.c src/analyze/translate.h \
	src/analyze/match.c src/analyze/match.h \
	src/analyze/matrix.c src/analyze/matrix.h \
	src/analyze/warnings.c src/analyze/warnings.h \
	src/analyze/analysis.c src/analyze/analysis.h \
	src/analyze/calltree.c src/analyze/calltree.h \
	src/analyze/locstate.c src/analyze/locstate.h \
	src/analyze/collective.c src/analyze/collective.h \
	src/analyze/waitstate.c src/analyze/waitstate.h src/analyze/wait_pattern.h \
	src/analyze/archive.c src/analyze/archive.h \
	src/analyze/archive_events.h src/analyze/archive_waits.c \
	src/analyze/archive_par.c src/analyze/archive_par.h src/analyze/archive_share.h \
	src/analyze/archive_records.c \
	src/analyze/progress.c src/analyze/progress.h \
	src/analyze/output_file.c src/analyze/output_file.h \
	src/analyze/report.h src/analyze/report_text.c src/analyze/report_json.c \
	src/analyze/report_csv.c src/analyze/report_svg.c src/analyze/report_html.c
hooktrace_analyze_CPPFLAGS = $(AM_CPPFLAGS) $(HT_DOC_CPPFLAGS) $(OTF2_CFLAGS) $(JANSSON_CFLAGS) \
	-DHT_PKGLIBEXECDIR='"$(pkglibexecdir)"' -DHT_PRIMARY_MPI='"$(HT_MPI_FAMILY)"'
hooktrace_analyze_CFLAGS = $(HT_WARN_CFLAGS) $(HT_NOINSTR_CFLAGS) -pthread
hooktrace_analyze_LDADD = $(OTF2_LIBS) $(JANSSON_LIBS) -lm -lpthread

# hooktrace-analyze-mpi: the same program for mpirun (archive_mpi.c), one
# per MPI: built here for the primary MPI and in mpi-NAME (by its `runtime`
# target, Makefile.am) for the others; installed as
# $(pkglibexecdir)/hooktrace-analyze-mpi-NAME, where hooktrace-analyze
# finds it when a launcher started it (launcher.c).
noinst_PROGRAMS += hooktrace-analyze-mpi
hooktrace_analyze_mpi_SOURCES = $(HT_ANALYZE_SOURCES) \
	src/analyze/archive_mpi.c src/analyze/archive_mpi.h
hooktrace_analyze_mpi_CPPFLAGS = $(hooktrace_analyze_CPPFLAGS) $(MPI_CFLAGS) -DHT_ANALYZE_MPI
hooktrace_analyze_mpi_CFLAGS = $(hooktrace_analyze_CFLAGS)
hooktrace_analyze_mpi_LDADD = $(hooktrace_analyze_LDADD) $(MPI_LIBS)
install-analyze-mpi: hooktrace-analyze-mpi$(EXEEXT)
	$(MKDIR_P) "$(DESTDIR)$(pkglibexecdir)"
	$(INSTALL_PROGRAM) hooktrace-analyze-mpi$(EXEEXT) \
		"$(DESTDIR)$(pkglibexecdir)/hooktrace-analyze-mpi-$(HT_MPI_FAMILY)$(EXEEXT)"
uninstall-analyze-mpi:
	rm -f "$(DESTDIR)$(pkglibexecdir)/hooktrace-analyze-mpi-$(HT_MPI_FAMILY)$(EXEEXT)"

# --- benchmark (BENCHMARKS.md, "Analyzer") -------------------------------------
# `make bench-analyze` writes a synthetic archive of >= 10 million events,
# then times a bare OTF2 read loop and hooktrace-analyze over it and reports
# events/s, their ratio and peak RSS.  Driver options:
#   make bench-analyze BENCH_ANALYZE_ARGS='--rounds 3 --iterations 40000'
# The two helper programs are check programs (not EXTRA_PROGRAMS, which
# bench/local.mk assigns): they build in seconds and so get the same
# -Werror and sanitizer builds as the tests.
check_PROGRAMS += bench/analyze_write_trace bench/analyze_read_loop
bench_analyze_write_trace_SOURCES = bench/analyze_write_trace.c \
	test/analyze/trace_writer.c test/analyze/trace_writer.h
bench_analyze_write_trace_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/test/analyze $(OTF2_CFLAGS)
bench_analyze_write_trace_LDADD = $(OTF2_LIBS)
bench_analyze_read_loop_SOURCES = bench/analyze_read_loop.c
bench_analyze_read_loop_CPPFLAGS = $(AM_CPPFLAGS) $(OTF2_CFLAGS)
bench_analyze_read_loop_LDADD = $(OTF2_LIBS)
EXTRA_DIST += bench/analyze_bench.py bench/analyze_ab.py bench/analyze_scaling.py

BENCH_ANALYZE_ARGS =
bench-analyze: hooktrace-analyze$(EXEEXT) bench/analyze_write_trace$(EXEEXT) \
		bench/analyze_read_loop$(EXEEXT)
	$(PYTHON3) $(srcdir)/bench/analyze_bench.py --builddir $(top_builddir) $(BENCH_ANALYZE_ARGS)
BENCH_ANALYZE_SCALING_ARGS =
bench-analyze-scaling: hooktrace-analyze$(EXEEXT) hooktrace-analyze-mpi$(EXEEXT) \
		bench/analyze_write_trace$(EXEEXT)
	$(PYTHON3) $(srcdir)/bench/analyze_scaling.py --builddir $(top_builddir) \
		$(BENCH_ANALYZE_SCALING_ARGS)
HT_ANALYZE_MPI_PROGRAM = hooktrace-analyze-mpi$(EXEEXT)
else
HT_ANALYZE_MPI_PROGRAM =
install-analyze-mpi:
uninstall-analyze-mpi:
endif
.PHONY: install-analyze-mpi uninstall-analyze-mpi bench-analyze bench-analyze-scaling
