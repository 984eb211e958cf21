#!/bin/sh
# Builds the fuzz targets of test/fuzz with clang's libFuzzer (plus
# AddressSanitizer and UndefinedBehaviorSanitizer) and runs each for a
# bounded time, one process each, one after the other (docs/fuzzing.md).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     default: 60 s, config and trace
#
# Environment: HT_FUZZ_DIR (default _build/fuzz): binaries, the growing
# corpus (seeded from test/fuzz/corpus/TARGET, which is never written) and
# crash artifacts.  Exits 1 if a target found a crash, leak or timeout;
# the input is in $HT_FUZZ_DIR/artifacts/TARGET/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-config trace}
out="$top/${HT_FUZZ_DIR:-_build/fuzz}"
mkdir -p "$out"
CC=${CC:-clang}
# The analyzer's report_json.c wants autoconf's config.h for the version.
printf '#define PACKAGE_VERSION "fuzz"\n' >"$out/config.h"
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=undefined -std=gnu11 -I$top/src -I$out"

build() {
    case "$1" in
    config)
        # shellcheck disable=SC2086
        config=$(ls "$top"/src/config/*.c | grep -v '/check_config_main\.c$')
        # shellcheck disable=SC2086
        $CC $flags -o "$out/fuzz_config" "$top/test/fuzz/fuzz_config.c" $config \
            $(pkg-config --cflags --libs jansson)
        ;;
    trace)
        analyzer=$(ls "$top"/src/analyze/*.c | grep -v -e '/main\.c$' -e '/options\.c$' -e '/launcher\.c$' -e '/archive_mpi\.c$')
        # shellcheck disable=SC2086
        $CC $flags -o "$out/fuzz_trace" "$top/test/fuzz/fuzz_trace.c" $analyzer \
            $(pkg-config --cflags --libs otf2 2>/dev/null || echo -lotf2) \
            $(pkg-config --cflags --libs jansson) -lm -pthread
        ;;
    *)
        echo "fuzz.sh: no target '$1' (config, trace)" >&2
        exit 2
        ;;
    esac
}

status=0
for t in $targets; do
    echo "== fuzz $t: building"
    build "$t"
    mkdir -p "$out/corpus/$t" "$out/artifacts/$t"
    dict=""
    [ -f "$top/test/fuzz/$t.dict" ] && dict="-dict=$top/test/fuzz/$t.dict"
    # A damaged anchor file makes OTF2 ask for tens of GB at once; like
    # glibc, the allocator then says no (NULL) and OTF2 reports an error.
    # What memory is really used is still held to -rss_limit_mb.
    # The anchor file is OTF2's alone, and OTF2 can spend minutes on a
    # damaged one (counts of billions): only the valid anchors of
    # test/fuzz/anchors are used (HT_FUZZ_ANCHORS; set it empty to fuzz
    # them too).  With -fork=1 a timeout or out-of-memory is kept as an
    # artifact to look at, and the run goes on; a crash still ends it.  Leaks are left to the CI's ASan stage
    # (checking them here needs slow unwinding through OTF2 on every
    # malloc to match test/analyze/lsan.supp).
    extra_asan=""
    limits=""
    if [ "$t" = trace ]; then
        extra_asan="allocator_may_return_null=1:detect_leaks=0:"
        limits="-malloc_limit_mb=1048576 -fork=1 -ignore_timeouts=1 -ignore_ooms=1"
    fi
    echo "== fuzz $t: $seconds s"
    # shellcheck disable=SC2086
    if ! HT_FUZZ_ANCHORS="${HT_FUZZ_ANCHORS-$top/test/fuzz/anchors}" \
        ASAN_OPTIONS="${extra_asan}${ASAN_OPTIONS:-}" \
        "$out/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
            -max_len=65536 -print_final_stats=1 $dict $limits \
            -artifact_prefix="$out/artifacts/$t/" \
            "$out/corpus/$t" "$top/test/fuzz/corpus/$t" >"$out/$t.log" 2>&1; then
        status=1
        echo "== fuzz $t: FOUND A PROBLEM (log: $out/$t.log)" >&2
        grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$out/$t.log" | head -5 >&2 || true
    fi
    grep -E '^stat::(number_of_executed_units|peak_rss_mb)|cov:' "$out/$t.log" | tail -3
done
exit $status
