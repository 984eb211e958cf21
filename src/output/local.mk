# output: logfile, JSON, folded stacks, speedscope, Hatchet, the HTML report, and naming the functions of a profile
noinst_LTLIBRARIES += libht_output.la
libht_output_la_SOURCES = \
	src/output/output.h \
	src/output/files.c \
	src/output/naming.c src/output/naming.h \
	src/output/temporary.c src/output/temporary.h \
	src/output/sort.c \
	src/output/logfile.c \
	src/output/short_name.c \
	src/output/metadata.c \
	src/output/json.c src/output/json_dump.c src/output/json_dump.h \
	src/output/folded.c \
	src/output/function_index.h src/output/function_index.c \
	src/output/speedscope.c \
	src/output/hatchet.c \
	src/output/source_root.c \
	src/output/room.h src/output/room.c \
	src/output/throttle.c \
	src/output/exclude_file.c \
	src/output/html.c src/output/html.h src/output/html_page.h \
	src/output/output_counters.h src/output/counters.c \
	src/output/output_mpi.h src/output/json_mpi.c src/output/logfile_mpi.c \
	src/output/rank_times.c \
	src/output/output_mpit.h src/output/json_mpit.c src/output/logfile_mpit.c
libht_output_la_CPPFLAGS = $(HT_LIB_CPPFLAGS)
libht_output_la_CFLAGS = $(HT_LIB_CFLAGS)
libht_output_la_LIBADD = $(JANSSON_LIBS) -lm
# The HTML report's page (src/report/local.mk generates it).
nodist_libht_output_la_SOURCES = src/output/html_page.c
