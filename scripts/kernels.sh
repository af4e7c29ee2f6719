#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Where each test kernel lives, and how to build a module for it.  A kernel
# is either installed on this machine (/boot/vmlinuz-KVER with
# /lib/modules/KVER/build) or installed in a build root: a Debian root made
# by scripts/deps.sh under $KSTATS_ROOTS (default /var/lib/kstats) for a
# kernel whose headers need a newer compiler than this machine has.  Each
# root holds its image, its modules and its headers, and modules for its
# kernels are built inside it with chroot.  A third kind, kernels built
# from source by scripts/build-kernel.sh (A/B variants), is known by the
# variant's name and lives in $KSTATS_CACHE/kernels/NAME (default
# /var/cache/kstats); those are not in the default list.
#
# A fourth kind holds kernels of another architecture that apt cannot
# install here (Debian's arm64 6.1 and 6.12 on an x86-64 Debian 12):
# their packages unpacked by scripts/deps.sh into $KSTATS_CACHE/ARCH/root
# (marked .kstats-unpacked), modules built for them on this machine with
# the cross compiler.  A build root may hold kernels of another
# architecture too (arm64 7.x in the Debian 13 root), built there the same
# way.
#
# PREEMPT_RT kernels (Debian's linux-image-rt-amd64) are left out of the
# list unless asked for: KSTATS_KERNELS=rt lists only them, =all both.
# Only kernels of one architecture are listed: KSTATS_ARCH (amd64 or
# arm64, Debian's names), by default this machine's.
#
# As a command:
#   scripts/kernels.sh list               every bootable KVER, oldest first
#   scripts/kernels.sh list --rt          the PREEMPT_RT ones (--all: all)
#   scripts/kernels.sh newest             the newest one
#   scripts/kernels.sh root KVER          its build root ("" if none)
#   scripts/kernels.sh image KVER         its kernel image
#   scripts/kernels.sh config KVER        its .config
#   scripts/kernels.sh arch KVER          its architecture (amd64, arm64)
#   scripts/kernels.sh make KVER TOP SUBDIR [ARGS...]
#                                         make -C TOP/SUBDIR KDIR=<its build
#                                         dir> ARGS, in its build root if it
#                                         has one (TOP is copied there)
#   scripts/kernels.sh elf KVER FILE      the uncompressed ELF vmlinux of its
#                                         image into FILE (kept if newer)
#   scripts/kernels.sh btf KVER FILE      its raw vmlinux BTF into FILE, the
#                                         base a module's BTF is built on
# Sourced (". scripts/kernels.sh"), the same as functions ks_kernels,
# ks_newest_kernel, ks_kroot, ks_kimage, ks_kconfig, ks_karch, ks_kmake,
# ks_kmodprobe, ks_kelf, ks_kbtf; ks_arch is the architecture listed.

KSTATS_ROOTS=${KSTATS_ROOTS:-/var/lib/kstats}
KSTATS_CACHE=${KSTATS_CACHE:-/var/cache/kstats}
# What scripts/build-kernel.sh needs: Debian's kernel source and its tools.
KS_KBUILD_PKGS="linux-source-6.12 ccache flex bison libelf-dev libssl-dev openssl dwarves bc"

# ks_kbuilt NAME: is NAME a kernel built from source (build-kernel.sh)?
ks_kbuilt() {
	case $1 in */*|'') return 1 ;; esac
	[ -f "$KSTATS_CACHE/kernels/$1/bzImage" ] && [ -f "$KSTATS_CACHE/kernels/$1/objdir" ]
}

# ks_host_arch: this machine's architecture, in Debian's words.
ks_host_arch() {
	case $(uname -m) in
	aarch64|arm64)	echo arm64 ;;
	x86_64)		echo amd64 ;;
	*)		uname -m ;;
	esac
}

# ks_arch: the architecture whose kernels are listed (KSTATS_ARCH).
ks_arch() {
	echo "${KSTATS_ARCH:-$(ks_host_arch)}"
}

# ks_karch KVER: the architecture KVER runs on, from its .config.
ks_karch() {
	_ks_cfg=$(ks_kconfig "$1") || return 1
	if grep -qx 'CONFIG_ARM64=y' "$_ks_cfg"; then
		echo arm64
	elif grep -qx 'CONFIG_X86_64=y' "$_ks_cfg"; then
		echo amd64
	else
		return 1
	fi
}

# ks_kcross KVER: the make arguments that build modules for KVER from
# this machine's architecture (nothing when they are the same).
ks_kcross() {
	_ks_a=$(ks_karch "$1") || return 0
	[ "$_ks_a" = "$(ks_host_arch)" ] && return 0
	case $_ks_a in
	arm64)	echo "ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- OBJCOPY=aarch64-linux-gnu-objcopy" ;;
	amd64)	echo "ARCH=x86 CROSS_COMPILE=x86_64-linux-gnu- OBJCOPY=x86_64-linux-gnu-objcopy" ;;
	esac
}

# ks_kernels: every KVER of the architecture ks_arch with an image and a
# build tree, oldest first; which kind (KSTATS_KERNELS: generic, the
# default, rt or all) as above.
ks_kernels() {
	_ks_want=$(ks_arch)
	ks_kernels_all | while read -r _ks_k; do
		[ "$(ks_karch "$_ks_k")" = "$_ks_want" ] || continue
		case ${KSTATS_KERNELS:-generic} in
		all)	echo "$_ks_k" ;;
		rt)	ks_is_rt "$_ks_k" && echo "$_ks_k" ;;
		*)	ks_is_rt "$_ks_k" || echo "$_ks_k" ;;
		esac
	done
}

# ks_is_rt KVER: is KVER a PREEMPT_RT kernel?
ks_is_rt() {
	_ks_cfg=$(ks_kconfig "$1") && grep -qx 'CONFIG_PREEMPT_RT=y' "$_ks_cfg"
}

ks_kernels_all() {
	{
		for _ks_img in /boot/vmlinuz-*; do
			[ -f "$_ks_img" ] || continue
			_ks_k=${_ks_img#/boot/vmlinuz-}
			[ -d "/lib/modules/$_ks_k/build" ] && echo "$_ks_k"
		done
		for _ks_r in $(ks_roots); do
			for _ks_img in "$_ks_r"boot/vmlinuz-*; do
				[ -f "$_ks_img" ] || continue
				_ks_k=${_ks_img##*/vmlinuz-}
				[ -d "${_ks_r}lib/modules/$_ks_k/build" ] && echo "$_ks_k"
			done
		done
	} | sort -uV
}

