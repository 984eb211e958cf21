# callstack: the per-thread tree and the merged profile
noinst_LTLIBRARIES += libht_callstack.la
libht_callstack_la_SOURCES = \
	src/callstack/tree.c src/callstack/tree.h \
	src/callstack/phases.c src/callstack/phases.h \
	src/callstack/thread.c src/callstack/thread.h src/callstack/thread_reuse.c \
	src/callstack/functions.c src/callstack/functions.h \
	src/callstack/profile.c src/callstack/profile.h \
	src/callstack/function_table.c src/callstack/function_table.h \
	src/callstack/regions.c src/callstack/regions.h
libht_callstack_la_CPPFLAGS = $(HT_LIB_CPPFLAGS)
libht_callstack_la_CFLAGS = $(HT_LIB_CFLAGS)
