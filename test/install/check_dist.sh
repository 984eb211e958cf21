#!/bin/sh
# The release tarball builds where there is no npm and no network (a
# cluster's login node): `make dist` carries the HTML report's flame-graph
# component in src/report/vendor.  Builds the tarball with npm hidden
# (configure's cache variable), checks configure took the vendored files,
# and that the tarball's library writes, for a small profiled program, the
# very page this build's hooktrace-report writes from the same JSON.
# Usage: test/install/check_dist.sh BUILDDIR
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: check_dist.sh BUILDDIR}" && pwd)
work=$(mktemp -d /tmp/hooktrace-dist.XXXXXX)
trap 'rm -rf "$work"' EXIT
passed=0
ok() { passed=$((passed + 1)); echo "$1: ok"; }
fail() { echo "FAIL: $1"; exit 1; }

make -s -C "$build" dist >/dev/null
tarball=$(ls -t "$build"/hooktrace-*.tar.gz | head -1)
tar -xzf "$tarball" -C "$work"
src=$(ls -d "$work"/hooktrace-*/)
[ -f "$src/src/report/vendor/d3-flame-graph/dist/d3-flamegraph.min.js" ] ||
    fail "the tarball has no src/report/vendor"
ok "tarball carries the component"
for f in man/hooktrace.1 man/hooktrace-report.1 man/hooktrace-check-config.1 \
         man/hooktrace-analyze.1 man/hooktrace-score.1 hooktrace-config.5 \
         man/config_man.py man/hooktrace-config.5.in scripts/link_guard.s scripts/link_guard.h; do
    [ -f "$src/$f" ] || fail "the tarball has no $f"
done
ok "tarball carries the man pages and the link guard"

mkdir "$work/build" && cd "$work/build"
# npm is hidden from configure; the network is not needed.
"$src/configure" -q ac_cv_path_NPM=no --disable-fortran >configure.out 2>&1 ||
    { cat configure.out; fail "configure of the tarball without npm"; }
grep -q "report component: src/report/vendor" configure.out ||
    { cat configure.out; fail "configure did not take the vendored component"; }
ok "configure without npm"
make -s -j2 libhooktrace.la hooktrace-report >make.out 2>&1 ||
    { tail -30 make.out; fail "build of the tarball without npm"; }
[ ! -d src/report/npm ] || fail "the tarball's build ran npm"
ok "build without npm"

# A small program profiled by the tarball's library; its page must be the
# page the checkout's build (component from npm) makes of the same JSON.
cat > prog.c <<'PROG'
#include <stdio.h>
static int leaf(int i) { return i * 2; }
int main(void) { int s = 0; for (int i = 0; i < 10; i++) s += leaf(i); printf("%d\n", s); return 0; }
PROG
lib="$work/build/.libs"
cc -g -O1 -finstrument-functions prog.c -o prog -L"$lib" -Wl,-rpath,"$lib" \
   -Wl,--no-as-needed -lhooktrace
out=$(./prog)
[ "$out" = 90 ] || fail "the program's output: $out"
[ -f prog.json ] && [ -f prog.html ] || fail "no prog.json and prog.html: $(ls)"
python3 - prog.json <<'PY' || fail "prog.json: leaf should have 10 calls"
import json, sys
doc = json.load(open(sys.argv[1]))
names = [doc["functions"][s["function_index"]]["name"] for s in doc["stacks"]]
calls = {n: s["calls"] for n, s in zip(names, doc["stacks"])}
sys.exit(0 if calls.get("leaf") == 10 and calls.get("main") == 1 else 1)
PY
"$build/hooktrace-report" prog.json -o checkout.html
cmp -s prog.html checkout.html || fail "the tarball's page differs from the checkout's"
ok "same page as the checkout's build"
echo "dist check: $passed passed, 0 failed"
