# The HTML report (docs/report.md): the page (web/: template,
# report.js and its helpers lib.js, tree.js and views.js, report.css) with the flame-graph component from npm embedded,
# turned into C arrays at build time (embed.py -> src/output/html_page.c),
# so the library and hooktrace-report read no file at run time and the page
# needs no network.  The component is fetched by `npm ci` into the build
# tree, at the exact versions web/package-lock.json pins.
bin_PROGRAMS += hooktrace-report
hooktrace_report_SOURCES = src/report/main.c src/output/html.c src/output/html.h \
	src/output/html_page.h src/report/cli.c src/report/cli.h src/report/profile.c \
	src/report/profile.h src/report/compare.c src/report/compare.h src/report/compare_sides.c \
	src/report/compare_write.c src/report/scaling.c src/report/page.c src/report/page.h \
	src/report/compare_page.h
nodist_hooktrace_report_SOURCES = src/output/html_page.c src/report/compare_page.c
hooktrace_report_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS) $(HT_DOC_CPPFLAGS)
hooktrace_report_CFLAGS = $(HT_WARN_CFLAGS) $(HT_NOINSTR_CFLAGS)
hooktrace_report_LDADD = $(JANSSON_LIBS) -lm

HT_REPORT_WEB = $(srcdir)/src/report/web
HT_REPORT_NPM = src/report/npm
HT_REPORT_FILES = $(HT_REPORT_WEB)/template.html $(HT_REPORT_WEB)/errors.js \
	$(HT_REPORT_WEB)/lib.js $(HT_REPORT_WEB)/tree.js $(HT_REPORT_WEB)/views.js \
	$(HT_REPORT_WEB)/report.js $(HT_REPORT_WEB)/report.css
EXTRA_DIST += $(HT_REPORT_FILES) $(HT_REPORT_WEB)/package.json \
	$(HT_REPORT_WEB)/package-lock.json src/report/embed.py

# npm ci in the build tree (never in the source tree), once per lock file.
$(HT_REPORT_NPM)/installed: $(HT_REPORT_WEB)/package.json $(HT_REPORT_WEB)/package-lock.json
	$(AM_V_GEN)rm -rf $(HT_REPORT_NPM) && $(MKDIR_P) $(HT_REPORT_NPM) && \
	cp $(HT_REPORT_WEB)/package.json $(HT_REPORT_WEB)/package-lock.json $(HT_REPORT_NPM)/ && \
	(cd $(HT_REPORT_NPM) && $(NPM) ci --ignore-scripts --no-audit --no-fund --prefer-offline \
		--loglevel=error >/dev/null) && touch $@

# From a release tarball the component is already in src/report/vendor
# (dist-hook below), laid out as node_modules is: no npm, no network.
if HT_REPORT_VENDORED
HT_REPORT_MODULES = $(srcdir)/src/report/vendor
HT_REPORT_FETCHED =
else
HT_REPORT_MODULES = $(HT_REPORT_NPM)/node_modules
HT_REPORT_FETCHED = $(HT_REPORT_NPM)/installed
endif
# The files of the component the page embeds (paths under HT_REPORT_MODULES).
HT_REPORT_VENDOR_FILES = d3-flame-graph/LICENSE d3-selection/LICENSE \
	d3-flame-graph/dist/d3-flamegraph.css d3-selection/dist/d3-selection.min.js \
	d3-flame-graph/dist/d3-flamegraph.min.js
if HT_RUNTIME_ONLY
# mpi-NAME (Makefile.am): the primary build's page, made before.
src/output/html_page.c: $(HT_REPORT_PAGE_FROM)
	$(AM_V_GEN)$(MKDIR_P) src/output && cp $(HT_REPORT_PAGE_FROM) $@
else
src/output/html_page.c: $(HT_REPORT_FETCHED) $(HT_REPORT_FILES) $(srcdir)/src/report/embed.py
	$(AM_V_GEN)$(MKDIR_P) src/output && $(PYTHON3) $(srcdir)/src/report/embed.py $@ \
		$(HT_REPORT_WEB)/template.html \
		LICENSE_FLAMEGRAPH=$(HT_REPORT_MODULES)/d3-flame-graph/LICENSE \
		LICENSE_D3=$(HT_REPORT_MODULES)/d3-selection/LICENSE \
		VENDOR_CSS=$(HT_REPORT_MODULES)/d3-flame-graph/dist/d3-flamegraph.css \
		APP_CSS=$(HT_REPORT_WEB)/report.css \
		ERRORS_JS=$(HT_REPORT_WEB)/errors.js \
		VENDOR_JS=$(HT_REPORT_MODULES)/d3-selection/dist/d3-selection.min.js \
		FLAMEGRAPH_JS=$(HT_REPORT_MODULES)/d3-flame-graph/dist/d3-flamegraph.min.js \
		LIB_JS=$(HT_REPORT_WEB)/lib.js TREE_JS=$(HT_REPORT_WEB)/tree.js \
		VIEWS_JS=$(HT_REPORT_WEB)/views.js \
		APP_JS=$(HT_REPORT_WEB)/report.js
endif
BUILT_SOURCES += src/output/html_page.c
CLEANFILES += src/output/html_page.c

# The page of --compare and --scaling (docs/compare.md): no component from
# npm, so it is made from the source tree alone.
HT_COMPARE_FILES = $(HT_REPORT_WEB)/compare.html $(HT_REPORT_WEB)/compare.js
EXTRA_DIST += $(HT_COMPARE_FILES)
src/report/compare_page.c: $(HT_COMPARE_FILES) $(HT_REPORT_WEB)/errors.js \
		$(HT_REPORT_WEB)/report.css $(srcdir)/src/report/embed.py
	$(AM_V_GEN)$(MKDIR_P) src/report && $(PYTHON3) $(srcdir)/src/report/embed.py $@ \
		$(HT_REPORT_WEB)/compare.html --symbol=ht_compare_page \
		--header=report/compare_page.h \
		APP_CSS=$(HT_REPORT_WEB)/report.css \
		ERRORS_JS=$(HT_REPORT_WEB)/errors.js \
		COMPARE_JS=$(HT_REPORT_WEB)/compare.js
BUILT_SOURCES += src/report/compare_page.c
CLEANFILES += src/report/compare_page.c

clean-local: clean-report-npm
clean-report-npm:
	rm -rf $(HT_REPORT_NPM)
.PHONY: clean-report-npm

# A release tarball carries the component, so that it builds offline.
dist-hook: dist-report-vendor
dist-report-vendor: $(HT_REPORT_FETCHED)
	for f in $(HT_REPORT_VENDOR_FILES); do \
		$(MKDIR_P) "$(distdir)/src/report/vendor/$$(dirname $$f)" && \
		cp "$(HT_REPORT_MODULES)/$$f" "$(distdir)/src/report/vendor/$$f" || exit 1; \
	done
.PHONY: dist-report-vendor
