#!/bin/sh
# Installs everything hooktrace needs to build, test and run its examples,
# from Debian 12 packages.  Run as root (or through sudo).  MPICH is
# installed beside Open MPI (which stays the default mpicc) so that the
# library can be built and tested against both.  npm fetches the HTML
# report's flame-graph component at build time (src/report/web, pinned by
# its package-lock.json); the report's tests load it in chromium, headless,
# and read its screenshots with python3-pil.
# meson: test/install/check_idioms.sh builds with it.
# man-db: the install check renders the man pages (test/install/check_tools.sh);
# a minimal Debian image has no man.
set -e
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    build-essential gcc g++ gfortran make pkg-config \
    autoconf automake libtool cmake meson \
    libelf-dev libdwarf-dev libjansson-dev \
    libopenmpi-dev openmpi-bin \
    libmpich-dev mpich \
    libotf2-trace-dev otf2-tools \
    libpapi-dev papi-tools \
    python3 python3-pil valgrind man-db \
    chromium >/dev/null
# Clang and LLVM's OpenMP runtime: `hooktrace clang`, its tests, and CI's
# clang stage (docs/compile.md); LLVM 14's headers and llvm-config-14 for
# hooktrace's LLVM plugin, which Debian 12's clang (14) loads (docs/clang.md).
$SUDO apt-get install -y -qq --no-install-recommends clang libomp-dev llvm-14-dev >/dev/null
# npm from Debian, unless npm is there already: a node.js installed from
# elsewhere (NodeSource's nodejs package) brings its own npm and conflicts
# with Debian's.
if ! command -v npm >/dev/null 2>&1; then
    $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
# The GCC plugin (optional, docs/plugin.md) is built against the plugin
# headers of the very GCC that will load it.
gcc_major=$(gcc -dumpversion | cut -d. -f1)
$SUDO apt-get install -y -qq --no-install-recommends "gcc-$gcc_major-plugin-dev" >/dev/null
echo "install-deps: dependencies installed"
