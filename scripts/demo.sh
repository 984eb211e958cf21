#!/bin/sh
# For a newcomer: installs the dependencies, builds and installs hooktrace
# into ./_install, builds the MPI example examples/halo.c exactly as a user
# would (mpicc with pkg-config's instrument_flags: -finstrument-functions and
# the GCC plugin), runs it on 4 ranks,
# and prints its profile.
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
export PKG_CONFIG_PATH="$top/_install/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
echo "== building examples/halo.c with mpicc \$(pkg-config --variable=instrument_flags hooktrace) ... \$(pkg-config --cflags --libs hooktrace)"
mkdir -p "$top/_demo"
cd "$top/_demo"
mpicc -g -O2 $(pkg-config --variable=instrument_flags hooktrace) "$top/examples/halo.c" -o halo \
      $(pkg-config --cflags --libs hooktrace) -lm
echo "== running mpirun -np 4 ./halo in _demo/"
# Open MPI refuses to run as root unless told it is fine (a container).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun -np 4 --oversubscribe ./halo
echo "== _demo/halo.log"
cat halo.log
echo "== also written: _demo/halo.json (for scripts) and _demo/halo.folded (for flame graphs)"
