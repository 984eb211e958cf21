#!/bin/sh
# For a newcomer: installs the dependencies, builds and installs hooktrace
# into ./_install, builds the MPI example examples/halo.c exactly as a user
# would (hooktrace mpicc: -finstrument-functions, the GCC plugin and
# libhooktrace after the objects; docs/compile.md), runs it on 4 ranks,
# and prints its profile and where its HTML report is.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
scripts/install-deps.sh
echo "== building hooktrace"
./bootstrap >/dev/null 2>&1
mkdir -p _build/demo
cd _build/demo
"$top/configure" -q --prefix="$top/_install"
make -s -j"$(nproc)" >/dev/null
make -s install >/dev/null
PATH="$top/_install/bin:$PATH"
export PATH
echo "== building examples/halo.c with hooktrace mpicc -O2 halo.c -o halo -lm"
mkdir -p "$top/_demo"
cd "$top/_demo"
hooktrace mpicc -O2 "$top/examples/halo.c" -o halo -lm
echo "== running mpirun -np 4 ./halo in _demo/"
# Open MPI refuses to run as root unless told it is fine (a container).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun -np 4 --oversubscribe ./halo
echo "== _demo/halo.log"
cat halo.log
echo "== also written: _demo/halo.json (for scripts) and _demo/halo.folded (for flame graphs)"
echo "== HTML report (flame graph, functions, communication matrix; opens offline):"
echo "   $top/_demo/halo.html"
