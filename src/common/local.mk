# common: helpers every floor may use: the clock a hook reads, output folders
noinst_LTLIBRARIES += libht_common.la
libht_common_la_SOURCES = src/common/compiler.h \
	src/common/clock.c src/common/clock.h \
	src/common/directory.c src/common/directory.h
libht_common_la_CPPFLAGS = $(HT_LIB_CPPFLAGS)
libht_common_la_CFLAGS = $(HT_LIB_CFLAGS)
