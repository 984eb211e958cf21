#!/bin/sh
# Installs hooktrace into a temporary prefix and builds the examples the way
# the README tells users to: examples/heat.c with pkg-config against the
# shared and the static library, examples/halo.c with mpicc on 4 ranks, an
# OpenMP program linked three ways (libhooktrace's libgomp wrappers).
# Checks exact call counts, and messages per stack and per pair of ranks.
# Usage: test/install/check_install.sh BUILDDIR [MPI]
# MPI (openmpi, mpich): the MPI of the build's libraries to check, the
# primary one (libhooktrace, pkg-config hooktrace) by default, another
# through libhooktrace-MPI and pkg-config hooktrace-MPI, both from the one
# install of BUILDDIR.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: check_install.sh BUILDDIR [MPI]}" && pwd)
primary=$(sed -n 's/^HT_MPI_FAMILY = //p' "$build/Makefile")
mpi=${2:-$primary}
if [ "$mpi" = "$primary" ]; then lib=hooktrace mpibuild=$build; else lib=hooktrace-$mpi mpibuild=$build/mpi-$mpi; fi
[ -f "$mpibuild/Makefile" ] || { echo "FAIL: no library for $mpi was configured in $build"; exit 1; }
mpicc=$(sed -n 's/^MPICC = //p' "$mpibuild/Makefile")
mpiexec=$(sed -n 's/^MPIEXEC = //p' "$mpibuild/Makefile")
case $(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 $mpiexec --version 2>&1) in
*"Open MPI"*|*OpenRTE*) mpirun="$mpiexec --oversubscribe" ;;
*) mpirun=$mpiexec ;;
esac
echo "MPI: $mpi (lib$lib, $mpicc, $mpiexec)"
# Stage the install with DESTDIR, then point pkg-config's ${prefix} there.
. "$top/test/install/stage.sh"
stage_install "$build" user
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
pkg_config() { pkg-config --define-variable=prefix="$prefix" "$@"; }
cd "$work"
# The Python snippets below read profiles with test/install/stacks.py.
export PYTHONPATH="$top/test/install${PYTHONPATH:+:$PYTHONPATH}"
for f in lib/lib$lib.so lib/lib$lib.a include/hooktrace.h lib/pkgconfig/$lib.pc bin/hooktrace-check-config bin/hooktrace-analyze bin/hooktrace-report bin/hooktrace-score; do
    [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
# The compile line the README gives: -finstrument-functions and, where it was
# built, the GCC plugin, installed where pkg-config says.
instrument=$(pkg_config --variable=instrument_flags $lib)
plugin=$(pkg_config --variable=pluginpath $lib)
case "$instrument" in
*-fplugin=*) [ -f "$plugin" ] || { echo "FAIL: the GCC plugin $plugin is not installed"; exit 1; } ;;
esac
echo "instrument_flags: $instrument"
cc -g -O2 $instrument -pthread "$top/examples/heat.c" -o heat_shared \
   $(pkg_config --cflags --libs $lib) -lm
cc -g -O2 $instrument -pthread "$top/examples/heat.c" -o heat_static \
   $(pkg_config --cflags $lib) "$prefix/lib/lib$lib.a" \
   $(pkg_config --static --libs-only-l $lib | sed "s/-l$lib //") -lm -ldl
# The library BEFORE the source, as build systems that put it in LDFLAGS do,
# under the --as-needed that GCC on Debian passes by default (explicit here
# so the check means the same on every distribution): the .pc's
# --no-as-needed keeps libhooktrace; without it the hooks bind to glibc's
# empty ones and there is no profile.
cc -g -O2 $instrument -pthread -Wl,--as-needed $(pkg_config --cflags --libs $lib) \
   "$top/examples/heat.c" -o heat_libsfirst -lm
