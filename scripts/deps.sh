#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install everything kstats needs to build, test and demo, from Debian
# packages only: the toolchain, QEMU, busybox, Python's matplotlib/pytest,
# the image + headers of two Debian kernels, 6.1 (bookworm) and 6.12
# (bookworm-backports), and a Debian 13 build root under
# $KSTATS_ROOTS/trixie (default /var/lib/kstats) holding the newest 7.x
# kernel of trixie-backports with the gcc that its headers need
# (scripts/kernels.sh finds it there), and Debian 13's Prometheus (2.53)
# with what building kstats serve takes, for the guests that run them from
# that root.  Idempotent; run as root on Debian 12.
#
#   scripts/deps.sh [base] [rt] [deb] [kbuild] [arm64] [all]
#
# base (the default) is what make test, make demo and make bench need.
# kbuild adds Debian's linux-source-6.12 and what building it needs
# (scripts/build-kernel.sh: make test's small kernel, demo-ab, test-debug).
# rt adds the PREEMPT_RT kernels of each series (make test-rt); deb adds
# the packaging tools, dkms and python3-matplotlib in the Debian 13 root
# and a clean Debian 12 root (make deb, make deb-test).  arm64 adds the
# cross compiler, qemu-system-arm, qemu-user (qemu-aarch64 runs the unit
# test of the arm64 trampoline's slot arithmetic, tests/unit) and Debian's
# arm64 kernels of the same three series: 6.1 and 6.12 (whose headers apt
# cannot install beside this machine's compiler) with busybox-static:arm64
# unpacked into $KSTATS_CACHE/arm64/root (default /var/cache/kstats), 7.x
# installed in the Debian 13 root (make test-arm64; make test runs a part),
# and in that root the arm64 cross build of kstats serve and Debian's
# arm64 bpftrace and Prometheus for the arm64 guests.
set -eu

[ "$(id -u)" = 0 ] || { echo "deps: run as root (sudo make deps)" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
KSTATS_ROOTS=${KSTATS_ROOTS:-/var/lib/kstats}
KSTATS_CACHE=${KSTATS_CACHE:-/var/cache/kstats}
want_rt=0 want_deb=0 want_kbuild=0 want_arm64=0
for part in "$@"; do
	case $part in
	base)	;;
	rt)	want_rt=1 ;;
	deb)	want_deb=1 ;;
	kbuild)	want_kbuild=1 ;;
	arm64)	want_arm64=1 ;;
	all)	want_rt=1 want_deb=1 want_kbuild=1 want_arm64=1 ;;
	*)	echo "usage: $0 [base] [rt] [deb] [kbuild] [arm64] [all]" >&2; exit 2 ;;
	esac
done
cd "$(dirname "$0")/.."
. scripts/kernels.sh
deps_t0=$(date +%s)

