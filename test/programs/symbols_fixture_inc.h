/* Included by symbols_fixture.c: a function whose definition is in a file
 * other than the compile unit's own, to check the decl_file numbering. */
#ifndef HT_TEST_SYMBOLS_FIXTURE_INC_H
#define HT_TEST_SYMBOLS_FIXTURE_INC_H

extern volatile int symfix_sink;

static const unsigned symfix_header_line = __LINE__ + 2;
static void
symfix_header_function(int x)
{
    symfix_sink = x + 44;
}

#endif