status=0
for variant in shared static libsfirst; do
    ./heat_$variant > out_$variant.txt
    # The HTML report is in the library (installed, shared or static): the
    # page beside the JSON, and the installed hooktrace-report makes the same.
    if [ -f heat_$variant.json ]; then
        "$prefix/bin/hooktrace-report" heat_$variant.json -o again_$variant.html &&
            cmp -s heat_$variant.html again_$variant.html ||
            { echo "$variant: FAIL heat_$variant.html missing or not what hooktrace-report writes"; status=1; }
    fi
    python3 - "heat_$variant.json" "$variant" <<'PY' || status=1
import os, sys
if not os.path.exists(sys.argv[1]):
    sys.exit("%s: FAIL no profile %s (the hooks did not bind to libhooktrace)" % (sys.argv[2], sys.argv[1]))
from stacks import load_stacks
doc, st = load_stacks(sys.argv[1])
calls = {p: s["calls"] for p, s in st.items()}
throttled = {p for p, s in st.items() if s.get("throttled")}
expected = {"main;step": 400, "main;step;swap_and_residual": 400, "main;set_boundary": 1,
            "background;checksum": 200}
bad = {p: (calls.get(p), n) for p, n in expected.items() if calls.get(p) != n}
# stencil_row (about 60 ns a call, 76,000 calls) is throttled at its
# 1,001st call (docs/throttle.md), or at its 10,001st if a preemption made
# its first 1,000 look slow; if one spoiled both, every call is there.
row = "main;step;stencil_row"
if (calls.get(row), row in throttled) not in ((1001, True), (10001, True), (400 * 190, False)):
    bad[row] = ((calls.get(row), row in throttled), "(1001 or 10001, throttled) or (76000, not)")
print("%s: %s" % (sys.argv[2], "ok" if not bad else "FAIL %r" % bad))
sys.exit(1 if bad else 0)
PY
done
for variant in static libsfirst; do
    cmp out_shared.txt out_$variant.txt || { echo "FAIL: the shared and $variant builds print different results"; status=1; }
done

# The MPI example, built with mpicc the same way, on 4 ranks: exact
# messages per stack and in the matrices of rank 0's summary.
$mpicc -g -O2 $instrument "$top/examples/halo.c" -o halo \
      $(pkg_config --cflags --libs $lib) -lm
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    timeout 120 $mpirun -np 4 ./halo > out_halo.txt || status=1
python3 - halo.json <<'PY' || status=1
import sys
from stacks import load_stacks
doc, st = load_stacks(sys.argv[1])
def fields(path):
    s = st.get(path, {})
    return tuple(s.get(k) for k in ("calls", "messages_sent", "messages_received", "bytes_sent", "bytes_received"))
# 200 steps; ranks 0 and 3 have one neighbour, 1 and 2 two: 6 halo messages a step.
expected = {
    "main;exchange_halo;MPI_Isend": (1600, 1200, 0, 9600, 0),
    "main;exchange_halo;MPI_Irecv": (1600, 0, 1200, 0, 9600),
    "main;global_residual;MPI_Allreduce": (80, 240, 240, 1920, 1920),
    "main;collect;MPI_Reduce": (4, 3, 3, 24, 24),
}
bad = {p: (fields(p), e) for p, e in expected.items() if fields(p) != e}
comm = {(c["sender"], c["receiver"]): (c["messages"], c["bytes"]) for c in doc["comm_matrix"]}
want_comm = {(a, b): (200, 1600) for a in range(4) for b in range(4) if abs(a - b) == 1}
coll = {(c["sender"], c["receiver"]): c["messages"] for c in doc["coll_matrix"]}
want_coll = {(a, b): 20 + (b == 0) for a in range(4) for b in range(4) if a != b}
if doc.get("ranks") != 4: bad["ranks"] = (doc.get("ranks"), 4)
if comm != want_comm: bad["comm_matrix"] = (comm, want_comm)
if coll != want_coll: bad["coll_matrix"] = (coll, want_coll)
print("mpi: %s" % ("ok" if not bad else "FAIL %r" % bad))
sys.exit(1 if bad else 0)
PY
# The regions example (docs/regions.md) through the installed header, 2
# ranks: its regions are nodes with exact calls and the MPI calls inside
# "iterate" below it; built without libhooktrace it prints the same.
$mpicc -g -O2 $instrument "$top/examples/regions.c" -o regions $(pkg_config --cflags --libs $lib)
$mpicc -g -O2 $(pkg_config --cflags $lib) "$top/examples/regions.c" -o regions_plain
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    timeout 120 $mpirun -np 2 ./regions > out_regions.txt || status=1
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    timeout 120 $mpirun -np 2 ./regions_plain > out_regions_plain.txt || status=1
cmp -s out_regions.txt out_regions_plain.txt ||
    { echo "regions: FAIL the output differs from the build without libhooktrace"; status=1; }
