#!/bin/sh
# One install for every MPI (docs/compile.md, "One install, several MPIs"),
# from BUILDDIR configured with Open MPI and MPICH (configure's default when
# both are found):
#  - the link-time check: a program that links one MPI and the other's
#    runtime library (-lhooktrace, or a pkg-config module) fails to link, with
#    a message naming both MPIs and the fix, in both directions; the right
#    pairs and a program without MPI link;
#  - `hooktrace COMPILER` links the library of the wrapper's MPI (C, C++,
#    Fortran wrappers of both MPIs; a plain compiler: the primary's);
#  - `hooktrace run` preloads the library of the MPI the program loads (the
#    program prints the hooktrace library in its address space), and says
#    which MPI's library is missing and how to build it when it is;
#  - configure: the summary lists the libraries built; --with-mpi=LIST.
# Usage: test/install/check_multi.sh BUILDDIR
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: check_multi.sh BUILDDIR}" && pwd)
. "$top/test/install/stage.sh"
stage_install "$build" multi
[ "$(sed -n 's/^HT_MPI_FAMILY = //p' "$build/Makefile")" = openmpi ] &&
    [ -f "$build/mpi-mpich/Makefile" ] ||
    { echo "FAIL: $build is not configured for Open MPI (primary) and MPICH"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
pkg_config() { pkg-config --define-variable=prefix="$prefix" "$@"; }
ompicc=$(sed -n 's/^MPICC = //p' "$build/Makefile")
ompirun="$(sed -n 's/^MPIEXEC = //p' "$build/Makefile") --oversubscribe"
mpichcc=$(sed -n 's/^MPICC = //p' "$build/mpi-mpich/Makefile")
mpichrun=$(sed -n 's/^MPIEXEC = //p' "$build/mpi-mpich/Makefile")
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "$1: ok"; }
fail() { failed=$((failed + 1)); echo "$1: FAIL $2"; }
cd "$work"

# A 2-rank program that prints the hooktrace libraries mapped into it.
cat > maps.c <<'C'
#include <mpi.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
    int rank;
    char line[4096], seen[4096] = "";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    FILE *f = fopen("/proc/self/maps", "r");
    while (f && fgets(line, sizeof line, f)) {
        char *name = strrchr(line, '/');
        if (name && strstr(name, "libhooktrace") && !strstr(seen, name) &&
            strlen(seen) + strlen(name) < sizeof seen)
            strcat(seen, name);
    }
    if (f) fclose(f);
    if (rank == 0) printf("maps:%s", seen);
    MPI_Finalize();
    return 0;
}
C

