#!/bin/sh
# Installs the dependencies, builds hooktrace and runs its whole test suite.
#
#   scripts/test.sh              the README's test command
#   scripts/test.sh --no-deps    skip the apt-get step
# Warnings are errors: the build uses -O2 -g -Wall -Wextra -Werror unless
# HT_CFLAGS says otherwise (a newer compiler's new warning then fails the
# test command; HT_CFLAGS='-O2 -g' builds without -Werror).
# Environment: HT_BUILD_DIR (default _build/test), HT_CFLAGS, HT_LDFLAGS,
# HT_CONFIGURE_ARGS: used by .ci/run for the sanitizer and clang builds;
# HT_TESTS: run only these tests (make check TESTS=...), as its clang stage;
# HT_TESTS_SKIP: an extended regular expression: all tests but those it
# matches (its -finstrument-functions stage).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ "${1:-}" = "--no-deps" ] || scripts/install-deps.sh
build="$top/${HT_BUILD_DIR:-_build/test}"
HT_CFLAGS=${HT_CFLAGS:--O2 -g -Wall -Wextra -Werror}
echo "== building in $build ${HT_CFLAGS:+(CFLAGS=$HT_CFLAGS)}"
[ -x configure ] || ./bootstrap >/dev/null 2>&1
mkdir -p "$build"
cd "$build"
"$top/configure" -q ${HT_CONFIGURE_ARGS:-} \
    ${HT_CFLAGS:+CFLAGS="$HT_CFLAGS"} ${HT_CFLAGS:+CXXFLAGS="$HT_CFLAGS"} \
    ${HT_CFLAGS:+FCFLAGS="$HT_CFLAGS"} ${HT_LDFLAGS:+LDFLAGS="$HT_LDFLAGS"}
make -s -j"$(nproc)"
echo "== running the tests"
if [ -n "${HT_TESTS_SKIP:-}" ]; then
    HT_TESTS=$(make -s print-tests | tr ' ' '\n' | grep -v -E "$HT_TESTS_SKIP" | tr '\n' ' ')
fi
status=0
make -s -j"$(nproc)" check ${HT_TESTS:+TESTS="$HT_TESTS"} >make-check.out 2>&1 || status=$?
grep -E '^(PASS|FAIL|ERROR|XPASS|SKIP):' make-check.out || true
if [ "$status" -ne 0 ]; then
    cat make-check.out
    for log in $(grep -lE '^(FAIL|ERROR)' $(find . -name '*.log' ! -name test-suite.log ! -name config.log) 2>/dev/null); do
        echo "== $log"
        cat "$log"
    done
fi
passed=$(grep -cE '^(PASS|XFAIL):' make-check.out || true)
failed=$(grep -cE '^(FAIL|ERROR|XPASS):' make-check.out || true)
checks=$(cat $(find . -name '*.log' ! -name test-suite.log ! -name config.log) 2>/dev/null |
         sed -n 's/^\([0-9][0-9]*\) passed, [0-9][0-9]* failed$/\1/p' | awk '{s+=$1} END {print s+0}')
echo "assertions checked: $checks"
echo "tests: $passed passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
