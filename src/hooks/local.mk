# hooks: the instrumentation entry points (__cyg_profile_func_*, longjmp,
# dlclose, sigaction/signal, libgomp's parallel regions and tasks).
# libhooktrace.la is the installed library: these files plus the module
# convenience libraries.
libhooktrace_la_SOURCES = \
	src/hooks/hooks.c src/hooks/hooks.h src/hooks/regions.c \
	src/hooks/longjmp.c \
	src/hooks/dlclose.c \
	src/hooks/signals.c \
	src/hooks/openmp.c src/hooks/openmp_tasks.c src/hooks/openmp.h \
	src/common/compiler.h
libhooktrace_la_CPPFLAGS = $(HT_LIB_CPPFLAGS)
libhooktrace_la_CFLAGS = $(HT_LIB_CFLAGS)
libhooktrace_la_LIBADD = libht_runtime.la libht_mpi.la libht_merge.la libht_output.la libht_mpit.la libht_throttle.la libht_callstack.la libht_symbols.la \
	libht_config.la libht_common.la $(DWARF_LIBS) $(LIBELF_LIBS) $(JANSSON_LIBS) -ldl -lm
libhooktrace_la_LDFLAGS = -version-info 0:0:0