# ks_roots: the build roots and unpacked roots, each with a trailing /.
ks_roots() {
	for _ks_r in "$KSTATS_ROOTS"/*/ "$KSTATS_CACHE"/*/root/; do
		[ -f "$_ks_r.kstats-root" ] || [ -f "$_ks_r.kstats-unpacked" ] || continue
		echo "$_ks_r"
	done
}

# ks_unpacked ROOT: is ROOT unpacked packages (no chroot: build here)?
ks_unpacked() {
	[ -n "$1" ] && [ -f "$1/.kstats-unpacked" ]
}

ks_newest_kernel() {
	ks_kernels | tail -n 1
}

# ks_kroot KVER: the build root holding KVER, "" for this machine.
ks_kroot() {
	if [ -f "/boot/vmlinuz-$1" ] && [ -d "/lib/modules/$1/build" ]; then
		return 0
	fi
	ks_kbuilt "$1" && return 0
	for _ks_r in $(ks_roots); do
		if [ -f "${_ks_r}boot/vmlinuz-$1" ]; then
			echo "${_ks_r%/}"
			return 0
		fi
	done
	return 1
}

# _ks_kboot KVER BUILT_NAME BOOT_PREFIX: a file of KVER's: BUILT_NAME in a
# kernel built from source, else BOOT_PREFIX-KVER in its root's /boot.
_ks_kboot() {
	if ks_kbuilt "$1"; then
		echo "$KSTATS_CACHE/kernels/$1/$2"
		return 0
	fi
	_ks_root=$(ks_kroot "$1") || return 1
	echo "$_ks_root/boot/$3-$1"
}

# ks_kimage KVER: the kernel image to boot.
ks_kimage() {
	_ks_kboot "$1" bzImage vmlinuz
}

# ks_kconfig KVER: the kernel's .config.
ks_kconfig() {
	_ks_kboot "$1" config config
}

# ks_kmodprobe KVER ARGS...: modprobe on KVER's module tree; printed
# paths are host paths.
ks_kmodprobe() {
	_ks_k=$1
	shift
	ks_kbuilt "$_ks_k" && return 1	# built in: nothing to load
	_ks_root=$(ks_kroot "$_ks_k") || return 1
	modprobe -d "${_ks_root:-/}" -S "$_ks_k" "$@"
}

