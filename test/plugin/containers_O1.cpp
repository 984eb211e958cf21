// containers.cpp as compiled at -O1 (test/plugin/containers.py).  A pragma
// rather than -O1, because the build's own CXXFLAGS (-O2 in CI) come after
// a target's flags and would win.
#pragma GCC optimize("O1")
#include "containers.cpp"