# --- the link-time check ------------------------------------------------------
# link_fails LABEL WANT... -- COMMAND: COMMAND must fail, its output name
# every WANT.
link_fails() {
    label=$1; shift
    wants=""
    while [ "$1" != -- ]; do wants="$wants|$1"; shift; done
    shift
    if "$@" > link.out 2>&1; then fail "$label" "linked"; return; fi
    missing=""
    old_ifs=$IFS; IFS='|'
    for w in ${wants#|}; do grep -q -F -e "$w" link.out || missing="$missing '$w'"; done
    IFS=$old_ifs
    if [ -n "$missing" ]; then fail "$label" "message without$missing: $(cat link.out)"; else ok "$label"; fi
}
lib="-L$prefix/lib -Wl,-rpath,$prefix/lib"
link_fails "mpich program, -lhooktrace (Open MPI's)" "built for Open MPI" "links MPICH" "-lhooktrace-mpich" -- \
    $mpichcc maps.c -o m1 $lib -lhooktrace
link_fails "mpich program, pkg-config hooktrace" "built for Open MPI" "links MPICH" "pkg-config hooktrace-mpich" -- \
    $mpichcc maps.c -o m2 $(pkg_config --libs hooktrace)
link_fails "open mpi program, -lhooktrace-mpich" "built for MPICH" "links Open MPI" "-lhooktrace-openmpi" -- \
    $ompicc maps.c -o m3 $lib -lhooktrace-mpich
link_fails "open mpi program, pkg-config hooktrace-mpich" "built for MPICH" "links Open MPI" "pkg-config hooktrace-openmpi" -- \
    $ompicc maps.c -o m4 $(pkg_config --libs hooktrace-mpich)
# The library ahead of the objects and libmpi, under --as-needed.
link_fails "mpich program, -lhooktrace first, --as-needed" "built for Open MPI" "links MPICH" -- \
    $mpichcc -Wl,--as-needed $lib -lhooktrace maps.c -o m5
# needed_of EXE: the hooktrace library EXE needs
needed_of() { readelf -d "$1" | sed -n 's/.*NEEDED.*\[\(libhooktrace[^]]*\)\]/\1/p'; }
linked() { # LABEL EXE WANT COMMAND...: COMMAND links EXE, which needs WANT
    label=$1 exe=$2 want=$3; shift 3
    if ! "$@" > link.out 2>&1; then fail "$label" "$(cat link.out)"
    elif [ "$(needed_of "$exe")" != "$want" ]; then fail "$label" "needs $(needed_of "$exe"), not $want"
    else ok "$label"; fi
}
linked "open mpi program, pkg-config hooktrace" ok1 libhooktrace.so.0 $ompicc maps.c -o ok1 $(pkg_config --libs hooktrace)
linked "open mpi program, pkg-config hooktrace-openmpi" ok2 libhooktrace.so.0 $ompicc maps.c -o ok2 $(pkg_config --libs hooktrace-openmpi)
linked "mpich program, pkg-config hooktrace-mpich" ok3 libhooktrace-mpich.so.0 $mpichcc maps.c -o ok3 $(pkg_config --libs hooktrace-mpich)
echo 'int main(void) { return 0; }' > plain.c
linked "program without MPI, -lhooktrace" ok4 libhooktrace.so.0 cc plain.c -o ok4 $lib -Wl,--no-as-needed -lhooktrace
linked "program without MPI, -lhooktrace-mpich" ok5 libhooktrace-mpich.so.0 cc plain.c -o ok5 $lib -Wl,--no-as-needed -lhooktrace-mpich

# --- hooktrace COMPILER: the library of the wrapper's MPI ------------------------
ht=$prefix/bin/hooktrace
printf 'program p\nend program p\n' > plain.f90
echo 'int main() { return 0; }' > plain.cpp
linked "hooktrace $ompicc" c1 libhooktrace.so.0 $ht $ompicc maps.c -o c1
linked "hooktrace $mpichcc" c2 libhooktrace-mpich.so.0 $ht $mpichcc maps.c -o c2
for w in mpicxx mpif90; do
    for m in openmpi mpich; do
        [ "$m" = openmpi ] && want=libhooktrace.so.0 || want=libhooktrace-mpich.so.0
        [ "$w" = mpicxx ] && src=plain.cpp || src=plain.f90
        if command -v $w.$m >/dev/null; then linked "hooktrace $w.$m" $w$m $want $ht $w.$m $src -o $w$m; fi
    done
done
linked "hooktrace cc (no MPI): the primary's" c3 libhooktrace.so.0 $ht cc plain.c -o c3
# Compiled apart and linked: the same.
$ht $mpichcc -c maps.c -o maps.o && linked "hooktrace $mpichcc, objects linked apart" c4 libhooktrace-mpich.so.0 $ht $mpichcc maps.o -o c4
# The runs: each program maps its MPI's library only.
(cd "$work" && timeout 120 $mpichrun -np 2 ./c2 > c2.out 2>&1) || true
[ "$(cat c2.out)" = "maps:/libhooktrace-mpich.so.0.0.0" ] && ok "c2 runs with libhooktrace-mpich" || fail "c2 run" "$(cat c2.out)"

# --- hooktrace run: the library of the MPI the program loads -------------------------
$ompicc maps.c -o plain_ompi
$mpichcc maps.c -o plain_mpich
mkdir r1 r2 r3
(cd r1 && timeout 120 $ht run -- $ompirun -np 2 ../plain_ompi > out.txt 2>&1) || true
[ "$(cat r1/out.txt)" = "maps:/libhooktrace.so.0.0.0" ] && ok "hooktrace run, Open MPI program" || fail "hooktrace run, Open MPI program" "$(cat r1/out.txt)"
(cd r2 && timeout 120 $ht run -- $mpichrun -np 2 ../plain_mpich > out.txt 2>&1) || true
[ "$(cat r2/out.txt)" = "maps:/libhooktrace-mpich.so.0.0.0" ] && ok "hooktrace run, MPICH program" || fail "hooktrace run, MPICH program" "$(cat r2/out.txt)"
# Without a launcher (a singleton), and a profile with the exact calls.
(cd r3 && timeout 120 $ht run ../plain_mpich > out.txt 2>&1) || true
if [ "$(cat r3/out.txt)" = "maps:/libhooktrace-mpich.so.0.0.0" ] &&
   python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); c = {d["functions"][s["function_index"]]["name"]: s["calls"] for s in d["stacks"]}; sys.exit(0 if (d["ranks"], c.get("MPI_Init"), c.get("MPI_Finalize")) == (1, 1, 1) else 1)' r3/plain_mpich.json; then
    ok "hooktrace run, MPICH singleton"
