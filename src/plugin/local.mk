# The GCC plugin (docs/plugin.md): a module loaded into the compiler, not into
# the user's program.  It is built by a rule of its own rather than as a
# libtool target because the flags for the library and the tests (CFLAGS and
# CXXFLAGS with -finstrument-functions or -fsanitize=address in CI) must not
# reach it: cc1 cannot load a plugin that needs the sanitizer runtime.  Only
# -Werror is taken from CXXFLAGS (CI's warnings-as-errors build).
EXTRA_DIST += src/plugin/hooktrace_gcc.cc src/plugin/after_inlining.cc src/plugin/after_inlining.h \
	src/plugin/exclude_list.cc src/plugin/exclude_list.h src/plugin/leaf_copies.cc src/plugin/leaf_copies.h src/plugin/hook_calls.cc src/plugin/hook_calls.h \
	src/plugin/local.mk
if HT_GCC_PLUGIN
hooktrace_plugindir = $(pkglibdir)
hooktrace_plugin_DATA = hooktrace_gcc.so
BUILT_SOURCES += hooktrace_gcc.so
CLEANFILES += hooktrace_gcc.so
HT_GCC_PLUGIN_CXXFLAGS = -O2 -g -fPIC -fno-rtti -fno-exceptions -Wall -Wextra \
	$(filter -Werror,$(CXXFLAGS))

HT_GCC_PLUGIN_FILES = $(srcdir)/src/plugin/hooktrace_gcc.cc $(srcdir)/src/plugin/after_inlining.cc \
	$(srcdir)/src/plugin/exclude_list.cc $(srcdir)/src/plugin/hook_calls.cc \
	$(srcdir)/src/plugin/leaf_copies.cc

hooktrace_gcc.so: $(HT_GCC_PLUGIN_FILES) $(srcdir)/src/plugin/after_inlining.h $(srcdir)/src/plugin/exclude_list.h \
	$(srcdir)/src/plugin/leaf_copies.h $(srcdir)/src/plugin/hook_calls.h
	$(AM_V_CXX)$(CXX) $(HT_GCC_PLUGIN_CXXFLAGS) -I$(HT_GCC_PLUGIN_INCLUDE) \
		-shared -o $@ $(HT_GCC_PLUGIN_FILES)
endif

# The LLVM plugin (docs/clang.md): a pass plugin for clang 14,
# built by $(CXX) against llvm-config's headers, with its own flags for the
# same reason as the GCC plugin's (clang loads it into itself).  One object
# per source file, so that -j builds them side by side.
HT_LLVM_PLUGIN_CPP = src/plugin/hooktrace_llvm.cpp src/plugin/llvm_hooks.cpp src/plugin/llvm_inlined.cpp \
	src/plugin/llvm_openmp.cpp src/plugin/llvm_tiny.cpp
EXTRA_DIST += $(HT_LLVM_PLUGIN_CPP) src/plugin/llvm_hooks.h
if HT_LLVM_PLUGIN
hooktrace_llvmdir = $(pkglibdir)
hooktrace_llvm_DATA = hooktrace_llvm.so
HT_LLVM_PLUGIN_OBJECTS = $(HT_LLVM_PLUGIN_CPP:.cpp=.plugin.o)
CLEANFILES += hooktrace_llvm.so $(HT_LLVM_PLUGIN_OBJECTS)
HT_LLVM_PLUGIN_CXXFLAGS = -O2 -g -fPIC -Wall -Wextra $(filter -Werror,$(CXXFLAGS)) $(HT_LLVM_CXXFLAGS)

src/plugin/%.plugin.o: $(srcdir)/src/plugin/%.cpp $(srcdir)/src/plugin/llvm_hooks.h
	@$(MKDIR_P) src/plugin
	$(AM_V_CXX)$(CXX) $(HT_LLVM_PLUGIN_CXXFLAGS) -c -o $@ $<

hooktrace_llvm.so: $(HT_LLVM_PLUGIN_OBJECTS)
	$(AM_V_CXXLD)$(CXX) -shared -o $@ $(HT_LLVM_PLUGIN_OBJECTS)
endif
