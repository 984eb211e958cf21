#!/bin/sh
# libhooktrace brings no MPI into a process (docs/compile.md, "A library
# without MPI dependency"): no MPI library among its DT_NEEDED entries,
# every reference to an MPI routine or variable weak (a strong one, "U" in
# nm, would make the dynamic linker refuse a process without that MPI, or
# bind it to another MPI's), and it loads and runs in a program without MPI
# under LD_BIND_NOW=1, the program's output and exit status unchanged.
# Run from the build directory (the primary's, or mpi-NAME's).
lib=.libs/libhooktrace.so
passed=0
failed=0
check() { # LABEL CONDITION-STATUS [DETAIL]
    if [ "$2" -eq 0 ]; then passed=$((passed + 1)); echo "ok: $1"
    else failed=$((failed + 1)); echo "FAIL: $1${3:+: $3}"; fi
}
[ -f "$lib" ] || { echo "SKIP: no shared library $lib"; exit 77; }
mpi_libs='lib(mpi|mpich|pmpi|open-rte|open-pal|mpi_mpifh|mpi_usempi[a-z0-9_]*|mpichfort|mpichcxx|mpifort)[.-]'
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -E "^$mpi_libs" | tr '\n' ' ')
[ -z "$needed" ]; check "no MPI library needed" $? "$needed"
mpi_syms='^(P?MPIX?_|QMPIX_|pmpi|mpi_|ompi_|OMPI_|MPIR_|MPII_|mpir_)'
strong=$(nm -D --undefined-only "$lib" | awk '$1 == "U" { print $2 }' | sed 's/@.*//' |
         grep -E "$mpi_syms" | tr '\n' ' ')
[ -z "$strong" ]; check "every MPI reference weak" $? "strong: $strong"
weak=$(nm -D --undefined-only "$lib" | awk '$1 == "w" { print $2 }' | grep -cE "$mpi_syms")
[ "$weak" -gt 0 ]; check "weak MPI references present ($weak)" $?
# A program without MPI: LD_BIND_NOW resolves every reference at load time.
work=$(mktemp -d /tmp/hooktrace-weak.XXXXXX)
trap 'rm -rf "$work"' EXIT
cat > "$work/plain.sh" <<'SH'
echo "plain: $1"
exit 3
SH
(cd "$work" && sh plain.sh x > want.txt 2>&1); want_rc=$?
# A sanitizer build's runtime must come first (CI's stage 3).
asan=$(ldd "$lib" | sed -n 's/.*libasan\.so[^ ]* => \([^ ]*\).*/\1/p')
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
(cd "$work" && LD_BIND_NOW=1 LD_PRELOAD="${asan:+$asan }$(cd "$OLDPWD" && pwd)/$lib" sh plain.sh x > got.txt 2> err.txt); got_rc=$?
[ "$got_rc" -eq "$want_rc" ]; check "preloaded with LD_BIND_NOW=1: exit status $want_rc" $? "$got_rc: $(cat "$work/err.txt")"
cmp -s "$work/want.txt" "$work/got.txt"; check "preloaded: the same output" $? "$(cat "$work/got.txt")"
# An MPI program linked under --as-needed with its MPI library after
# libhooktrace, whose wrappers define every routine it calls: the linker
# drops the MPI library, and MPI_Init says so instead of crashing.
if [ -n "$HT_MPI_NAME" ] && pkg-config --exists "$HT_MPI_NAME"; then
    cat > "$work/init.c" <<'C'
#include <mpi.h>
int main(int argc, char **argv) { MPI_Init(&argc, &argv); return MPI_Finalize(); }
C
    # shellcheck disable=SC2086 # the flags are words
    if ${HT_CC:-cc} $HT_CC_CFLAGS $(pkg-config --cflags "$HT_MPI_NAME") "$work/init.c" \
           -o "$work/init" $HT_CC_LDFLAGS -Wl,--as-needed -L.libs -Wl,-rpath,"$PWD/.libs" -lhooktrace \
           $(pkg-config --libs "$HT_MPI_NAME") 2> "$work/cc.txt"; then
        mpi=$(readelf -d "$work/init" | grep NEEDED | grep -E "$mpi_libs" | tr '\n' ' ')
        [ -z "$mpi" ]; check "a program linked so loads no MPI library" $? "$mpi"
        (cd "$work" && ./init > out.txt 2> err.txt) 2> /dev/null; rc=$?
        [ "$rc" -ne 0 ] && grep -q "^hooktrace: the program calls MPI_Init but no MPI library is loaded: link" "$work/err.txt"
        check "MPI_Init without an MPI library: the message, exit status $rc" $? "$(cat "$work/err.txt")"
    else
        check "cc links the MPI_Init program" 1 "$(cat "$work/cc.txt")"
    fi
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
