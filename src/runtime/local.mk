# runtime: start-up and shut-down in one place (runtime.h)
noinst_LTLIBRARIES += libht_runtime.la
libht_runtime_la_SOURCES = \
	src/runtime/runtime.h \
	src/runtime/lifecycle.c \
	src/runtime/exclusions.c src/runtime/exclusions.h \
	src/runtime/libraries.c \
	src/runtime/finish.c \
	src/runtime/metadata.c src/runtime/metadata.h \
	src/runtime/signals.c \
	src/runtime/signal_actions.h \
	src/runtime/signal_actions.c \
	src/runtime/fork.c \
	src/runtime/pause.c \
	src/runtime/hook_binding.c \
	src/runtime/overhead.c \
	src/runtime/progress.c src/runtime/progress.h
libht_runtime_la_CPPFLAGS = $(HT_LIB_CPPFLAGS) $(MPI_CFLAGS)
libht_runtime_la_CFLAGS = $(HT_LIB_CFLAGS)