# The Debian mirror of this machine's own entry for SUITE (default
# bookworm).
debian_mirror() {
	suite=${1:-bookworm}
	mirror=""
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		mirror=$(awk -v s="$suite" 'BEGIN { RS = ""; FS = "\n" }
			$0 ~ "Suites:[^\n]*[ \t]" s "( |\n|$)" {
				for (i = 1; i <= NF; i++)
					if ($i ~ /^URIs:/) { sub(/^URIs: */, "", $i); split($i, u, " "); print u[1]; exit }
			}' /etc/apt/sources.list.d/debian.sources)
	fi
	if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
		mirror=$(awk -v s="$suite" '$1 == "deb" && $3 == s { print $2; exit }' /etc/apt/sources.list)
	fi
	echo "$mirror"
}

# make_root DIR SUITE "SUITES": a minimal Debian SUITE root in DIR made
# with debootstrap from this machine's mirror, its apt sources set to
# SUITES of the same mirror, and no initramfs made by its kernel packages'
# updates (the VM boots images without one).  Nothing if DIR has one.
make_root() {
	[ -x "$1/usr/bin/apt-get" ] && return 0
	mirror=$(debian_mirror)
	[ -n "$mirror" ] || { echo "deps: no bookworm entry in the apt sources" >&2; exit 1; }
	echo "deps: creating the Debian $2 root $1 from $mirror"
	rm -rf "$1" "$1.new"
	mkdir -p "$KSTATS_ROOTS"
	debootstrap --variant=minbase "$2" "$1.new" "$mirror" > "$KSTATS_ROOTS/debootstrap-$2.log" 2>&1 || {
		tail -n 20 "$KSTATS_ROOTS/debootstrap-$2.log" >&2
		echo "deps: debootstrap failed (log: $KSTATS_ROOTS/debootstrap-$2.log)" >&2
		exit 1
	}
	printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$mirror" "$3" > "$1.new/etc/apt/sources.list.d/debian.sources"
	rm -f "$1.new/etc/apt/sources.list"
	mkdir -p "$1.new/etc/initramfs-tools"
	echo 'update_initramfs=no' > "$1.new/etc/initramfs-tools/update-initramfs.conf"
	mv "$1.new" "$1"
}

# Add bookworm-backports beside the machine's own bookworm mirror.
bpo=/etc/apt/sources.list.d/kstats-backports.sources
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	mirror=$(debian_mirror)
	[ -n "$mirror" ] || { echo "deps: no bookworm entry in the apt sources" >&2; exit 1; }
	printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$mirror" > "$bpo"
	echo "deps: added bookworm-backports from $mirror"
fi

apt-get update -q

# The concrete kernel packages behind the metapackages of each suite
# (linux-image-rt-amd64 depends on linux-base-rt-amd64 too: match the kind).
dep_of() { # $1 = metapackage, $2 = default release or ""
	_kind=${1%-amd64}
	_kind=${_kind%-arm64}
	_kind=${_kind%-rt}
	apt-cache ${2:+-o APT::Default-Release=$2} depends "$1" |
		awk -v k="$_kind" '$1 == "Depends:" && index($2, k "-") == 1 { print $2; exit }'
}
img61=$(dep_of linux-image-amd64 "")
hdr61=$(dep_of linux-headers-amd64 "")
img612=$(dep_of linux-image-amd64 bookworm-backports)
hdr612=$(dep_of linux-headers-amd64 bookworm-backports)
# The PREEMPT_RT builds of both (make test-rt; make test leaves them out).
rt=""
[ $want_rt = 1 ] &&
	rt="$(dep_of linux-image-rt-amd64 "") $(dep_of linux-headers-rt-amd64 "")
	    $(dep_of linux-image-rt-amd64 bookworm-backports) $(dep_of linux-headers-rt-amd64 bookworm-backports)"
deb=""
[ $want_deb = 1 ] && deb="dpkg-dev debhelper dh-dkms dkms fakeroot lintian"
kbuild=""
[ $want_kbuild = 1 ] && kbuild="$KS_KBUILD_PKGS"
arm64=""
[ $want_arm64 = 1 ] && arm64="gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm qemu-user"

pkgs="build-essential make gcc bc kmod xz-utils zstd cpio busybox-static debootstrap
      qemu-system-x86 python3 python3-matplotlib python3-pytest prometheus
      prometheus-node-exporter tmux curl libcurl4
      libmicrohttpd-dev libprotobuf-c-dev libprotobuf-dev protobuf-c-compiler valgrind
      bpftrace linux-perf clang libclang-rt-14-dev
      $img61 $hdr61 $img612 $hdr612 $rt $deb $kbuild $arm64"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "deps: installing$missing"
	apt-get install -y -q --no-install-recommends $missing
fi

# The build root for kernels newer than this machine: Debian 13 (trixie)
# from this machine's own mirror, with the newest kernel of
# trixie-backports, its headers and the compiler they need.  Kept across
# runs; a root that already has that kernel costs one 'apt-get update'.
root=$KSTATS_ROOTS/trixie
in_root() {
	ks_in_root "$root" "$@"
}
make_root "$root" trixie "trixie trixie-backports"
touch "$root/.kstats-root"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# root_install PKG...: install into the Debian 13 root, from
# trixie-backports, the packages it lacks.
root_install() {
	missing=""
	for p in "$@"; do
		in_root dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing="$missing $p"
	done
	[ -n "$missing" ] || return 0
	echo "deps: installing in $root:$missing"
	in_root apt-get install -y -q --no-install-recommends \
		-o Dpkg::Options::=--force-confold -t trixie-backports $missing
	in_root apt-get clean
}

# root_unpack DIR PKG...: the files of PKG (its candidate version,
# from trixie-backports or trixie) unpacked under DIR of the Debian 13
# root, not installed (dpkg knows nothing of them); again when that
# version changes (DIR/.PKG holds the one unpacked).
root_unpack() {
	_dir=$root$1
	shift
	mkdir -p "$_dir"
	for p in "$@"; do
		v=$(in_root apt-cache -o APT::Default-Release=trixie-backports policy "$p" |
			awk '$1 == "Candidate:" { print $2 }')
		case $v in ''|'(none)') echo "deps: no $p in trixie" >&2; exit 1 ;; esac
		[ "$(cat "$_dir/.$p" 2>/dev/null)" = "$v" ] && continue
		echo "deps: unpacking $p $v into $_dir"
		rm -rf "$root/var/tmp/kstats-debs"
		mkdir -p "$root/var/tmp/kstats-debs"
		in_root sh -c 'cd /var/tmp/kstats-debs && apt-get download -q -o APT::Sandbox::User=root "$1"' \
			sh "$p=$v" > /dev/null
		dpkg-deb -x "$root"/var/tmp/kstats-debs/*.deb "$_dir"
		echo "$v" > "$_dir/.$p"
		rm -rf "$root/var/tmp/kstats-debs"
	done
}

in_root apt-get update -q > /dev/null
kimg=$(in_root apt-cache -o APT::Default-Release=trixie-backports depends linux-image-amd64 |
	awk '/Depends: linux-image-/ { print $2; exit }')
khdr=$(in_root apt-cache -o APT::Default-Release=trixie-backports depends linux-headers-amd64 |
	awk '/Depends: linux-headers-/ { print $2; exit }')
[ -n "$kimg" ] && [ -n "$khdr" ] || { echo "deps: no kernel in trixie-backports" >&2; exit 1; }
krt=""
[ $want_rt = 1 ] &&
	krt=$(in_root apt-cache -o APT::Default-Release=trixie-backports depends linux-image-rt-amd64 linux-headers-rt-amd64 |
		awk '/Depends: linux-(image|headers)-[0-9]/ { print $2 }')
kdeb=""
# the package test (tests/deb/run.sh) in this root too: what the .debs
# depend on, curl to scrape kstats-serve.service's command
[ $want_deb = 1 ] && kdeb="dkms python3-matplotlib libmicrohttpd12t64 libprotobuf-c1 curl"
root_install make gcc kmod xz-utils zstd initramfs-tools "$kimg" "$khdr" $krt $kdeb
# kstats serve on 7.x with Debian 13's userspace (make test-prometheus:
# tests/vm/prometheus.sh --trixie): its Prometheus and node_exporter, run
# by the guest from this root, and what building serve here takes.
root_install prometheus prometheus-node-exporter libmicrohttpd-dev libprotobuf-c-dev \
	libprotobuf-dev protobuf-c-compiler
if [ $want_deb = 1 ]; then
	# A clean Debian 12 root for the package test (tests/deb/run.sh): what
	# the kstats-dkms and kstats packages depend on, the headers of bookworm's
	# kernel, and the bookworm-backports headers downloaded but not installed,
	# for a kernel upgrade; systemd and curl, to check kstats-serve.service
	# (systemctl, systemd-analyze) and scrape its command.  Nothing of
	# kstats: the test installs the .debs into a throwaway overlay of it.
	# No image: it is not a boot root.
	broot=$KSTATS_ROOTS/bookworm
	make_root "$broot" bookworm "bookworm bookworm-updates bookworm-backports"
	cp /etc/resolv.conf "$broot/etc/resolv.conf" 2>/dev/null || true
	ks_in_root "$broot" apt-get update -q > /dev/null
	missing=""
	for p in make gcc kmod dkms python3-matplotlib libmicrohttpd12 libprotobuf-c1 \
		 systemd curl linux-headers-amd64; do
		ks_in_root "$broot" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		echo "deps: installing in $broot:$missing"
		ks_in_root "$broot" apt-get install -y -q --no-install-recommends $missing
	fi
	ks_in_root "$broot" apt-get install -y -q --download-only --no-install-recommends \
		-t bookworm-backports linux-headers-amd64 > /dev/null
fi
if [ $want_arm64 = 1 ]; then
	# Debian's arm64 kernels of the three series.  7.x: installed in the
	# Debian 13 root, whose headers pull the cross gcc they need.
	in_root dpkg --add-architecture arm64
	in_root apt-get update -q > /dev/null
	kimg=$(in_root apt-cache -o APT::Default-Release=trixie-backports depends linux-image-arm64:arm64 |
		awk '/Depends: linux-image-[0-9]/ { sub(/:arm64$/, "", $2); print $2; exit }')
	khdr=$(in_root apt-cache -o APT::Default-Release=trixie-backports depends linux-headers-arm64:arm64 |
		awk '/Depends: linux-headers-[0-9]/ { sub(/:arm64$/, "", $2); print $2; exit }')
	[ -n "$kimg" ] && [ -n "$khdr" ] || { echo "deps: no arm64 kernel in trixie-backports" >&2; exit 1; }
	root_install "$kimg:arm64" "$khdr:arm64"
	# bpftrace for the arm64 guests of make bench (bench/run.sh mounts
	# this root in them): Debian's arm64 build, its libraries beside the
	# amd64 ones (multiarch; -t trixie-backports keeps libelf1t64 at the
	# version of the amd64 one).
	root_install bpftrace:arm64
	# kstats serve cross-built here for arm64 (libmicrohttpd and
	# libprotobuf-c of arm64, whose runtime libraries the arm64 guests of
	# make test-prometheus-arm64 load from this root; protoc-c of this
	# machine), by tests/vm/prometheus.sh --trixie and make deb-arm64.
	root_install crossbuild-essential-arm64 libmicrohttpd-dev:arm64 libprotobuf-c-dev:arm64 \
		libprotobuf-dev:arm64 protobuf-c-compiler
	# Debian's arm64 Prometheus and node_exporter for those guests: not
	# installable beside the amd64 ones (one /usr/bin/prometheus a root),
	# so unpacked into /opt/arm64 (ks.hostpath= in the guest).
	root_unpack /opt/arm64 prometheus:arm64 prometheus-node-exporter:arm64
	# make deb-arm64 (scripts/deb-arm64.sh): dpkg-buildpackage -aarm64 here
	[ $want_deb = 1 ] && root_install build-essential debhelper dh-dkms
	# 6.1 and 6.12: apt cannot install their headers here (they depend on
	# gcc-12:arm64), so their packages, with busybox-static:arm64, are
	# fetched with an apt of their own (arm64 only, this machine's
	# mirrors, its state in the cache) and unpacked into one root, where
	# scripts/kernels.sh finds them (.kstats-unpacked).
	acache=$KSTATS_CACHE/arm64
	aroot=$acache/root
	aapt=$acache/apt
	mkdir -p "$aapt/state/lists/partial" "$aapt/cache/archives/partial" "$aapt/none" "$acache/debs"
	[ -f "$aapt/state/status" ] || : > "$aapt/state/status"
	cat > "$aapt/apt.conf" <<-EOF
	Dir::State "$aapt/state";
	Dir::State::status "$aapt/state/status";
	Dir::Cache "$aapt/cache";
	Dir::Etc::SourceList "$aapt/sources.list";
	Dir::Etc::SourceParts "$aapt/none";
	Dir::Etc::Preferences "$aapt/none/preferences";
	Dir::Etc::PreferencesParts "$aapt/none";
	APT::Architecture "arm64";
	APT::Architectures { "arm64"; };
	APT::Sandbox::User "root";
	EOF
	mirror=$(debian_mirror)
	[ -n "$mirror" ] || { echo "deps: no bookworm entry in the apt sources" >&2; exit 1; }
	security=$(debian_mirror bookworm-security)
	key='[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]'
	{
		for suite in bookworm bookworm-updates bookworm-backports; do
			echo "deb $key $mirror $suite main"
		done
		[ -z "$security" ] || echo "deb $key $security bookworm-security main"
	} > "$aapt/sources.list"
	aptarm() { env APT_CONFIG="$aapt/apt.conf" "$@"; }
	aptarm apt-get update -q > /dev/null
	aimg61=$(export APT_CONFIG="$aapt/apt.conf"; dep_of linux-image-arm64 "")
	aimg612=$(export APT_CONFIG="$aapt/apt.conf"; dep_of linux-image-arm64 bookworm-backports)
	[ -n "$aimg61" ] && [ -n "$aimg612" ] || { echo "deps: no arm64 kernels in bookworm" >&2; exit 1; }
	for img in $aimg61 $aimg612; do
		k=${img#linux-image-}
		if [ -f "$aroot/boot/vmlinuz-$k" ] && [ -f "$aroot/lib/modules/$k/modules.dep" ] &&
		   [ -f "$aroot/lib/modules/$k/build/Makefile" ]; then
			continue
		fi
		echo "deps: unpacking the arm64 kernel $k into $aroot"
		ver=$(aptarm apt-cache show "linux-headers-$k" | awk '/^Version:/ { print $2; exit }')
		common=$(aptarm apt-cache depends "linux-headers-$k" |
			awk '/Depends: linux-headers-.*-common/ { print $2; exit }')
		kb=$(aptarm apt-cache depends "linux-headers-$k" |
			awk '/Depends: linux-kbuild-/ { print $2; exit }')
		rm -f "$acache"/debs/*.deb
		(cd "$acache/debs" &&
		 aptarm apt-get download -q "$img" "linux-headers-$k" "$common" > /dev/null &&
		 # the kbuild programs run here: this machine's architecture
		 apt-get download -q -o APT::Sandbox::User=root "$kb=$ver" > /dev/null)
		mkdir -p "$aroot"
		for d in "$acache"/debs/*.deb; do
			dpkg-deb -x "$d" "$aroot"
		done
		# the headers name /usr/src: point them into the root
		ln -sfn "../../../usr/src/linux-headers-$k" "$aroot/lib/modules/$k/build"
		sed -i "s|^include /usr/src/|include $aroot/usr/src/|" "$aroot/usr/src/linux-headers-$k/Makefile"
		depmod -b "$aroot" "$k"
	done
	if ! [ -x "$aroot/bin/busybox" ]; then
		rm -f "$acache"/debs/*.deb
		(cd "$acache/debs" && aptarm apt-get download -q busybox-static > /dev/null)
		dpkg-deb -x "$acache"/debs/busybox-static_*.deb "$aroot"
	fi
	rm -f "$acache"/debs/*.deb
	touch "$aroot/.kstats-unpacked"
	echo "deps: arm64 kernels: $(KSTATS_ARCH=arm64 ./scripts/kernels.sh list | tr '\n' ' ')"
fi
echo "deps: kernels: $(./scripts/kernels.sh list | tr '\n' ' ')"
echo "deps: took $(($(date +%s) - deps_t0)) s"
