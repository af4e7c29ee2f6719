#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Exit 0 when everything 'make test' and 'make demo' need is installed:
# tools, busybox, QEMU, matplotlib, and three Debian kernels (image +
# headers): 6.1 and 6.12 on this machine, 7.x in the trixie build root.
#   scripts/deps-check.sh [base] [rt] [deb] [kbuild] [arm64] [all]   (as scripts/deps.sh)
# rt: the PREEMPT_RT kernels too; deb: the Debian packaging tools, dkms in
# the trixie root and the Debian 12 root of the package test; arm64: the
# cross compiler, qemu-system-aarch64, qemu-aarch64, and the three arm64
# kernels with an arm64 busybox (scripts/kernels.sh: KSTATS_ARCH=arm64),
# and in the trixie root what the arm64 guests' kstats serve takes.
want_rt=0 want_deb=0 want_kbuild=0 want_arm64=0
for part in "$@"; do
	case $part in
	rt)	want_rt=1 ;;
	deb)	want_deb=1 ;;
	kbuild)	want_kbuild=1 ;;
	arm64)	want_arm64=1 ;;
	all)	want_rt=1 want_deb=1 want_kbuild=1 want_arm64=1 ;;
	esac
done
missing=""
tools="gcc make qemu-system-x86_64 cpio xz zstd /bin/busybox promtool prometheus
       prometheus-node-exporter tmux curl bpftrace perf debootstrap unshare"
[ $want_deb = 1 ] && tools="$tools dpkg-buildpackage dh_dkms dkms lintian fakeroot"
for c in $tools; do
	command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
done
/usr/bin/python3 -c 'import matplotlib, pytest' 2>/dev/null || missing="$missing python3-matplotlib/pytest"
# kstats compare --prometheus dlopen()s libcurl (tests/cli/prometheus.sh)
/sbin/ldconfig -p 2>/dev/null | grep -q 'libcurl\.so\.4 ' || missing="$missing libcurl4"
# kstats serve: libmicrohttpd, libprotobuf-c and protoc-c's code of
# tools/proto (which imports libprotobuf-dev's timestamp.proto); its
# tests run it under valgrind (tests/cli/serve.sh)
for f in /usr/include/microhttpd.h /usr/include/protobuf-c/protobuf-c.h \
	 /usr/include/google/protobuf/timestamp.proto; do
	[ -f "$f" ] || missing="$missing $f"
done
command -v protoc-c >/dev/null 2>&1 || missing="$missing protoc-c"
command -v valgrind >/dev/null 2>&1 || missing="$missing valgrind"
command -v clang >/dev/null 2>&1 || missing="$missing clang"
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
	missing="$missing libclang-rt-14-dev"	# clang -fsanitize=fuzzer (tests/fuzz)
# The kernels: what scripts/kernels.sh lists (an image and a build tree,
# here or in a build root), one of each series; the 7.x root builds its
# modules with its own gcc.
. "$(dirname "$0")/kernels.sh"
trixie=$KSTATS_ROOTS/trixie
kernels=$(ks_kernels)
for series in 6.1 6.12 7; do
	k=$(echo "$kernels" | grep "^$(echo "$series" | sed 's/\./\\./g')\.[0-9]" | tail -n 1)
	if [ -z "$k" ]; then
		missing="$missing linux-$series.x$([ "$series" = 7 ] && echo " (build root $trixie)")"
	elif r=$(ks_kroot "$k") && [ -n "$r" ] && ! ks_unpacked "$r" && [ ! -x "$r/usr/bin/gcc" ]; then
		missing="$missing gcc (in the build root $r)"
	fi
done
# kstats serve on 7.x with Debian 13's userspace (tests/vm/prometheus.sh
# --trixie): its Prometheus, node_exporter and serve's build there
for f in usr/bin/prometheus usr/bin/prometheus-node-exporter usr/bin/protoc-c \
	 usr/include/microhttpd.h usr/include/protobuf-c/protobuf-c.h \
	 usr/include/google/protobuf/timestamp.proto; do
	[ -e "$trixie/$f" ] || missing="$missing /$f (in $trixie)"
done
if [ $want_deb = 1 ]; then
	[ -x "$trixie/usr/sbin/dkms" ] || missing="$missing dkms (in $trixie)"
	bookworm=$KSTATS_ROOTS/bookworm
	[ -x "$bookworm/usr/sbin/dkms" ] || missing="$missing Debian 12 package-test root ($bookworm)"
	# what the kstats package depends on (serve), and what tests/deb
	# fetches its /metrics with, in both package-test roots
	for r in "$bookworm" "$trixie"; do
		for f in usr/bin/curl usr/bin/systemctl; do
			[ -e "$r/$f" ] || missing="$missing /$f (in $r)"
		done
		ls "$r"/usr/lib/*-linux-gnu/libmicrohttpd.so.12 "$r"/usr/lib/*-linux-gnu/libprotobuf-c.so.1 \
			>/dev/null 2>&1 || missing="$missing libmicrohttpd12 and libprotobuf-c1 (in $r)"
	done
	[ $want_arm64 = 1 ] && ! [ -x "$trixie/usr/bin/dh" ] &&
		missing="$missing debhelper and crossbuild-essential-arm64 (in $trixie)"
fi
if [ $want_rt = 1 ]; then
	[ -n "$(KSTATS_KERNELS=rt ks_kernels)" ] || missing="$missing PREEMPT_RT kernels"
fi
if [ $want_kbuild = 1 ]; then
	for p in $KS_KBUILD_PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing="$missing $p"
	done
fi
if [ $want_arm64 = 1 ]; then
	for c in aarch64-linux-gnu-gcc qemu-system-aarch64 qemu-aarch64; do
		command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
	done
	[ -f /usr/aarch64-linux-gnu/lib/libc.a ] || missing="$missing libc6-dev-arm64-cross"
	[ -x "$KSTATS_CACHE/arm64/root/bin/busybox" ] || missing="$missing busybox-static:arm64"
	# and in the arm64 guests: serve cross-built in the Debian 13 root,
	# Debian's arm64 Prometheus and node_exporter unpacked into its /opt/arm64
	for f in usr/bin/aarch64-linux-gnu-gcc usr/lib/aarch64-linux-gnu/libmicrohttpd.so \
		 usr/lib/aarch64-linux-gnu/libprotobuf-c.so opt/arm64/usr/bin/prometheus \
		 opt/arm64/usr/bin/prometheus-node-exporter; do
		[ -e "$trixie/$f" ] || missing="$missing /$f (in $trixie)"
	done
	arm64_kernels=$(KSTATS_ARCH=arm64 ks_kernels)
	for series in 6.1 6.12 7; do
		echo "$arm64_kernels" | grep -q "^$series\.[0-9].*-arm64\$" ||
			missing="$missing linux-$series.x-arm64"
	done
fi
[ -z "$missing" ] && exit 0
echo "deps: missing:$missing" >&2
exit 1