else fail "hooktrace run, MPICH singleton" "$(cat r3/out.txt; ls r3)"; fi

# --- an install without MPICH's library: the error names it and the fix ----------
cp -a "$prefix" "$work/ompi_only"
rm -f "$work/ompi_only/lib/libhooktrace-mpich"*
for cmd in "run -- $mpichrun -np 2 ./plain_mpich" "$mpichcc maps.c -o never"; do
    status=0
    "$work/ompi_only/bin/hooktrace" $cmd > missing.out 2>&1 || status=$?
    if [ "$status" -eq 2 ] && grep -q "uses MPICH, and this install has no libhooktrace for it" missing.out &&
       grep -q -e "--with-mpi=openmpi,mpich" missing.out && [ ! -e never ]; then
        ok "missing MPICH library: hooktrace ${cmd%% *}"
    else fail "missing MPICH library: hooktrace ${cmd%% *}" "status $status: $(cat missing.out)"; fi
done

# --- configure: the summary and --with-mpi ---------------------------------------
# (configure only: the builds above are the default's)
mkdir conf1 conf2 conf3
(cd conf1 && "$top/configure" -q --with-mpi=mpich,openmpi --disable-fortran > out.txt 2>&1) || true
if grep -q "MPICH (mpich): libhooktrace, pkg-config hooktrace, hooktrace-mpich; .*mpicc.mpich" conf1/out.txt &&
   grep -q "Open MPI (openmpi): libhooktrace-openmpi, pkg-config hooktrace-openmpi; .*mpicc" conf1/out.txt &&
   [ "$(sed -n 's/^HT_MPI_FAMILY = //p' conf1/Makefile)" = mpich ] &&
   [ "$(sed -n 's/^HT_LIB_SUFFIX = //p' conf1/mpi-openmpi/Makefile)" = -openmpi ]; then
    ok "configure --with-mpi=mpich,openmpi"
else fail "configure --with-mpi=mpich,openmpi" "$(cat conf1/out.txt)"; fi
(cd conf2 && "$top/configure" -q --with-mpi=openmpi --disable-fortran > out.txt 2>&1) || true
if grep -q "Open MPI (openmpi): libhooktrace, pkg-config hooktrace, hooktrace-openmpi" conf2/out.txt &&
   ! grep -q "MPICH (mpich)" conf2/out.txt && ! ls -d conf2/mpi-* >/dev/null 2>&1; then
    ok "configure --with-mpi=openmpi"
else fail "configure --with-mpi=openmpi" "$(cat conf2/out.txt; ls conf2)"; fi
status=0
(cd conf3 && "$top/configure" -q --with-mpi=openmpi,lam > out.txt 2>&1) || status=$?
if [ "$status" -ne 0 ] && grep -q "unknown MPI 'lam' (known: openmpi, mpich)" conf3/out.txt; then
    ok "configure --with-mpi=openmpi,lam"
else fail "configure --with-mpi=openmpi,lam" "status $status: $(cat conf3/out.txt)"; fi

# hooktrace-analyze under mpirun execs its MPI's build of itself
# (docs/analyze.md, "mpirun"): one per MPI in libexec.
for m in openmpi mpich; do
    if [ -x "$prefix/libexec/hooktrace/hooktrace-analyze-mpi-$m" ]; then
        ok "libexec/hooktrace/hooktrace-analyze-mpi-$m"
    else fail "libexec/hooktrace/hooktrace-analyze-mpi-$m" "not installed"; fi
done

echo "multi-MPI check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
