# The one-word compiler commands (docs/compile.md): hooktrace-COMPILER, a
# script that runs `hooktrace COMPILER "$@"`, for each compiler configure
# found (HT_COMPILER_SCRIPTS), as Score-P installs scorep-COMPILER.  Each
# runs the `hooktrace` beside it, so that a staged or moved install keeps
# working, else the one in the configured bindir.
bin_SCRIPTS += $(HT_COMPILER_SCRIPTS)
# Every command configure may choose (its list of compilers, in configure.ac).
EXTRA_SCRIPTS = hooktrace-mpicc hooktrace-mpicxx hooktrace-mpic++ hooktrace-mpif90 hooktrace-mpifort \
	hooktrace-mpicc.mpich hooktrace-mpicxx.mpich hooktrace-mpif90.mpich hooktrace-mpifort.mpich \
	hooktrace-cc hooktrace-c++ hooktrace-gcc hooktrace-g++ hooktrace-gfortran hooktrace-clang hooktrace-clang++
CLEANFILES += $(HT_COMPILER_SCRIPTS)
$(HT_COMPILER_SCRIPTS): hooktrace-%: $(srcdir)/scripts/hooktrace-compiler.in Makefile
	$(AM_V_GEN)sed -e 's|@HT_COMPILER[@]|$*|g' -e 's|@bindir[@]|$(bindir)|g' \
		$(srcdir)/scripts/hooktrace-compiler.in > $@.tmp && chmod +x $@.tmp && mv $@.tmp $@

# The link guard the prefix adds to every object it compiles (docs/compile.md,
# "A link step without the prefix"), beside the GCC plugin.
hooktrace_guarddir = $(pkglibdir)
dist_hooktrace_guard_DATA = scripts/link_guard.s scripts/link_guard.h
