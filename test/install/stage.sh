# Sourced by the install checks: `stage_install BUILDDIR NAME` runs
# `make install` of BUILDDIR into a fresh DESTDIR and makes an empty work
# directory (/tmp/hooktrace-NAME.*), both removed when the check exits.
# Sets destdir, work and prefix (where the configured prefix landed under
# destdir; pkg-config's ${prefix} must be pointed there).
stage_install() {
    destdir=$(mktemp -d /tmp/hooktrace-install.XXXXXX)
    work=$(mktemp -d "/tmp/hooktrace-$2.XXXXXX")
    trap 'rm -rf "$destdir" "$work"' EXIT
    prefix="$destdir$(sed -n 's/^prefix = //p' "$1/Makefile")"
    make -s -C "$1" install DESTDIR="$destdir" >/dev/null 2>&1
}
