#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The DKMS source package on arm64, from this x86-64 machine: the tree
# kstats-dkms ships (make dkms-src) names aarch64 among its architectures,
# and its dkms.conf build command, run as DKMS runs it (in the tree, with
# kernel_source_dir set) but cross (ARCH=arm64 CROSS_COMPILE=, from
# scripts/kernels.sh), builds kstats.ko warning-free for each of Debian's
# arm64 kernels that scripts/deps.sh arm64 provides: an AArch64 module
# whose vermagic names that kernel.  make deb-test runs it; TAP lines
# (vm/tap.sh).
#
#   tests/deb/dkms-arm64.sh [KVER...]   default: KSTATS_ARCH=arm64 scripts/kernels.sh list
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=vm/tap.sh
. "$top/vm/tap.sh"
# shellcheck source=scripts/kernels.sh
. "$top/scripts/kernels.sh"
# shellcheck disable=SC2034 # vm/tap.sh reads it
TAP_PREFIX="dkms arm64: "

kvers=${*:-$(KSTATS_ARCH=arm64 ks_kernels)}
if [ -z "$kvers" ]; then
	notok "no arm64 kernel (scripts/deps.sh arm64)"
	tap_end
	exit 1
fi

tmp=$(mktemp -d /var/tmp/kstats-dkms-arm64.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$top" dkms-src DESTDIR="$tmp/pkg" > "$tmp/src.log" 2>&1 ||
	{ notok "make dkms-src" "$(tail -n 5 "$tmp/src.log")"; tap_end; exit 1; }
src=$(echo "$tmp"/pkg/usr/src/kstats-*)
[ -f "$src/dkms.conf" ] || { notok "no dkms.conf in $src"; tap_end; exit 1; }

# dkms.conf as DKMS reads it (bash), for a kernel source dir of @KDIR@.
# shellcheck disable=SC2034 # dkms.conf reads kernel_source_dir
conf() {
	(kernel_source_dir=@KDIR@; . "$src/dkms.conf"; eval "echo \"\${$1}\"")
}
arches=$(conf BUILD_EXCLUSIVE_ARCH)
for a in x86_64 aarch64; do
	if [ -z "$arches" ] || echo "$a" | grep -Eq "$arches"; then
		ok "BUILD_EXCLUSIVE_ARCH '$arches' takes $a"
	else
		notok "BUILD_EXCLUSIVE_ARCH '$arches' refuses $a"
	fi
done
build=$(conf 'MAKE[0]')
case $build in
"make -C kmod KDIR=@KDIR@")	ok "MAKE[0]: $build" ;;
*)	notok "MAKE[0] is '$build': this test knows 'make -C kmod KDIR=\${kernel_source_dir}'" ;;
esac

for k in $kvers; do
	rm -f "$src"/kmod/*.ko "$src"/kmod/*.o
	# make -C kmod KDIR=<the kernel's build tree> in the source tree, plus
	# the kernel's cross flags; a 7.x kernel builds in its Debian 13 root
	if ks_kmake "$k" "$src" kmod > "$tmp/build-$k.log" 2>&1; then
		ok "$k: built"
	else
		notok "$k: build failed" "$(tail -n 15 "$tmp/build-$k.log")"
		continue
	fi
	w=$(grep -c 'warning:' "$tmp/build-$k.log")
	if [ "$w" = 0 ]; then
		ok "$k: no warning"
	else
		notok "$k: $w warnings" "$(grep -m 5 'warning:' "$tmp/build-$k.log")"
	fi
	ko=$src/kmod/kstats.ko
	m=$(readelf -h "$ko" 2>/dev/null | sed -n 's/^ *Machine: *//p')
	if [ "$m" = AArch64 ]; then
		ok "$k: kstats.ko is $m"
	else
		notok "$k: kstats.ko machine '$m', not AArch64"
	fi
	v=$(modinfo -F vermagic "$ko" 2>/dev/null)
	case $v in
	"$k "*)	ok "$k: vermagic $v" ;;
	*)	notok "$k: vermagic '$v' does not name $k" ;;
	esac
done
tap_end
