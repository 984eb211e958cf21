#!/bin/sh
# The conventions of the installed commands (docs/output.md is not needed
# to use them): every tool answers --version with "NAME (hooktrace)
# VERSION" and --help, both with status 0; the man pages hooktrace(1),
# hooktrace-report(1), hooktrace-check-config(1), hooktrace-analyze(1),
# hooktrace-score(1) and hooktrace-config(5) are installed, found by `man`
# and rendered without a warning; the documentation is installed under
# share/doc/hooktrace, and every path a --help text names exists there.
# Usage: test/install/check_tools.sh BUILDDIR
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: check_tools.sh BUILDDIR}" && pwd)
. "$top/test/install/stage.sh"
stage_install "$build" tools
configured_prefix=$(sed -n 's/^prefix = //p' "$build/Makefile")
version=$(sed -n 's/^PACKAGE_VERSION = //p' "$build/Makefile")
status=0
passed=0
ok() { passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; status=1; }

for tool in hooktrace hooktrace-report hooktrace-check-config hooktrace-analyze hooktrace-score; do
    exe=$prefix/bin/$tool
    [ -x "$exe" ] || { fail "$tool is not installed in $prefix/bin"; continue; }
    out=$("$exe" --version 2>&1) && [ "$out" = "$tool (hooktrace) $version" ] && ok ||
        fail "$tool --version: status $?, output: $out"
    "$exe" --help >"$work/help" 2>&1 && ok || fail "$tool --help: status $?"
    # Every file the help names, under the install (a staged one: the
    # configured prefix is under DESTDIR here); no source tree's docs/.
    paths=$(grep -o '/[^ ,;:()]*\.md' "$work/help" || true)
    [ -n "$paths" ] && ok || fail "$tool --help names no installed doc: $(cat "$work/help")"
    for p in $paths; do
        case $p in
        "$configured_prefix"/*) p=$destdir$p ;;
        esac
        [ -f "$p" ] && ok || fail "$tool --help names $p, not installed"
    done
    if grep -q '[^/]docs/' "$work/help"; then fail "$tool --help names a source tree's docs/"; else ok; fi
done

# Every command runs for any user, not only for its builder: a script's
# first line names a system interpreter (a python3 first on the builder's
# PATH may live in the builder's home, as pyenv's shims do), checked by
# running each as nobody.
case $(head -n 1 "$prefix/bin/hooktrace-score") in
'#!/usr/bin/'* | '#!/bin/'*) ok ;;
*) fail "hooktrace-score's first line names no system interpreter: $(head -n 1 "$prefix/bin/hooktrace-score")" ;;
esac
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null 2>&1; then
    chmod 755 "$destdir"
    for tool in hooktrace hooktrace-report hooktrace-check-config hooktrace-analyze hooktrace-score; do
        out=$(cd / && setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- \
              "$prefix/bin/$tool" --version 2>&1) && [ "$out" = "$tool (hooktrace) $version" ] && ok ||
            fail "$tool --version as nobody: status $?, output: $out"
    done
else
    echo "tools check: not root (or no nobody, no setpriv): the commands were not run as another user"
fi

# The man pages: found by name, rendered without a warning (groff's go to
# standard error).
man=$prefix/share/man
for page in 1:hooktrace 1:hooktrace-report 1:hooktrace-check-config 1:hooktrace-analyze \
            1:hooktrace-score 5:hooktrace-config; do
    section=${page%%:*} name=${page#*:}
    file=$man/man$section/$name.$section
    [ -f "$file" ] && ok || { fail "$file not installed"; continue; }
    warnings=$(MANWIDTH=80 man --warnings -l "$file" 2>&1 >/dev/null)
    [ -z "$warnings" ] && ok || fail "man --warnings -l $file: $warnings"
    [ "$(man -M "$man" -w "$section" "$name")" = "$file" ] && ok || fail "man -M $man $section $name finds no page"
    MANWIDTH=80 man -M "$man" "$section" "$name" 2>/dev/null | grep -q "^NAME" && ok ||
        fail "man -M $man $section $name shows nothing"
done
# hooktrace-config(5) has every option of docs/config.md's tables.
for key in off output_basename outputs.html mpi.rank_times_top trace.max_bytes_per_rank \
           mpi_t.read_interval_us throttle.patch_code counters; do
    MANWIDTH=200 man -l "$man/man5/hooktrace-config.5" 2>/dev/null | grep -q "^ *$key\( \|\$\)" && ok ||
        fail "hooktrace-config(5) has no option $key"
done

# The documentation, as in the source tree under share/doc/hooktrace.
doc=$(sed -n 's/^docdir = //p' "$build/Makefile" | sed "s|\${datarootdir}|$(sed -n 's/^datarootdir = //p' "$build/Makefile")|; s|\${PACKAGE_TARNAME}|hooktrace|; s|\${prefix}|$configured_prefix|")
for f in README.md $(cd "$top" && ls docs/*.md); do
    [ -f "$destdir$doc/$f" ] && ok || fail "$doc/$f not installed"
done

[ "$status" -eq 0 ] && echo "tools check: $passed passed, 0 failed" || echo "tools check: FAILED ($passed passed)"
exit $status
