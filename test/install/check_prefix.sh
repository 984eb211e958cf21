#!/bin/sh
# The `hooktrace` command from an installed tree (docs/compile.md): a 2-rank
# MPI ring (test/install/prefix) built through the compiler prefix by make,
# Autotools (configure's test programs link and run through it) and CMake
# (the compiler as CC="hooktrace $mpicc", and as a launcher), then built
# without hooktrace and run under `hooktrace run -- mpirun`, in C and in
# Fortran; and its options.  The one-word hooktrace-COMPILER commands, and
# a Mantevo-style makefile built with CXX=hooktrace-mpicxx.  Each profile: exact call counts, messages and bytes per stack
# and per pair of ranks.
# Usage: test/install/check_prefix.sh BUILDDIR [MPI]
# MPI (openmpi, mpich): whose compiler wrappers and launcher to use, the
# primary MPI's by default; `hooktrace` picks the library for it from the
# one install of BUILDDIR (checked on every program built or run).
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: check_prefix.sh BUILDDIR [MPI]}" && pwd)
primary=$(sed -n 's/^HT_MPI_FAMILY = //p' "$build/Makefile")
mpi=${2:-$primary}
if [ "$mpi" = "$primary" ]; then mpibuild=$build want_lib=libhooktrace.so.0; else mpibuild=$build/mpi-$mpi want_lib=libhooktrace-$mpi.so.0; fi
[ -f "$mpibuild/Makefile" ] || { echo "FAIL: no library for $mpi was configured in $build"; exit 1; }
. "$top/test/install/stage.sh"
stage_install "$build" prefix
[ -x "$prefix/bin/hooktrace" ] || { echo "FAIL: bin/hooktrace not installed"; exit 1; }
PATH="$prefix/bin:$PATH"
export PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The MPI the build wraps (Open MPI, or MPICH with --with-mpi=mpich).
mpicc=$(sed -n 's/^MPICC = //p' "$mpibuild/Makefile")
mpifc=$(sed -n 's/^MPIFC = //p' "$mpibuild/Makefile")
mpiexec=$(sed -n 's/^MPIEXEC = //p' "$mpibuild/Makefile")
echo "MPI: $mpi ($mpicc, $mpifc, $mpiexec; library $want_lib)"
case $($mpiexec --version 2>&1) in
*"Open MPI"*|*OpenRTE*) mpirun="$mpiexec --oversubscribe -np 2" ;;
*) mpirun="$mpiexec -np 2" ;;
esac
src="$top/test/install/prefix"
status=0
passed=0

# check_ring DIR KIND: DIR/ring.json against the ring's exact figures.
# KIND: instrumented (main;exchange;MPI_Sendrecv) or mpi-only (MPI_Sendrecv
# at the root, as an uninstrumented program has no function stacks).
check_ring() {
    if python3 "$top/test/install/ring_profile.py" "$1/ring.json" "$2" "${1#"$work"/}"; then
        passed=$((passed + 1)); else status=1; fi
}

run_ring() { # DIR EXE: run the ring on 2 ranks in DIR
    # linked by hooktrace: the library of the ring's MPI
    linked=$(readelf -d "$1/$2" | sed -n 's/.*NEEDED.*\[\(libhooktrace[^]]*\)\]/\1/p')
    [ -z "$linked" ] || [ "$linked" = "$want_lib" ] || { echo "$1: FAIL linked $linked, not $want_lib"; status=1; }
    (cd "$1" && timeout 120 $mpirun "$2" > out.txt && grep -q "ring: done" out.txt) || { echo "$1: FAIL run"; status=1; }
}

# make CC="hooktrace $mpicc", objects compiled with -c and linked apart.
mkdir "$work/make" && cp "$src/main.c" "$src/ring.c" "$src/Makefile" "$work/make"
make -s -C "$work/make" CC="hooktrace $mpicc" CFLAGS=-O2 >/dev/null
run_ring "$work/make" ./ring
check_ring "$work/make" instrumented

# Autotools: configure's conftest programs compile, link and run through it.
mkdir "$work/autotools" && cp "$src/main.c" "$src/ring.c" "$src/configure.ac" "$work/autotools"
cp "$src/Makefile.am.autotools" "$work/autotools/Makefile.am"
(cd "$work/autotools" && autoreconf -i >/dev/null 2>&1 && ./configure -q CC="hooktrace $mpicc" CFLAGS=-O2 &&
 make -s >/dev/null) || { echo "autotools: FAIL build"; status=1; }
run_ring "$work/autotools" ./ring
check_ring "$work/autotools" instrumented

