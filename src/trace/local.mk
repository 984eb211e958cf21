# trace: trace mode.  Per-thread event buffers filled while the program runs
# (calls.c, mpi_events.c, buffer.c), turned into an OTF2 archive at the end
# (archive*.c).  Part of libhooktrace.
noinst_LTLIBRARIES += libht_trace.la
libht_trace_la_SOURCES = \
	src/trace/trace.h src/trace/calls.c \
	src/trace/buffer.h src/trace/buffer.c \
	src/trace/comms.h src/trace/comms.c \
	src/trace/clock_sync.h src/trace/clock_sync.c \
	src/trace/clock_skew.h src/trace/clock_skew.c \
	src/trace/mpi_events.h src/trace/mpi_events.c \
	src/trace/writer.h \
	src/trace/volume.h src/trace/volume.c
# The archive writer is the one part that calls OTF2; configure
# --without-otf2 puts a writer of nothing in its place (trace mode is then
# refused at start-up, calls.c).
if HT_OTF2
libht_trace_la_SOURCES += \
	src/trace/archive_internal.h src/trace/archive.c \
	src/trace/archive_events.h src/trace/archive_events.c \
	src/trace/definitions.c \
	src/trace/regions.h src/trace/regions.c \
	src/trace/unify.h src/trace/unify.c
else
libht_trace_la_SOURCES += src/trace/no_archive.c
endif
libht_trace_la_CPPFLAGS = $(HT_LIB_CPPFLAGS) $(OTF2_CFLAGS) $(MPI_CFLAGS)
libht_trace_la_CFLAGS = $(HT_LIB_CFLAGS)
libht_trace_la_LIBADD = $(OTF2_LIBS)
libhooktrace_la_LIBADD += libht_trace.la $(OTF2_LIBS)
