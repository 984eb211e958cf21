#!/bin/sh
# The Debian packages (debian/, docs/install.md "Debian package"): built by
# dpkg-buildpackage from a clean clone of this checkout's HEAD, checked by
# lintian (no error), installed by apt-get from the .deb files, then the
# installed /usr/bin/hooktrace builds test/install/prefix's ring with Open
# MPI's and MPICH's mpicc; each runs on 2 ranks against the library its
# package installed, and each profile has the ring's exact calls, messages
# and bytes (ring_profile.py).  The packages are removed at the end.
# Usage: test/install/check_deb.sh [DIR]   (as root, after scripts/install-deps.sh)
# DIR: a folder that already holds the .deb and .changes files of a
# dpkg-buildpackage run (the build is then skipped).
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq --no-install-recommends debhelper lintian fakeroot >/dev/null
work=$(mktemp -d /tmp/hooktrace-deb.XXXXXX)
packages="hooktrace libhooktrace-dev libhooktrace0 libhooktrace-mpich0"
debs=$work
cleanup() {
    apt-get purge -y -qq $packages hooktrace-dbgsym libhooktrace0-dbgsym libhooktrace-mpich0-dbgsym \
        >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

if [ -n "${1:-}" ]; then
    debs=$(cd "$1" && pwd)
else
    git clone -q "$top" "$work/hooktrace"
    echo "dpkg-buildpackage -us -uc -b (log: $work/build.log)"
    (cd "$work/hooktrace" && DEB_BUILD_OPTIONS=parallel=$(nproc) dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1) ||
        { tail -40 "$work/build.log"; echo "FAIL: dpkg-buildpackage"; exit 1; }
fi
ls "$debs"/*.deb
for p in $packages; do
    [ -f "$(ls "$debs/${p}_"*.deb 2>/dev/null | head -1)" ] || { echo "FAIL: no package $p"; exit 1; }
done

# lintian: errors fail; warnings are printed
lintian --fail-on error --tag-display-limit 0 "$debs"/*.changes || { echo "FAIL: lintian reports errors"; exit 1; }

apt-get install -y -qq "$debs"/*.deb >/dev/null
[ -x /usr/bin/hooktrace ] || { echo "FAIL: /usr/bin/hooktrace not installed"; exit 1; }
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
. "$top/test/install/rings.sh"
status=0
check_rings /usr/bin/hooktrace "/usr/lib/$multiarch" deb "$work" || status=1
[ $status -eq 0 ] && echo "deb check: the packages build, pass lintian, install, and profile both MPIs' ring exactly"
exit $status