# CMake, the compiler with its prefix in CC (CMake keeps "mpicc" as the
# compiler's first argument), and the prefix as launcher of compile and link.
for variant in cmake_cc cmake_launcher; do
    mkdir -p "$work/$variant/build" && cp "$src/main.c" "$src/ring.c" "$src/CMakeLists.txt" "$work/$variant"
    if [ $variant = cmake_cc ]; then
        (cd "$work/$variant/build" && CC="hooktrace $mpicc" cmake -DCMAKE_BUILD_TYPE=Release .. >/dev/null &&
         make >/dev/null) || { echo "$variant: FAIL build"; status=1; }
    else
        (cd "$work/$variant/build" && CC=$mpicc cmake -DCMAKE_BUILD_TYPE=Release \
             -DCMAKE_C_COMPILER_LAUNCHER=hooktrace -DCMAKE_C_LINKER_LAUNCHER=hooktrace .. >/dev/null &&
         make >/dev/null) || { echo "$variant: FAIL build"; status=1; }
    fi
    run_ring "$work/$variant/build" ./ring
    check_ring "$work/$variant/build" instrumented
done

# The one-word commands, hooktrace-COMPILER for each compiler configure
# found: installed, and a query goes through to COMPILER.
commands=$(sed -n 's/^HT_COMPILER_SCRIPTS = //p' "$build/Makefile")
[ -n "$commands" ] || { echo "FAIL: configure made no hooktrace-COMPILER command"; status=1; }
for c in $commands; do
    if [ -x "$prefix/bin/$c" ] &&
       [ "$("$c" --version 2>&1 | head -n 1)" = "$("${c#hooktrace-}" --version 2>&1 | head -n 1)" ]; then
        passed=$((passed + 1))
    else
        echo "$c: FAIL not installed in $prefix/bin, or not running ${c#hooktrace-}"; status=1
    fi
done
# A Mantevo-style makefile (test/install/oneword) puts `which $(CXX)` into
# a generated header: CXX=hooktrace-mpicxx builds and runs, and the header
# names the command; CXX="hooktrace mpicxx" is what breaks the header.
mpicxx=$(basename "$mpicc" | sed 's/mpicc/mpicxx/')
[ -x "$prefix/bin/hooktrace-$mpicxx" ] || mpicxx=mpicxx
if [ -x "$prefix/bin/hooktrace-$mpicxx" ]; then
    mkdir "$work/oneword" "$work/twoword"
    cp "$top/test/install/oneword/"* "$work/oneword"
    cp "$top/test/install/oneword/"* "$work/twoword"
    make -s -C "$work/oneword" CXX="hooktrace-$mpicxx" >/dev/null || { echo "oneword: FAIL build"; status=1; }
    run_ring "$work/oneword" ./ring
    check_ring "$work/oneword" instrumented
    if grep -q -x "ring: built by $prefix/bin/hooktrace-$mpicxx -O2" "$work/oneword/out.txt"; then
        passed=$((passed + 1))
    else
        echo "oneword: FAIL the program reports: $(head -n 1 "$work/oneword/out.txt")"; status=1
    fi
    if make -s -C "$work/twoword" CXX="hooktrace $mpicxx" >"$work/twoword/make.out" 2>&1; then
        echo "twoword: FAIL CXX=\"hooktrace $mpicxx\" built"; status=1
    elif grep -q "missing terminating" "$work/twoword/make.out"; then
        passed=$((passed + 1))
    else
        echo "twoword: FAIL not for the split string: $(cat "$work/twoword/make.out")"; status=1
    fi
else
    echo "oneword: FAIL no hooktrace-$mpicxx installed"; status=1
fi

# The link guard (docs/compile.md, "A link step without the prefix"): an
# object compiled through the prefix references a symbol only libhooktrace
# defines, so a link step without the prefix fails, naming it, instead of
# building a program that writes no profile.
guard_symbol=hooktrace_link_with_the_hooktrace_prefix
# guard_failed LABEL LOG: the build whose output is LOG failed at the link,
# with the linker's message naming the guard's symbol.
guard_failed() {
    if grep -q "undefined reference to \`$guard_symbol'" "$2"; then
        echo "$1: ok (the link fails on $guard_symbol)"; passed=$((passed + 1))
    else
        echo "$1: FAIL the link did not fail on $guard_symbol: $(tail -n 5 "$2")"; status=1
    fi
}
# CMake with the compile launcher only: fails; with the link launcher too
# it builds (cmake_launcher above).
mkdir -p "$work/cmake_compile_only/build" && cp "$src/main.c" "$src/ring.c" "$src/CMakeLists.txt" "$work/cmake_compile_only"
if (cd "$work/cmake_compile_only/build" && CC=$mpicc cmake -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_C_COMPILER_LAUNCHER=hooktrace .. >/dev/null && make) >"$work/cmake_compile_only/make.out" 2>&1; then
    echo "cmake_compile_only: FAIL built without the link launcher"; status=1
else
    guard_failed cmake_compile_only "$work/cmake_compile_only/make.out"
fi
# A makefile with its own LD: LD=mpicc fails; LD="hooktrace mpicc" builds
# a program that writes the ring's profile.
for variant in ld_plain ld_prefix; do
    mkdir "$work/$variant" && cp "$src/main.c" "$src/ring.c" "$work/$variant"
    cp "$src/Makefile.ld" "$work/$variant/Makefile"
done
if make -s -C "$work/ld_plain" CC="hooktrace $mpicc" CFLAGS=-O2 LD="$mpicc" >"$work/ld_plain/make.out" 2>&1; then
    echo "ld_plain: FAIL built with LD=$mpicc"; status=1
else
    guard_failed ld_plain "$work/ld_plain/make.out"
fi
make -s -C "$work/ld_prefix" CC="hooktrace $mpicc" CFLAGS=-O2 LD="hooktrace $mpicc" >/dev/null
run_ring "$work/ld_prefix" ./ring
check_ring "$work/ld_prefix" instrumented
# C++ and Fortran objects, a static and a shared library of instrumented
# objects linked into a program without the prefix: each fails; through
# the prefix each links.  (-S and -E write no object: no guard in them.)
mkdir "$work/guard" && cd "$work/guard"
printf 'int twice(int x) { return 2 * x; }\nint main() { return twice(0); }\n' > prog.cpp
hooktrace "$mpicxx" -O2 -c prog.cpp
hooktrace "$mpifc" -O2 -c "$src/ring.f90" -o ring_f.o
hooktrace "$mpicc" -O2 -fPIC -c "$src/ring.c" -o ring_pic.o
"$mpicc" -O2 -c "$src/main.c" -o main_plain.o
# -c with two sources, under -flto (the link-time compile's objects carry
# the guard) and -pipe (left out: as would read the guard alone).
hooktrace "$mpicc" -O2 -flto -pipe -c "$src/main.c" "$src/ring.c"
ar rcs libring.a ring_pic.o
"$mpicc" -shared ring_pic.o -o libring.so
hooktrace "$mpicc" -S "$src/ring.c" -o ring.s
hooktrace "$mpicc" -E "$src/ring.c" -o ring.i
for l in "cxx:$mpicxx prog.o -o prog_cxx" "fortran:$mpifc ring_f.o -o ring_f" \
         "lto:$mpicc -O2 -flto main.o ring.o -o ring_lto" \
         "static:$mpicc main_plain.o libring.a -o ring_static" \
         "shared:$mpicc main_plain.o -L. -lring -Wl,-rpath,$work/guard -o ring_shared"; do
    label=${l%%:*} cmd=${l#*:}
    # shellcheck disable=SC2086 # cmd: a compiler and its arguments
    if $cmd >"$label.out" 2>&1; then
        echo "guard $label: FAIL linked without the prefix: $cmd"; status=1
    else
        guard_failed "guard $label" "$label.out"
    fi
    # shellcheck disable=SC2086
    hooktrace $cmd >"$label.out" 2>&1 && passed=$((passed + 1)) ||
        { echo "guard $label: FAIL hooktrace $cmd: $(cat "$label.out")"; status=1; }
done
if grep -q "$guard_symbol" ring.s ring.i; then
    echo "guard: FAIL -S or -E output holds the guard"; status=1
else
    passed=$((passed + 1))
fi
cd "$top"

# Options: --exclude-function (exchange's hooks left out: its MPI call is
# main's child), --no-instrument (linked only: MPI calls alone).
mkdir "$work/exclude" "$work/no_instrument"
hooktrace --exclude-function=exchange $mpicc -O2 "$src/main.c" "$src/ring.c" -o "$work/exclude/ring"
run_ring "$work/exclude" ./ring
check_ring "$work/exclude" excluded
hooktrace --no-instrument $mpicc -O2 "$src/main.c" "$src/ring.c" -o "$work/no_instrument/ring"
run_ring "$work/no_instrument" ./ring
check_ring "$work/no_instrument" mpi-only
version=$(hooktrace --version)
[ "$version" = "hooktrace (hooktrace) $(sed -n 's/^PACKAGE_VERSION = //p' "$build/Makefile")" ] || { echo "FAIL: hooktrace --version: $version"; status=1; }
hooktrace --help | grep -q -e "--no-instrument" || { echo "FAIL: hooktrace --help"; status=1; }
hooktrace --help | grep -q -e "CXX=hooktrace-mpicxx" || { echo "FAIL: hooktrace --help names no one-word command"; status=1; }

# hooktrace run: the ring built without hooktrace, MPI calls only; the
# launcher itself writes no profile.
mkdir "$work/run_c" && $mpicc -O2 "$src/main.c" "$src/ring.c" -o "$work/run_c/ring"
(cd "$work/run_c" && timeout 120 hooktrace run -- $mpirun ./ring > out.txt) || { echo "run_c: FAIL run"; status=1; }
check_ring "$work/run_c" mpi-only
mkdir "$work/run_fortran" && $mpifc -O2 "$src/ring.f90" -o "$work/run_fortran/ring"
(cd "$work/run_fortran" && timeout 120 hooktrace run -- $mpirun ./ring > out.txt) || { echo "run_fortran: FAIL run"; status=1; }
check_ring "$work/run_fortran" mpi-only
for d in run_c run_fortran; do
    leftover=$(cd "$work/$d" && ls | grep -v -x -e ring -e out.txt -e 'ring\..*' || true)
    [ -z "$leftover" ] || { echo "$d: FAIL files besides the ring's profile: $leftover"; status=1; }
done

[ "$status" -eq 0 ] && echo "prefix check: $passed passed, 0 failed" || echo "prefix check: FAILED ($passed passed)"
exit $status
