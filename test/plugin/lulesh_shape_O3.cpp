// lulesh_shape.cpp as compiled at -O3 (test/plugin/lulesh_shape.py): a
// pragma, because the build's own CXXFLAGS (-O2 in CI) come after a
// target's flags and would win.
#pragma GCC optimize("O3")
#include "lulesh_shape.cpp"
