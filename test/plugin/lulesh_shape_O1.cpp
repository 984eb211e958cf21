// lulesh_shape.cpp as compiled at -O1 (test/plugin/lulesh_shape.py): a
// pragma, because the build's own CXXFLAGS (-O2 in CI) come after a
// target's flags and would win.
#pragma GCC optimize("O1")
#include "lulesh_shape.cpp"
