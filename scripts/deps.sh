#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install everything kstats needs to build, test and demo, from Debian
# packages only: the toolchain, QEMU, busybox, Python's matplotlib/pytest,
# and the image + headers of two Debian kernels: 6.1 (bookworm) and 6.12
# (bookworm-backports).  Idempotent; run as root on Debian 12.
set -eu

[ "$(id -u)" = 0 ] || { echo "deps: run as root (sudo make deps)" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive

# Add bookworm-backports beside the machine's own bookworm mirror.
bpo=/etc/apt/sources.list.d/kstats-backports.sources
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
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
	[ -n "$mirror" ] || { echo "deps: no bookworm entry in the apt sources" >&2; exit 1; }
	printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$mirror" > "$bpo"
	echo "deps: added bookworm-backports from $mirror"
fi

apt-get update -q

# The concrete kernel packages behind the metapackages of each suite.
dep_of() { # $1 = metapackage, $2 = default release or ""
	apt-cache ${2:+-o APT::Default-Release=$2} depends "$1" |
		awk '/Depends: linux-/ { print $2; exit }'
}
img61=$(dep_of linux-image-amd64 "")
hdr61=$(dep_of linux-headers-amd64 "")
img612=$(dep_of linux-image-amd64 bookworm-backports)
hdr612=$(dep_of linux-headers-amd64 bookworm-backports)

pkgs="build-essential make gcc bc kmod xz-utils zstd cpio busybox-static
      qemu-system-x86 python3 python3-matplotlib python3-pytest prometheus
      bpftrace linux-perf
      $img61 $hdr61 $img612 $hdr612"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "deps: installing$missing"
	apt-get install -y -q --no-install-recommends $missing
fi
echo "deps: kernels: $(ls /lib/modules | tr '\n' ' ')"
