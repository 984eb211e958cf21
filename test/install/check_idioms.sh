#!/bin/sh
# The build systems' own MPI idioms from an installed tree (docs/compile.md,
# "In build systems"): CMake's find_package(MPI) with the imported targets
# MPI::MPI_C, MPI::MPI_CXX and MPI::MPI_Fortran, and Meson's
# dependency('mpi') (dependency('mpich') for MPICH), with the default
# compilers (cc, c++, gfortran) through the hooktrace prefix: these name the
# MPI libraries on the link line themselves (/usr/lib/.../libmpi.so), where
# libhooktrace must come first for its wrappers to get the MPI calls.  Each
# ring (test/install/prefix, in C, C++ and Fortran) runs on 2 ranks with
# the exit status, stdout and stderr of the same ring built by the MPI's
# compiler wrappers without hooktrace (the same bytes, in whatever order
# the launcher interleaves the ranks' output), and its profile has
# the ring's exact calls, messages and bytes per stack and per pair of
# ranks.
# Usage: test/install/check_idioms.sh BUILDDIR [MPI]
# MPI (openmpi, mpich): whose compiler wrappers (FindMPI's hints) and
# launcher to use, the primary MPI's by default.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: check_idioms.sh BUILDDIR [MPI]}" && pwd)
primary=$(sed -n 's/^HT_MPI_FAMILY = //p' "$build/Makefile")
mpi=${2:-$primary}
if [ "$mpi" = "$primary" ]; then mpibuild=$build want_lib=libhooktrace.so.0; else mpibuild=$build/mpi-$mpi want_lib=libhooktrace-$mpi.so.0; fi
[ -f "$mpibuild/Makefile" ] || { echo "FAIL: no library for $mpi was configured in $build"; exit 1; }
. "$top/test/install/stage.sh"
stage_install "$build" idioms
[ -x "$prefix/bin/hooktrace" ] || { echo "FAIL: bin/hooktrace not installed"; exit 1; }
PATH="$prefix/bin:$PATH"
export PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpicc=$(sed -n 's/^MPICC = //p' "$mpibuild/Makefile")
mpifc=$(sed -n 's/^MPIFC = //p' "$mpibuild/Makefile")
mpiexec=$(sed -n 's/^MPIEXEC = //p' "$mpibuild/Makefile")
mpicxx=$(echo "$mpicc" | sed 's/mpicc\([^/]*\)$/mpicxx\1/')
case $($mpiexec --version 2>&1) in
*"Open MPI"*|*OpenRTE*) mpirun="$mpiexec --oversubscribe -np 2" meson_mpi=mpi ;;
*) mpirun="$mpiexec -np 2" meson_mpi=mpich ;;
esac
echo "MPI: $mpi ($mpicc, $mpicxx, $mpifc, $mpiexec; library $want_lib)"
src="$top/test/install/prefix"
status=0
passed=0
fail() { echo "$1: FAIL $2"; status=1; }
# The sources: the ring of the prefix check, its C files compiled as C++ too.
sources() {
    mkdir -p "$1"
    cp "$src/main.c" "$src/ring.c" "$src/ring.f90" "$top/test/install/idioms/"* "$1"
    cp "$src/main.c" "$1/main.cpp"
    cp "$src/ring.c" "$1/ring.cpp"
}

# run DIR EXE: EXE of DIR on 2 ranks in DIR/run_EXE: its out, err, status.
run() {
    mkdir "$1/run_$2"
    (cd "$1/run_$2" && { timeout 120 $mpirun "../$2" </dev/null >out 2>err && echo 0 >status || echo $? >status; })
}

# hooktrace's notes on a slow end of run (outputs.progress_after_ms, on
# stderr after 1 s by default) depend on the machine's load: none here.
printf '{"outputs": {"progress_after_ms": 3600000}}\n' >"$work/quiet.json"
HOOKTRACE_CONFIG=$work/quiet.json
export HOOKTRACE_CONFIG

# The plain rings, built by the MPI's compiler wrappers without hooktrace.
sources "$work/plain"
(cd "$work/plain" && $mpicc -O2 main.c ring.c -o ring && $mpicxx -O2 main.cpp ring.cpp -o ring_cxx &&
 $mpifc -O2 ring.f90 -o ring_f)
