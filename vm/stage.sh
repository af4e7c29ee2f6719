#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Modules for a guest: the one way vm/session.sh's users get them.
#
#   vm/stage.sh build KVER
#       build kstats.ko, kstats_target.ko, the annotation API's clients
#       (tests/api: kstats_api_sample.ko, kstats_lr_client.ko) and
#       ks_bench.ko for KVER (in its build root if it has one:
#       scripts/kernels.sh) from a copy of the sources, into
#       vm/out/KVER/modules (kstats, target, API clients) and
#       vm/out/KVER/bench (ks_bench.ko).  The target module gets BTF on
#       the kernel's own (from its image), if the kernel has BTF.
#       kmod/ keeps no objects, so kernels build in parallel (make -j2
#       vm-stage).  KS_VM_OUT stages elsewhere (as for vm/session.sh).
#       A session picks among them with --modules.
#       Built again only when something they are built from changed (the
#       sources copied, this script, scripts/kernels.sh, the kernel's
#       config and image: fingerprint below); else kept as they are.
#       One build per kernel at a time, under OUT/KVER/.stage.lock, which
#       vm/session.sh holds too while it reads the modules for a guest:
#       concurrent runs never see a half-built folder.
#
#   vm/stage.sh copy KVER DIR
#       build as above (kept when up to date), then copy the modules into
#       DIR/KVER under the same lock: a runner with its own work folder
#       (tools/ab/kstats-ab) takes what make vm-stage staged, not a build
#       of its own.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernels.sh"
out=${KS_VM_OUT:-$top/vm/out}

usage() {
	echo "usage: $0 build KVER | copy KVER DIR" >&2
	exit 2
}

# fingerprint KVER: what KVER's staged modules are built from, as one sum
fingerprint() {
	{
		(cd "$top" && find kmod common include tests/target tests/api bench/kmod \
			vm/stage.sh scripts/kernels.sh -type f ! -name '*.o' ! -name '*.ko' -print0 |
			LC_ALL=C sort -z | xargs -0 md5sum)
		ks_kroot "$1"
		stat -L -c '%n %s %Y' "$(ks_kconfig "$1")" "$(ks_kimage "$1")"
	} | md5sum | cut -d' ' -f1
}

build() {
	k=$1 d=$out/$1
	ks_kroot "$k" > /dev/null || { echo "stage: no kernel $k (scripts/kernels.sh list)" >&2; exit 1; }
	mkdir -p "$d"
	exec 9> "$d/.stage.lock"
	flock 9
	sum=$(fingerprint "$k")
	if [ -d "$d/modules" ] && [ "$(cat "$d/.staged" 2>/dev/null)" = "$sum" ]; then
		echo "  KEEP    modules for $k: staged from the same sources"
		return 0
	fi
	echo "  BUILD   modules for $k"
	rm -rf "$d/.staged" "$d/src" "$d/modules" "$d/bench"
	mkdir -p "$d/src/tests" "$d/src/bench" "$d/modules" "$d/bench"
	cp -r "$top/kmod" "$top/common" "$top/include" "$d/src/"
	cp -r "$top/tests/target" "$top/tests/api" "$d/src/tests/"
	cp -r "$top/bench/kmod" "$d/src/bench/"
	rm -f "$d"/src/kmod/*.o "$d"/src/common/*.o "$d"/src/kmod/*.ko "$d"/src/tests/target/*.ko "$d"/src/tests/api/*.ko "$d"/src/bench/kmod/*.ko
	# the target gets BTF split on the kernel's own (tests/target/Makefile);
	# a kernel built without BTF gets a target without it
	cfg=$(ks_kconfig "$k")
	if ! ks_kbtf "$k" "$d/src/tests/target/vmlinux.btf"; then
		if grep -qx 'CONFIG_DEBUG_INFO_BTF=y' "$cfg"; then
			echo "stage: cannot read the BTF of $k's image" >&2
			exit 1
		fi
		echo "  NOTE    $k has no BTF: the target module is built without"
	fi
	# kmod first: tests/api links against its Module.symvers.  A kernel
	# with kstats built in (CONFIG_KSTATS=y) takes neither.
	subs="kmod tests/target tests/api bench/kmod"
	if grep -qx 'CONFIG_KSTATS=y' "$cfg"; then
		echo "  NOTE    $k has kstats built in: no kstats.ko, no API clients"
		subs="tests/target bench/kmod"
	fi
	for sub in $subs; do
		log=$d/src/build-$(echo "$sub" | tr / -).log
		if ! ks_kmake "$k" "$d/src" "$sub" -s > "$log" 2>&1; then
			cat "$log" >&2
			echo "stage: $sub did not build for $k" >&2
			exit 1
		fi
		grep -i 'warning' "$log" >&2 || true
		case $sub in
		bench/*)	cp "$d/src/$sub"/*.ko "$d/bench/" ;;
		*)		cp "$d/src/$sub"/*.ko "$d/modules/" ;;
		esac
	done
	echo "$sum" > "$d/.staged"
}

# copy KVER DIR: build KVER, then its modules into DIR/KVER
copy() {
	build "$1"
	[ "$(cd "$2" && pwd)" = "$(cd "$out" && pwd)" ] && return 0
	rm -rf "$2/$1/modules" "$2/$1/bench" "$2/$1/.staged"
	mkdir -p "$2/$1"
	cp -r "$out/$1/modules" "$out/$1/bench" "$2/$1/"
	echo "  COPY    modules for $1 into $2/$1"
}

[ $# -ge 2 ] || usage
cmd=$1
shift
case $cmd in
build)	[ $# -eq 1 ] || usage; build "$1" ;;
copy)	[ $# -eq 2 ] && [ -d "$2" ] || usage; copy "$1" "$2" ;;
*)	usage ;;
esac
