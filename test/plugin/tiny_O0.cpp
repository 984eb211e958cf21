// tiny.cpp as compiled at -O0, where the plugin removes nothing
// (test/plugin/plugin.py).  A pragma rather than -O0, because the build's
// own CXXFLAGS (-O2 in CI) come after a target's flags and would win.
#pragma GCC optimize("O0")
#include "tiny.cpp"
