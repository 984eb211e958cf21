# throttle: which hot tiny functions stop being recorded, and rewriting
# their hook calls into no-ops in the running process
noinst_LTLIBRARIES += libht_throttle.la
libht_throttle_la_SOURCES = \
	src/throttle/throttle.c src/throttle/throttle.h \
	src/throttle/rule.c src/throttle/rule.h \
	src/throttle/patch.c src/throttle/patch.h \
	src/throttle/code_range.c src/throttle/code_range.h \
	src/throttle/mappings.c src/throttle/mappings.h \
	src/throttle/site_proof.c src/throttle/site_proof.h \
	src/throttle/noreturn.c src/throttle/noreturn.h \
	src/throttle/insn.c src/throttle/insn.h
libht_throttle_la_CPPFLAGS = $(HT_LIB_CPPFLAGS)
libht_throttle_la_CFLAGS = $(HT_LIB_CFLAGS)
