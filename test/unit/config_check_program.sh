#!/bin/sh
# hooktrace-check-config: exit codes 0 (all valid), 1 (a file is bad),
# 2 (usage), and the shape of its output.
set -u
prog="${HT_TOP_BUILDDIR:-.}/hooktrace-check-config"
files="${HT_TOP_SRCDIR:-.}/test/unit/config_files"
out="${TMPDIR:-/tmp}/ht_check_config.$$"
scratch="${TMPDIR:-/tmp}/ht_check_config_in.$$"
trap 'rm -f "$out.1" "$out.2"; rm -rf "$scratch"' EXIT
passed=0
failed=0

# run EXPECTED-STATUS ARGS...: runs the program, stdout to $out.1, stderr to $out.2
run() {
    want=$1
    shift
    # A hang (a FIFO used to block the reader) ends as status 124.
    timeout 60 "$prog" "$@" >"$out.1" 2>"$out.2"
    got=$?
    if [ "$got" -eq "$want" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: hooktrace-check-config $* exited $got, expected $want" >&2
        cat "$out.1" "$out.2" >&2
    fi
}

# same FILE TEXT: FILE holds exactly TEXT (one line)
same() {
    if [ "$(cat "$1")" = "$2" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: expected: $2" >&2
        echo "           got: $(cat "$1")" >&2
    fi
}

run 0 "$files/full.json" "$files/empty_object.json"
same "$out.1" "$files/full.json: ok
$files/empty_object.json: ok"
same "$out.2" ""

run 1 "$files/bad_unknown_key.json"
same "$out.1" ""
same "$out.2" "hooktrace-check-config: $files/bad_unknown_key.json:3: unknown key \"outptus\" in the top level; valid keys are: off, output_directory, output_basename, sort_by, include_functions, exclude_functions, filter_file, max_stack_depth, fork_children, signal_timeout_ms, outputs, mpi, trace, mpi_t, throttle, counters (did you mean \"outputs\"?)"

# Every file is checked, good ones still reported.
run 1 "$files/bad_syntax.json" "$files/full.json" "$files/bad_regex.json"
same "$out.1" "$files/full.json: ok"
same "$out.2" "hooktrace-check-config: $files/bad_syntax.json:3:19: syntax error: '}' expected near '\"max_stack_depth\"'
hooktrace-check-config: $files/bad_regex.json:5: \"exclude_functions\"[2]: invalid regular expression \"a(b\": Unmatched ( or \\("

# Every problem of a file, in file order, each with its line and key (a
# program run with the file stops at the first): a wrong type, an unknown key
# in a section, a bad regular expression, a value out of range.
run 1 "$files/bad_four.json" "$files/full.json"
same "$out.1" "$files/full.json: ok"
same "$out.2" "hooktrace-check-config: $files/bad_four.json:2: \"max_stack_depth\" must be an integer >= 1, not a string (write 512 without quotes)
hooktrace-check-config: $files/bad_four.json:4: unknown key \"poll_btach\" in \"mpi\"; valid keys are: log_messages, log_ranks, rank_files, poll_interval_us, poll_max_interval_us, poll_batch, poll, rank_times_top, rank_profiles_all (did you mean \"poll_batch\"?)
hooktrace-check-config: $files/bad_four.json:5: \"exclude_functions\"[1]: invalid regular expression \"a(b\": Unmatched ( or \\(
hooktrace-check-config: $files/bad_four.json:6: \"outputs.progress_after_ms\" must be an integer from 0 to 3600000, not -1"

run 1 "$files/no-such-file.json"
same "$out.2" "hooktrace-check-config: $files/no-such-file.json: cannot read the config file: No such file or directory"

run 0 --help
grep -q '^Usage: hooktrace-check-config FILE' "$out.1" && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: --help" >&2; }
run 0 --version
grep -q -x 'hooktrace-check-config (hooktrace) [0-9][0-9.a-z-]*' "$out.1" && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: --version: $(cat "$out.1")" >&2; }
run 2
same "$out.1" ""
grep -q '^Usage: hooktrace-check-config FILE' "$out.2" && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: usage on stderr" >&2; }
run 2 --frobnicate "$files/full.json"

# Not a regular file, or over the 16 MiB limit: refused at once, each with
# what it is; a file of exactly 16 MiB is read.
mkdir -p "$scratch/dir.json"
mkfifo "$scratch/fifo.json"
truncate -s 16777217 "$scratch/big.json"
{ printf '{}'; head -c 16777214 /dev/zero | tr '\0' ' '; } >"$scratch/limit.json"
run 1 /dev/zero "$scratch/fifo.json" "$scratch/dir.json" "$scratch/big.json" "$scratch/limit.json"
same "$out.1" "$scratch/limit.json: ok"
same "$out.2" "hooktrace-check-config: /dev/zero: cannot read the config file: it is a character device, not a regular file
hooktrace-check-config: $scratch/fifo.json: cannot read the config file: it is a FIFO (named pipe), not a regular file
hooktrace-check-config: $scratch/dir.json: cannot read the config file: it is a directory, not a regular file
hooktrace-check-config: $scratch/big.json: cannot read the config file: it has 16777217 bytes; a config file may have at most 16777216 bytes (16 MiB)"

# The checker must not pull in the runtime (it would profile itself).
if command -v ldd >/dev/null 2>&1 && [ -x "$prog" ] && ! head -c 2 "$prog" | grep -q '#!'; then
    if ldd "$prog" | grep -q libhooktrace; then
        failed=$((failed + 1))
        echo "FAIL: hooktrace-check-config links libhooktrace" >&2
    else
        passed=$((passed + 1))
    fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
