#!/bin/sh
# Installs hooktrace into a temporary prefix and builds examples/heat.c the
# way the README tells users to: with pkg-config against the shared library,
# and against the static one.  Checks exact call counts in both profiles.
# Usage: test/install/check_install.sh BUILDDIR
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: check_install.sh BUILDDIR}" && pwd)
prefix=$(mktemp -d /tmp/hooktrace-install.XXXXXX)
work=$(mktemp -d /tmp/hooktrace-user.XXXXXX)
trap 'rm -rf "$destdir" "$work"' EXIT
# Stage the install with DESTDIR, then point pkg-config's ${prefix} there.
configured=$(sed -n 's/^prefix = //p' "$build/Makefile")
destdir=$prefix
prefix="$destdir$configured"
make -s -C "$build" install DESTDIR="$destdir" >/dev/null 2>&1
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
pkg_config() { pkg-config --define-variable=prefix="$prefix" "$@"; }
cd "$work"
for f in lib/libhooktrace.so lib/libhooktrace.a include/hooktrace.h lib/pkgconfig/hooktrace.pc bin/hooktrace-check-config; do
    [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
cc -g -O2 -finstrument-functions -pthread "$top/examples/heat.c" -o heat_shared \
   $(pkg_config --cflags --libs hooktrace) -lm
cc -g -O2 -finstrument-functions -pthread "$top/examples/heat.c" -o heat_static \
   $(pkg_config --cflags hooktrace) "$prefix/lib/libhooktrace.a" \
   $(pkg_config --static --libs-only-l hooktrace | sed 's/-lhooktrace//') -lm -ldl
status=0
for variant in shared static; do
    ./heat_$variant > out_$variant.txt
    python3 - "heat_$variant.json" "$variant" <<'PY' || status=1
import json, sys
doc = json.load(open(sys.argv[1]))
calls = {";".join(s["path"]): s["calls"] for s in doc["stacks"]}
expected = {"main;step": 400, "main;step;stencil_row": 400 * 190,
            "main;step;swap_and_residual": 400, "main;set_boundary": 1,
            "background;checksum": 200}
bad = {p: (calls.get(p), n) for p, n in expected.items() if calls.get(p) != n}
print("%s: %s" % (sys.argv[2], "ok" if not bad else "FAIL %r" % bad))
sys.exit(1 if bad else 0)
PY
done
cmp out_shared.txt out_static.txt || { echo "FAIL: the two builds print different results"; status=1; }
[ "$status" -eq 0 ] && echo "install check: 2 passed, 0 failed" || echo "install check: FAILED"
exit $status
