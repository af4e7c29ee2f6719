#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Where each test kernel lives, and how to build a module for it.  A kernel
# is either installed on this machine (/boot/vmlinuz-KVER with
# /lib/modules/KVER/build) or installed in a build root: a Debian root made
# by scripts/deps.sh under $KSTATS_ROOTS (default /var/lib/kstats) for a
# kernel whose headers need a newer compiler than this machine has.  Each
# root holds its image, its modules and its headers, and modules for its
# kernels are built inside it with chroot.
#
# As a command:
#   scripts/kernels.sh list               every bootable KVER, oldest first
#   scripts/kernels.sh newest             the newest one
#   scripts/kernels.sh root KVER          its build root ("" if none)
#   scripts/kernels.sh image KVER         its kernel image
#   scripts/kernels.sh config KVER        its .config
#   scripts/kernels.sh make KVER TOP SUBDIR [ARGS...]
#                                         make -C TOP/SUBDIR KDIR=<its build
#                                         dir> ARGS, in its build root if it
#                                         has one (TOP is copied there)
# Sourced (". scripts/kernels.sh"), the same as functions ks_kernels,
# ks_newest_kernel, ks_kroot, ks_kimage, ks_kconfig, ks_kmake, ks_kmodprobe.

KSTATS_ROOTS=${KSTATS_ROOTS:-/var/lib/kstats}

# ks_kernels: every KVER with an image and a build tree, oldest first.
ks_kernels() {
	{
		for _ks_img in /boot/vmlinuz-*; do
			[ -f "$_ks_img" ] || continue
			_ks_k=${_ks_img#/boot/vmlinuz-}
			[ -d "/lib/modules/$_ks_k/build" ] && echo "$_ks_k"
		done
		for _ks_r in "$KSTATS_ROOTS"/*/; do
			[ -f "$_ks_r.kstats-root" ] || continue
			for _ks_img in "$_ks_r"boot/vmlinuz-*; do
				[ -f "$_ks_img" ] || continue
				_ks_k=${_ks_img##*/vmlinuz-}
				[ -d "${_ks_r}lib/modules/$_ks_k/build" ] && echo "$_ks_k"
			done
		done
	} | sort -uV
}

ks_newest_kernel() {
	ks_kernels | tail -n 1
}

# ks_kroot KVER: the build root holding KVER, "" for this machine.
ks_kroot() {
	if [ -f "/boot/vmlinuz-$1" ] && [ -d "/lib/modules/$1/build" ]; then
		return 0
	fi
	for _ks_r in "$KSTATS_ROOTS"/*/; do
		[ -f "$_ks_r.kstats-root" ] || continue
		if [ -f "${_ks_r}boot/vmlinuz-$1" ]; then
			echo "${_ks_r%/}"
			return 0
		fi
	done
	return 1
}

# ks_kimage KVER: the kernel image to boot.
ks_kimage() {
	_ks_root=$(ks_kroot "$1") || return 1
	echo "$_ks_root/boot/vmlinuz-$1"
}

# ks_kconfig KVER: the kernel's .config.
ks_kconfig() {
	_ks_root=$(ks_kroot "$1") || return 1
	echo "$_ks_root/boot/config-$1"
}

# ks_kmodprobe KVER ARGS...: modprobe on KVER's module tree; printed
# paths are host paths.
ks_kmodprobe() {
	_ks_k=$1
	shift
	_ks_root=$(ks_kroot "$_ks_k") || return 1
	modprobe -d "${_ks_root:-/}" -S "$_ks_k" "$@"
}

# ks_in_root ROOT CMD [ARGS...]: run CMD chrooted in ROOT, with a clean
# environment and /proc mounted (objtool and dpkg need it) in a private
# mount namespace, so nothing stays mounted afterwards.
ks_in_root() {
	_ks_root=$1
	shift
	unshare --mount --fork chroot "$_ks_root" /bin/sh -c \
		'mount -t proc proc /proc && exec "$@"' sh \
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive "$@"
}

# ks_kmake KVER TOP SUBDIR [ARGS...]: make -C TOP/SUBDIR
# KDIR=/lib/modules/KVER/build ARGS.  For a kernel in a build root, the
# tree TOP is copied into the root, built there with chroot, and copied
# back, so SUBDIR may reach its siblings (../include); absolute paths in
# ARGS that point into TOP are rewritten to the copy.
ks_kmake() {
	_ks_k=$1 _ks_top=$2 _ks_sub=$3
	shift 3
	_ks_root=$(ks_kroot "$_ks_k") || {
		echo "kernels: no kernel $_ks_k" >&2
		return 1
	}
	if [ -z "$_ks_root" ]; then
		make -C "$_ks_top/$_ks_sub" KDIR="/lib/modules/$_ks_k/build" "$@"
		return
	fi
	_ks_top=$(cd "$_ks_top" && pwd) || return 1
	_ks_in=/var/tmp/kstats-build/$(echo "$_ks_top" | cksum | cut -d' ' -f1)
	rm -rf "$_ks_root$_ks_in"
	mkdir -p "$_ks_root$_ks_in"
	cp -a "$_ks_top/." "$_ks_root$_ks_in/" || return 1
	# Paths in ARGS that name the tree are rewritten to its copy.
	_ks_args=""
	for _ks_a in "$@"; do
		case $_ks_a in
		*"$_ks_top"*)	_ks_a=$(printf '%s' "$_ks_a" | sed "s|$_ks_top|$_ks_in|g") ;;
		esac
		_ks_args="$_ks_args '$(printf '%s' "$_ks_a" | sed "s/'/'\\\\''/g")'"
	done
	eval "set -- $_ks_args"
	ks_in_root "$_ks_root" make -C "$_ks_in/$_ks_sub" KDIR="/lib/modules/$_ks_k/build" "$@"
	_ks_rc=$?
	cp -a "$_ks_root$_ks_in/." "$_ks_top/"
	rm -rf "$_ks_root$_ks_in"
	return $_ks_rc
}

case ${0##*/} in
kernels.sh)
	set -eu
	cmd=${1:-list}
	[ $# -gt 0 ] && shift
	case $cmd in
	list)	ks_kernels ;;
	newest)	ks_newest_kernel ;;
	root)	ks_kroot "$1" ;;
	image)	ks_kimage "$1" ;;
	config)	ks_kconfig "$1" ;;
	make)	ks_kmake "$@" ;;
	modprobe) ks_kmodprobe "$@" ;;
	*)	echo "usage: $0 list|newest|root|image|config|make|modprobe ..." >&2; exit 2 ;;
	esac
	;;
esac
