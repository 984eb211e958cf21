# config: the JSON config file -> struct ht_config (owned by the config module)
noinst_LTLIBRARIES += libht_config.la
libht_config_la_SOURCES = src/config/config.h src/config/config_internal.h \
	src/config/config_load.h src/config/config.c src/config/config_file.c \
	src/config/config_options.c src/config/config_locate.c \
	src/config/patterns.c src/config/patterns.h src/config/config_names.c \
	src/config/config_strings.c src/config/config_regex.c src/config/config_sets.c \
	src/config/region_filter.c src/config/region_filter.h
libht_config_la_CPPFLAGS = $(HT_LIB_CPPFLAGS)
libht_config_la_CFLAGS = $(HT_LIB_CFLAGS)
libht_config_la_LIBADD = $(JANSSON_LIBS)

# Checks config files with the runtime's own code; links the config module
# only, never libhooktrace.
bin_PROGRAMS += hooktrace-check-config
hooktrace_check_config_SOURCES = src/config/check_config_main.c
hooktrace_check_config_CPPFLAGS = $(AM_CPPFLAGS) $(HT_DOC_CPPFLAGS)
hooktrace_check_config_CFLAGS = $(HT_LIB_CFLAGS)
hooktrace_check_config_LDADD = libht_config.la

# Unit tests
HT_CONFIG_TEST_LDADD = libht_config.la
check_PROGRAMS += test/unit/config_load test/unit/config_env test/unit/config_patterns \
	test/unit/config_filter
test_unit_config_load_SOURCES = test/unit/config_load.c test/unit/config_testutil.h test/unit/check.h
test_unit_config_load_LDADD = $(HT_CONFIG_TEST_LDADD)
test_unit_config_env_SOURCES = test/unit/config_env.c test/unit/config_testutil.h test/unit/check.h
test_unit_config_env_LDADD = $(HT_CONFIG_TEST_LDADD)
test_unit_config_patterns_SOURCES = test/unit/config_patterns.c test/unit/config_testutil.h \
	test/unit/check.h
test_unit_config_patterns_LDADD = $(HT_CONFIG_TEST_LDADD)
test_unit_config_filter_SOURCES = test/unit/config_filter.c test/unit/config_testutil.h \
	test/unit/check.h
test_unit_config_filter_LDADD = $(HT_CONFIG_TEST_LDADD)
TESTS += test/unit/config_load test/unit/config_env test/unit/config_patterns \
	test/unit/config_filter \
	test/unit/config_check_program.sh
EXTRA_DIST += test/unit/config_check_program.sh test/unit/config_files