python3 - regions.json <<'PY' || status=1
import sys
from stacks import load_stacks
doc, st = load_stacks(sys.argv[1])
expected = {"main;step;assemble": 40, "main;step;iterate": 40,
            "main;step;iterate;MPI_Allreduce": 40, "main;step;iterate;MPI_Sendrecv": 40}
bad = {p: (st.get(p, {}).get("calls"), n) for p, n in expected.items()
       if st.get(p, {}).get("calls") != n}
ring = st.get("main;step;iterate;MPI_Sendrecv", {})
if (ring.get("messages_sent"), ring.get("bytes_sent")) != (40, 320):
    bad["ring"] = (ring.get("messages_sent"), ring.get("bytes_sent"))
print("regions: %s" % ("ok" if not bad else "FAIL %r" % bad))
sys.exit(1 if bad else 0)
PY
# OpenMP (docs/reading.md, "Threads and OpenMP"): libhooktrace's GOMP_*
# wrappers must come before libgomp's in the lookup order.  The pkg-config
# line, with -fopenmp adding -lgomp after it, gives that; so does mpicc
# with -lhooktrace.  With --as-needed, a program whose only references to
# libgomp are the GOMP_* entry points (taken by libhooktrace) loses its
# libgomp at link time, and libhooktrace loads it.  Each build: the region
# is a node under main on thread 0 and the root of thread 1.
cat > omp_only.c <<'C'
#include <stdio.h>
static int total;
__attribute__((noinline)) static void add(int i) { __atomic_fetch_add(&total, i, __ATOMIC_RELAXED); }
int main(void)
{
#pragma omp parallel num_threads(2)
    add(1);
    printf("omp_only: %d\n", total);
    return 0;
}
C
cc -g -O2 -fopenmp -finstrument-functions "$top/test/programs/openmp.c" -o omp_pkgconfig \
   $(pkg_config --cflags --libs $lib)
$mpicc -g -O2 -fopenmp -finstrument-functions "$top/test/programs/openmp.c" -o omp_mpicc \
      -L"$prefix/lib" -Wl,-rpath,"$prefix/lib" -l$lib
cc -g -O2 -fopenmp -finstrument-functions omp_only.c -o omp_asneeded -Wl,--as-needed \
   $(pkg_config --cflags --libs $lib)
for exe in omp_pkgconfig omp_mpicc omp_asneeded; do
    OMP_NUM_THREADS=2 OMP_DYNAMIC=false ./$exe > out_$exe.txt || status=1
    python3 - "$exe" <<'PY' || status=1
import sys
from stacks import load_stacks
exe = sys.argv[1]
doc, st = load_stacks(exe + ".json")
per_thread = {p: {t["thread"]: t["calls"] for t in s["threads"]} for p, s in st.items()}
leaf, n = ("kernel", 500) if exe != "omp_asneeded" else ("add", 1)
expected = {"main;main._omp_fn.0;" + leaf: {0: n}, "main._omp_fn.0;" + leaf: {1: n}}
bad = {p: (per_thread.get(p), e) for p, e in expected.items() if per_thread.get(p) != e}
print("%s: %s" % (exe, "ok" if not bad else "FAIL %r" % bad))
sys.exit(1 if bad else 0)
PY
done
grep -q "omp_only: 2" out_omp_asneeded.txt || { echo "FAIL: omp_asneeded printed $(cat out_omp_asneeded.txt)"; status=1; }

[ "$status" -eq 0 ] && echo "install check: 4 passed, 0 failed" || echo "install check: FAILED"
exit $status
