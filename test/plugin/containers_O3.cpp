// containers.cpp as compiled at -O3 (test/plugin/containers.py).  A pragma
// rather than -O3, because the build's own CXXFLAGS (-O2 in CI) come after
// a target's flags and would win.
#pragma GCC optimize("O3")
#include "containers.cpp"
