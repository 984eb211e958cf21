# Unit tests of the hot-path modules (the symbols and config modules keep
# theirs in their own local.mk).
check_PROGRAMS += test/unit/callstack_tree test/unit/callstack_profile test/unit/clock_ticks
TESTS += test/unit/callstack_tree test/unit/callstack_profile test/unit/clock_ticks
EXTRA_DIST += test/unit/check.h

test_unit_callstack_tree_SOURCES = test/unit/callstack_tree.c
test_unit_callstack_tree_LDADD = libht_callstack.la
test_unit_callstack_profile_SOURCES = test/unit/callstack_profile.c
test_unit_callstack_profile_LDADD = libht_callstack.la
test_unit_clock_ticks_SOURCES = test/unit/clock_ticks.c src/hooks/clock.c
