# hooks: the instrumentation entry points, thread state, clock, start-up and
# shut-down.  libhooktrace.la is the installed library: these files plus the
# module convenience libraries.
libhooktrace_la_SOURCES = \
	src/hooks/hooks.c src/hooks/hooks.h \
	src/hooks/clock.c src/hooks/clock.h \
	src/hooks/thread.c src/hooks/thread.h \
	src/hooks/lifecycle.c src/hooks/lifecycle.h \
	src/hooks/finish.c \
	src/hooks/overhead.c \
	src/hooks/longjmp.c \
	src/hooks/throttle.c src/hooks/throttle.h \
	src/hooks/patch.c src/hooks/patch.h \
	src/hooks/code_range.c src/hooks/code_range.h \
	src/common/compiler.h
libhooktrace_la_CPPFLAGS = $(HT_LIB_CPPFLAGS)
libhooktrace_la_CFLAGS = $(HT_LIB_CFLAGS)
libhooktrace_la_LIBADD = libht_mpi.la libht_output.la libht_callstack.la libht_symbols.la \
	libht_config.la $(DWARF_LIBS) $(LIBELF_LIBS) $(JANSSON_LIBS) $(MPI_LIBS) -ldl -lm
libhooktrace_la_LDFLAGS = -version-info 0:0:0