for exe in ring ring_cxx ring_f; do run "$work/plain" $exe; done

# bytes FILE: FILE's bytes, sorted: the launcher interleaves the ranks'
# output as it reads it (Hydra splits their lines: "ring: donering: done"),
# so only the order of the bytes is left out of the comparison.
bytes() { od -An -v -tx1 "$1" | tr -s ' ' '\n' | sort | tr '\n' ' '; }

# check DIR EXE STACK: DIR/EXE, built through the prefix, links the
# library of its MPI ahead of every MPI library, runs as the plain EXE
# does, and its profile has the ring's 20 MPI_Sendrecv calls at STACK.
check() {
    label=${1#"$work"/}/$2
    needed=$(readelf -d "$1/$2" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' | tr '\n' ' ')
    first=$(echo "$needed" | tr ' ' '\n' | grep -m 1 -E '^lib(hooktrace|mpi)' || true)
    [ "$first" = "$want_lib" ] || fail "$label" "the first of its hooktrace and MPI libraries is $first, not $want_lib (NEEDED: $needed)"
    run "$1" "$2"
    for f in status out err; do
        [ "$(bytes "$work/plain/run_$2/$f")" = "$(bytes "$1/run_$2/$f")" ] ||
            fail "$label" "its $f differs from the plain build's: $(head -c 600 "$1/run_$2/$f") (plain: $(head -c 600 "$work/plain/run_$2/$f"))"
    done
    if python3 "$top/test/install/ring_profile.py" "$1/run_$2/$2.json" "at:$3" "$label"; then
        passed=$((passed + 1)); else status=1; fi
}

# CMake: C and C++ through the documented launchers of compile and link;
# Fortran through the prefix as the compiler (CMake 3.25 has no Fortran
# link launcher).  FindMPI is pointed at the MPI by its wrappers, its own
# hints.
sources "$work/cmake"
mkdir "$work/cmake/build"
if (cd "$work/cmake/build" && FC="hooktrace gfortran" cmake -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_C_COMPILER_LAUNCHER=hooktrace -DCMAKE_C_LINKER_LAUNCHER=hooktrace \
        -DCMAKE_CXX_COMPILER_LAUNCHER=hooktrace -DCMAKE_CXX_LINKER_LAUNCHER=hooktrace \
        -DMPI_C_COMPILER="$mpicc" -DMPI_CXX_COMPILER="$mpicxx" -DMPI_Fortran_COMPILER="$mpifc" .. &&
    make VERBOSE=1) >"$work/cmake/build.log" 2>&1; then
    grep -q -E "^hooktrace [^ ]*cc .* -o ring .*/lib(mpi|mpich)\.so" "$work/cmake/build.log" ||
        fail cmake "no link of ring through the launcher with libmpi by path: $(grep -e ' -o ring ' "$work/cmake/build.log")"
    check "$work/cmake/build" ring "main;exchange;MPI_Sendrecv"
    check "$work/cmake/build" ring_cxx "main;exchange(int);MPI_Sendrecv"
    check "$work/cmake/build" ring_f "main;ring;MPI_Sendrecv"
else
    fail cmake "build: $(tail -n 20 "$work/cmake/build.log")"
fi

# Meson: the prefix as the compilers.
sources "$work/meson"
if (cd "$work/meson" && CC="hooktrace cc" FC="hooktrace gfortran" meson setup -Dmpi=$meson_mpi \
        --buildtype=release build && ninja -v -C build) >"$work/meson/build.log" 2>&1; then
    check "$work/meson/build" ring "main;exchange;MPI_Sendrecv"
    [ "$meson_mpi" != mpi ] || check "$work/meson/build" ring_f "main;ring;MPI_Sendrecv"
else
    fail meson "build: $(tail -n 20 "$work/meson/build.log")"
fi

[ "$status" -eq 0 ] && echo "idioms check: $passed passed, 0 failed" || echo "idioms check: FAILED ($passed passed)"
exit $status
