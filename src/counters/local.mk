# counters: PAPI events read around every recorded call, when the config
# names some (counters.h); without PAPI, only the message that says so
noinst_LTLIBRARIES += libht_counters.la
libht_counters_la_SOURCES = src/counters/counters.h
if HAVE_PAPI
libht_counters_la_SOURCES += src/counters/counters_papi.c
else
libht_counters_la_SOURCES += src/counters/counters_none.c
endif
libht_counters_la_CPPFLAGS = $(HT_LIB_CPPFLAGS) $(PAPI_CFLAGS)
libht_counters_la_CFLAGS = $(HT_LIB_CFLAGS)
libht_counters_la_LIBADD = $(PAPI_LIBS)
libhooktrace_la_LIBADD += libht_counters.la $(PAPI_LIBS)
