#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Exit 0 when everything 'make test' and 'make demo' need is installed:
# tools, busybox, QEMU, matplotlib, and three Debian kernels (image +
# headers): 6.1 and 6.12 on this machine, 7.x in the trixie build root;
# the Debian packaging tools, and the Debian 12 root of the package test.
missing=""
for c in gcc make qemu-system-x86_64 cpio xz zstd /bin/busybox promtool bpftrace perf debootstrap unshare \
	dpkg-buildpackage dh_dkms dkms lintian fakeroot; do
	command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
done
/usr/bin/python3 -c 'import matplotlib, pytest' 2>/dev/null || missing="$missing python3-matplotlib/pytest"
command -v clang >/dev/null 2>&1 || missing="$missing clang"
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
	missing="$missing libclang-rt-14-dev"	# clang -fsanitize=fuzzer (tests/fuzz)
for series in '6.1.*' '6.12.*'; do
	found=""
	for b in /lib/modules/$series/build; do
		[ -d "$b" ] || continue
		r=${b%/build}; r=${r##*/}
		[ -f "/boot/vmlinuz-$r" ] && found=$r
	done
	[ -n "$found" ] || missing="$missing linux-$series"
done
trixie=${KSTATS_ROOTS:-/var/lib/kstats}/trixie
found=""
for b in "$trixie"/lib/modules/7.*/build; do
	[ -d "$b" ] || continue
	r=${b%/build}; r=${r##*/}
	[ -f "$trixie/boot/vmlinuz-$r" ] && [ -x "$trixie/usr/bin/gcc" ] && found=$r
done
[ -n "$found" ] || missing="$missing linux-7.x (build root $trixie)"
[ -x "$trixie/usr/sbin/dkms" ] || missing="$missing dkms (in $trixie)"
bookworm=${KSTATS_ROOTS:-/var/lib/kstats}/bookworm
[ -x "$bookworm/usr/sbin/dkms" ] || missing="$missing Debian 12 package-test root ($bookworm)"
[ -z "$missing" ] && exit 0
echo "deps: missing:$missing" >&2
exit 1
