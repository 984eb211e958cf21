# Man pages (mdoc) and the documentation, installed: the tools' --help texts
# name $(docdir) (HT_DOC_CPPFLAGS).  The docs keep their source-tree layout
# under $(docdir), so that README.md's links to docs/*.md hold there too.
dist_man_MANS = man/hooktrace.1 man/hooktrace-report.1 man/hooktrace-check-config.1 \
	man/hooktrace-score.1
if HT_OTF2
dist_man_MANS += man/hooktrace-analyze.1
else
EXTRA_DIST += man/hooktrace-analyze.1
endif
# hooktrace-config(5): its list of options is made from docs/config.md (the
# one description of every option) by man/config_man.py.
man_MANS = hooktrace-config.5
CLEANFILES += hooktrace-config.5
# Built here, carried in the tarball too (every man page is in `make dist`).
EXTRA_DIST += man/config_man.py man/hooktrace-config.5.in man/local.mk hooktrace-config.5
hooktrace-config.5: $(srcdir)/man/config_man.py $(srcdir)/man/hooktrace-config.5.in \
		$(srcdir)/docs/config.md Makefile
	$(AM_V_GEN)$(PYTHON3) $(srcdir)/man/config_man.py $(srcdir)/man/hooktrace-config.5.in \
		$(srcdir)/docs/config.md '$(docdir)' '$(PACKAGE_VERSION)' > $@.tmp && mv $@.tmp $@

dist_doc_DATA = README.md BENCHMARKS.md
htdocsdir = $(docdir)/docs
dist_htdocs_DATA = docs/README.md docs/analyze.md docs/analyze_output.md docs/architecture.md \
	docs/clang.md docs/compare.md docs/compile.md docs/config.md docs/configure.md docs/counters.md \
	docs/files.md docs/filter.md docs/fortran.md docs/fuzzing.md docs/install.md docs/internals.md docs/mpi.md \
	docs/mpi_routines.md docs/mpi_t.md docs/output.md docs/output_mpi.md docs/plugin.md docs/reading.md \
	docs/regions.md docs/report.md docs/rewriting.md docs/score.md docs/symbols.md docs/throttle.md \
	docs/trace.md docs/troubleshooting.md docs/what_happens.md
