#!/bin/sh
# For a newcomer: installs the dependencies, builds and installs hooktrace
# into ./_install, builds examples/heat.c exactly as a user would
# (-finstrument-functions plus pkg-config), runs it, and prints its profile.
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
echo "== building examples/heat.c with -finstrument-functions \$(pkg-config --cflags --libs hooktrace)"
mkdir -p "$top/_demo"
cd "$top/_demo"
cc -g -O2 -finstrument-functions -pthread "$top/examples/heat.c" -o heat \
   $(pkg-config --cflags --libs hooktrace) -lm
echo "== running ./heat in _demo/"
./heat
echo "== _demo/heat.log"
cat heat.log
echo "== also written: _demo/heat.json (for scripts) and _demo/heat.folded (for flame graphs)"
