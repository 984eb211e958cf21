#!/bin/sh
# The Spack package (spack-repo/, docs/install.md "Spack"): a Spack checkout
# installs hooktrace from the `make dist` tarball, offline, through a local
# mirror, against this machine's Debian packages as externals (Open MPI,
# MPICH, elfutils, libdwarf, jansson, OTF2, PAPI, pkgconf, make) and its GCC;
# then the installed `hooktrace` builds test/install/prefix's ring with Open
# MPI's and MPICH's mpicc, and each profile on 2 ranks has the ring's exact
# calls, messages and bytes (ring_profile.py); and a second install, ~otf2
# with Open MPI alone, whose ring asked for a trace refuses it and keeps its
# exact profile.  Everything Spack writes stays
# in a temporary folder, removed at the end.
# Usage: test/install/check_spack.sh SPACK_ROOT TARBALL
#   SPACK_ROOT: a Spack checkout (0.22 or later) whose Python imports clingo
#   (SPACK_PYTHON names the interpreter); TARBALL: hooktrace-VERSION.tar.gz.
# Exits 77 (skipped) without them: Spack is no Debian package.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
spack_root=${1:-}
tarball=${2:-}
if [ -z "$spack_root" ] || [ ! -x "$spack_root/bin/spack" ]; then
    echo "SKIP: no Spack checkout given (check_spack.sh SPACK_ROOT TARBALL)"
    exit 77
fi
[ -f "$tarball" ] || { echo "FAIL: no tarball '$tarball'"; exit 1; }
python=${SPACK_PYTHON:-python3}
if ! "$python" -c "import clingo" 2>/dev/null; then
    echo "SKIP: $python cannot import clingo, Spack's concretizer (set SPACK_PYTHON)"
    exit 77
fi
export SPACK_PYTHON="$python"
version=$(basename "$tarball" .tar.gz | sed 's/^hooktrace-//')
work=$(mktemp -d /tmp/hooktrace-spack.XXXXXX)
[ -n "${HT_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
export SPACK_DISABLE_LOCAL_CONFIG=1 SPACK_USER_CONFIG_PATH="$work/user" \
    SPACK_USER_CACHE_PATH="$work/cache"
mkdir -p "$work/mirror/hooktrace" "$work/config"
cp "$tarball" "$work/mirror/hooktrace/hooktrace-$version.tar.gz"

# Debian's upstream version of a package: 4.1.4-3+b1 -> 4.1.4
deb() { dpkg-query -W -f '${Version}' "$1" | sed 's/^[0-9]*://; s/-[^-]*$//'; }
cat >"$work/config/packages.yaml" <<EOF
packages:
  openmpi: {buildable: false, externals: [{spec: "openmpi@$(deb libopenmpi-dev)", prefix: /usr}]}
  mpich: {buildable: false, externals: [{spec: "mpich@$(deb libmpich-dev)", prefix: /usr}]}
  elfutils: {buildable: false, externals: [{spec: "elfutils@$(deb libelf-dev)", prefix: /usr}]}
  libdwarf: {buildable: false, externals: [{spec: "libdwarf@$(deb libdwarf-dev)", prefix: /usr}]}
  jansson: {buildable: false, externals: [{spec: "jansson@$(deb libjansson-dev)", prefix: /usr}]}
  otf2: {buildable: false, externals: [{spec: "otf2@$(deb libotf2-trace-dev)", prefix: /usr}]}
  papi: {buildable: false, externals: [{spec: "papi@$(deb libpapi-dev)", prefix: /usr}]}
  pkgconf: {buildable: false, externals: [{spec: "pkgconf@$(deb pkgconf)", prefix: /usr}]}
  gmake: {buildable: false, externals: [{spec: "gmake@$(deb make)", prefix: /usr}]}
EOF
cat >"$work/config/config.yaml" <<EOF
config:
  install_tree: {root: $work/opt}
  build_stage: [$work/stage]
  source_cache: $work/source-cache
  misc_cache: $work/misc-cache
EOF
cat >"$work/config/bootstrap.yaml" <<EOF
bootstrap: {enable: false}
EOF
cat >"$work/config/mirrors.yaml" <<EOF
mirrors: {local: "file://$work/mirror"}
EOF
cat >"$work/config/repos.yaml" <<EOF
repos: [$top/spack-repo]
EOF
spack() { "$spack_root/bin/spack" -C "$work/config" "$@"; }
spack compiler find --scope site >/dev/null 2>&1 || spack compiler find >/dev/null
spec="hooktrace@$version +openmpi +mpich +papi +gcc_plugin +fortran"
echo "spack spec $spec"
spack spec -I "$spec" || { echo "FAIL: spack spec"; exit 1; }
echo "spack install --no-checksum $spec (log: $work/install.log)"
spack install --no-checksum -v "$spec" >"$work/install.log" 2>&1 ||
    { tail -60 "$work/install.log"; echo "FAIL: spack install"; exit 1; }
prefix=$(spack location -i hooktrace)
[ -x "$prefix/bin/hooktrace" ] || { echo "FAIL: $prefix/bin/hooktrace not installed"; exit 1; }
echo "installed in $prefix"

. "$top/test/install/rings.sh"
status=0
check_rings "$prefix/bin/hooktrace" "$prefix/lib" spack "$work" || status=1
[ -x "$prefix/bin/hooktrace-analyze" ] || { echo "FAIL: +otf2 installed no hooktrace-analyze"; status=1; }

# ~otf2 (docs/install.md "Without OTF2"), Open MPI alone: no OTF2 anywhere
# in the spec or the library, no hooktrace-analyze, and a ring run with
# trace mode asked for has its exact profile and one refusal per rank.
spec2="hooktrace@$version ~otf2 +openmpi ~mpich ~papi ~gcc_plugin ~fortran"
echo "spack install --no-checksum $spec2 (log: $work/install-no-otf2.log)"
spack install --no-checksum -v "$spec2" >"$work/install-no-otf2.log" 2>&1 ||
    { tail -60 "$work/install-no-otf2.log"; echo "FAIL: spack install ~otf2"; exit 1; }
prefix2=$(spack location -i hooktrace ~otf2)
if spack find -d hooktrace ~otf2 | grep -q otf2@; then echo "FAIL: ~otf2 depends on otf2"; status=1; fi
[ ! -e "$prefix2/bin/hooktrace-analyze" ] || { echo "FAIL: ~otf2 installed hooktrace-analyze"; status=1; }
if ldd "$prefix2/lib/libhooktrace.so.0" | grep -q libotf2; then echo "FAIL: ~otf2 library links OTF2"; status=1; fi
mkdir "$work/no-otf2"
echo '{"trace": {"enabled": true}}' >"$work/no-otf2/trace.json"
HOOKTRACE_CONFIG="$work/no-otf2/trace.json" \
    check_rings "$prefix2/bin/hooktrace" "$prefix2/lib" "spack ~otf2" "$work/no-otf2" openmpi || status=1
refusals=$(grep -c "trace mode needs OTF2" "$work/no-otf2/ring-openmpi/err.txt" || true)
[ "$refusals" = 2 ] || { echo "FAIL: ~otf2 trace run: $refusals refusals on stderr, not 2"; status=1; }
[ ! -e "$work/no-otf2/ring-openmpi/ring_trace" ] || { echo "FAIL: ~otf2 made a trace folder"; status=1; }
[ $status -eq 0 ] && echo "spack: ok (+otf2 with both MPIs, ~otf2)"
exit $status
