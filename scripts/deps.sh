#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install everything kstats needs to build, test and demo, from Debian
# packages only: the toolchain, QEMU, busybox, Python's matplotlib/pytest,
# the image + headers of two Debian kernels, 6.1 (bookworm) and 6.12
# (bookworm-backports), and a Debian 13 build root under
# $KSTATS_ROOTS/trixie (default /var/lib/kstats) holding the newest 7.x
# kernel of trixie-backports with the gcc that its headers need
# (scripts/kernels.sh finds it there).  Idempotent; run as root on Debian 12.
#
#   scripts/deps.sh [base] [rt] [deb] [kbuild] [all]
#
# base (the default) is what make test, make demo and make bench need.
# kbuild adds Debian's linux-source-6.12 and what building it needs
# (scripts/build-kernel.sh: make test's small kernel, demo-ab, test-debug).
# rt adds the PREEMPT_RT kernels of each series (make test-rt); deb adds
# the packaging tools, dkms and python3-matplotlib in the Debian 13 root
# and a clean Debian 12 root (make deb, make deb-test).
set -eu

[ "$(id -u)" = 0 ] || { echo "deps: run as root (sudo make deps)" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
KSTATS_ROOTS=${KSTATS_ROOTS:-/var/lib/kstats}
want_rt=0 want_deb=0 want_kbuild=0
for part in "$@"; do
	case $part in
	base)	;;
	rt)	want_rt=1 ;;
	deb)	want_deb=1 ;;
	kbuild)	want_kbuild=1 ;;
	all)	want_rt=1 want_deb=1 want_kbuild=1 ;;
	*)	echo "usage: $0 [base] [rt] [deb] [kbuild] [all]" >&2; exit 2 ;;
	esac
done
cd "$(dirname "$0")/.."
. scripts/kernels.sh

# The Debian mirror of this machine's own bookworm entry.
debian_mirror() {
	mirror=""
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		mirror=$(awk 'BEGIN { RS = ""; FS = "\n" }
			/Suites:[^\n]*bookworm( |\n|$)/ {
				for (i = 1; i <= NF; i++)
					if ($i ~ /^URIs:/) { sub(/^URIs: */, "", $i); split($i, u, " "); print u[1]; exit }
			}' /etc/apt/sources.list.d/debian.sources)
	fi
	if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
		mirror=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list)
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
	_kind=${1%%-amd64}
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

pkgs="build-essential make gcc bc kmod xz-utils zstd cpio busybox-static debootstrap
      qemu-system-x86 python3 python3-matplotlib python3-pytest prometheus
      prometheus-node-exporter tmux curl
      bpftrace linux-perf clang libclang-rt-14-dev
      $img61 $hdr61 $img612 $hdr612 $rt $deb $kbuild"
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
[ $want_deb = 1 ] && kdeb="dkms python3-matplotlib"
missing=""
for p in make gcc kmod xz-utils zstd initramfs-tools "$kimg" "$khdr" $krt $kdeb; do
	in_root dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "deps: installing in $root:$missing"
	in_root apt-get install -y -q --no-install-recommends \
		-o Dpkg::Options::=--force-confold -t trixie-backports $missing
	in_root apt-get clean
fi
if [ $want_deb = 1 ]; then
	# A clean Debian 12 root for the package test (tests/deb/run.sh): what
	# the kstats-dkms and kstats packages depend on, the headers of bookworm's
	# kernel, and the bookworm-backports headers downloaded but not installed,
	# for a kernel upgrade.  Nothing of kstats: the test installs the .debs into
	# a throwaway overlay of it.  No image: it is not a boot root.
	broot=$KSTATS_ROOTS/bookworm
	make_root "$broot" bookworm "bookworm bookworm-updates bookworm-backports"
	cp /etc/resolv.conf "$broot/etc/resolv.conf" 2>/dev/null || true
	ks_in_root "$broot" apt-get update -q > /dev/null
	missing=""
	for p in make gcc kmod dkms python3-matplotlib linux-headers-amd64; do
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
echo "deps: kernels: $(./scripts/kernels.sh list | tr '\n' ' ')"
