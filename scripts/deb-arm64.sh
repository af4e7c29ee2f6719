#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make deb-arm64: the Debian packages for arm64, cross-built with
# 'dpkg-buildpackage -aarm64' in the Debian 13 root of scripts/deps.sh.
# There, arm64 is a dpkg architecture with libc6:arm64 installed, so
# dpkg-shlibdeps finds the arm64 C library the CLI links against (on this
# Debian 12 machine it is only the cross toolchain's copy, which no
# package of the arm64 architecture owns, and dpkg-shlibdeps stops).
# The packages land in DEB_OUT (default deb-out/arm64); each is checked
# to be what it claims: kstats arm64 with an AArch64 CLI, kstats-dkms all.
#   scripts/deb-arm64.sh
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernels.sh"
root=$KSTATS_ROOTS/trixie
out=${DEB_OUT:-$top/deb-out/arm64}
in=/var/tmp/kstats-deb-arm64

[ -x "$root/usr/bin/dpkg-buildpackage" ] && [ -x "$root/usr/bin/aarch64-linux-gnu-gcc" ] || {
	echo "deb-arm64: no cross build tools in $root (scripts/deps.sh deb arm64)" >&2
	exit 1
}
rm -rf "${root:?}$in" "$out"
mkdir -p "$root$in/src" "$out"
(cd "$top" && tar cf - Makefile install.mk dkms.conf debian kmod common include tools plots) |
	tar xf - -C "$root$in/src"
ks_in_root "$root" sh -c "cd $in/src && dpkg-buildpackage -aarm64 -us -uc -b" > "$out/build.log" 2>&1 || {
	tail -n 20 "$out/build.log" >&2
	echo "deb-arm64: dpkg-buildpackage -aarm64 failed ($out/build.log)" >&2
	exit 1
}
cp "$root$in"/*.deb "$root$in"/*.changes "$root$in"/*.buildinfo "$out/"
rm -rf "${root:?}$in"

bad=0
a=$(dpkg-deb -f "$out"/kstats_*_arm64.deb Architecture)
[ "$a" = arm64 ] || { echo "deb-arm64: kstats is Architecture: $a" >&2; bad=1; }
a=$(dpkg-deb -f "$out"/kstats-dkms_*_all.deb Architecture)
[ "$a" = all ] || { echo "deb-arm64: kstats-dkms is Architecture: $a" >&2; bad=1; }
x=$(mktemp -d)
dpkg-deb -x "$out"/kstats_*_arm64.deb "$x"
m=$(readelf -h "$x/usr/bin/kstats" | sed -n 's/^ *Machine: *//p')
rm -rf "$x"
[ "$m" = AArch64 ] || { echo "deb-arm64: /usr/bin/kstats is for '$m'" >&2; bad=1; }
lintian --fail-on error "$out"/kstats_*_arm64.changes || bad=1
[ $bad = 0 ] || exit 1
echo "deb-arm64: $(cd "$out" && ls ./*.deb | tr '\n' ' ')in $out; kstats Depends: $(dpkg-deb -f "$out"/kstats_*_arm64.deb Depends)"