# ks_kelf KVER FILE: cut the ELF vmlinux out of KVER's bzImage (its setup
# header gives payload_offset and payload_length) into FILE, unless FILE
# is already newer than the image.  Fails if the result is not an ELF
# image of a plausible size.
ks_kelf() {
	[ "$(ks_karch "$1")" = amd64 ] || return 1	# arm64: the Image boots as it is
	_ks_img=$(ks_kimage "$1") || return 1
	_ks_elf=$2
	if [ -s "$_ks_elf" ] && [ "$_ks_elf" -nt "$_ks_img" ]; then
		return 0
	fi
	_ks_setup=$(od -An -tu1 -j $((0x1f1)) -N1 "$_ks_img" | tr -d ' ')
	_ks_off=$(od -An -tu4 -j $((0x248)) -N4 "$_ks_img" | tr -d ' ')
	_ks_len=$(od -An -tu4 -j $((0x24c)) -N4 "$_ks_img" | tr -d ' ')
	[ "${_ks_setup:-0}" -gt 0 ] 2>/dev/null || _ks_setup=4
	_ks_off=$(( (_ks_setup + 1) * 512 + ${_ks_off:-0} ))
	_ks_magic=$(od -An -tx1 -j "$_ks_off" -N4 "$_ks_img" | tr -d ' ')
	tail -c +$((_ks_off + 1)) "$_ks_img" | head -c "${_ks_len:-0}" | case $_ks_magic in
		fd377a58)	xz -dc 2>/dev/null ;;
		28b52ffd)	zstd -dc 2>/dev/null ;;
		1f8b08*)	gzip -dc 2>/dev/null ;;
		*)		cat >/dev/null ;;
	esac > "$_ks_elf.tmp"
	# The decompressors complain about the size word after the payload;
	# judge by the result.
	if [ "$(head -c 4 "$_ks_elf.tmp" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] &&
	   [ "$(stat -c %s "$_ks_elf.tmp")" -gt 1000000 ]; then
		mv "$_ks_elf.tmp" "$_ks_elf"
	else
		rm -f "$_ks_elf.tmp"
		return 1
	fi
}

# ks_kbtf KVER FILE: KVER's vmlinux BTF, raw (what /sys/kernel/btf/vmlinux
# holds when it runs), into FILE: the base for a module's split BTF.
ks_kbtf() {
	[ "$(ks_karch "$1")" = arm64 ] && { ks_kbtf_image "$@"; return; }
	_ks_tmp=$(mktemp -d) || return 1
	if ks_kelf "$1" "$_ks_tmp/vmlinux" &&
	   objcopy -O binary --only-section=.BTF "$_ks_tmp/vmlinux" "$2" &&
	   [ -s "$2" ]; then
		rm -rf "$_ks_tmp"
		return 0
	fi
	rm -rf "$_ks_tmp"
	rm -f "$2"	# no half or empty file for a build to pick up
	return 1
}

# ks_kbtf_image KVER FILE: the BTF of an arm64 Image (no ELF, no symbol
# map): the one blob starting with BTF's magic, version 1 and a 24-byte
# header, as long as its header says.
ks_kbtf_image() {
	_ks_img=$(ks_kimage "$1") || return 1
	_ks_out=$2
	_ks_off=$(LC_ALL=C grep -obUaP '\x9f\xeb\x01\x00\x18\x00\x00\x00' "$_ks_img" |
		head -n 1 | cut -d: -f1)
	[ -n "$_ks_off" ] || return 1
	# type_off type_len str_off str_len
	set -- $(od -An -tu4 -j $((_ks_off + 8)) -N16 "$_ks_img")
	[ $# -eq 4 ] && [ $(($3 + $4)) -gt 1000000 ] || return 1
	tail -c +$((_ks_off + 1)) "$_ks_img" | head -c $((24 + $3 + $4)) > "$_ks_out"
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
	if ks_kbuilt "$_ks_k"; then
		# the variant's own view of its object tree (build-kernel.sh)
		_ks_kd=$KSTATS_CACHE/kernels/$_ks_k/build
		[ -d "$_ks_kd" ] || _ks_kd=$(cat "$KSTATS_CACHE/kernels/$_ks_k/objdir")
		make -C "$_ks_top/$_ks_sub" KDIR="$_ks_kd" "$@"
		return
	fi
	_ks_cross=$(ks_kcross "$_ks_k")
	if [ -z "$_ks_root" ]; then
		# shellcheck disable=SC2086
		make -C "$_ks_top/$_ks_sub" KDIR="/lib/modules/$_ks_k/build" $_ks_cross "$@"
		return
	fi
	if ks_unpacked "$_ks_root"; then
		# shellcheck disable=SC2086
		make -C "$_ks_top/$_ks_sub" KDIR="$_ks_root/lib/modules/$_ks_k/build" $_ks_cross "$@"
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
	# shellcheck disable=SC2086
	ks_in_root "$_ks_root" make -C "$_ks_in/$_ks_sub" KDIR="/lib/modules/$_ks_k/build" $_ks_cross "$@"
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
	list)	case ${1:-} in
		--rt)	KSTATS_KERNELS=rt ;;
		--all)	KSTATS_KERNELS=all ;;
		esac
		ks_kernels ;;
	newest)	ks_newest_kernel ;;
	root)	ks_kroot "$1" ;;
	image)	ks_kimage "$1" ;;
	config)	ks_kconfig "$1" ;;
	arch)	ks_karch "$1" ;;
	make)	ks_kmake "$@" ;;
	modprobe) ks_kmodprobe "$@" ;;
	elf)	ks_kelf "$@" ;;
	btf)	ks_kbtf "$@" ;;
	*)	echo "usage: $0 list|newest|root|image|config|arch|make|modprobe|elf|btf ..." >&2; exit 2 ;;
	esac
	;;
esac
