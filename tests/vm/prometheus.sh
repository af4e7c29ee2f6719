#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kstats -> node_exporter -> Prometheus end to end (prometheus/75-prometheus.sh),
# then kstats serve -> Prometheus with native histograms beside the
# classic path (prometheus/76-serve.sh), in one VM session per kernel
# (vm/session.sh) with a Debian root shared read-only over 9p, from which
# the guest runs Debian's prometheus-node-exporter, prometheus and kstats
# serve (serve is not in the guest's static build).
#
#   tests/vm/prometheus.sh [KVER]     this machine's root (Debian 12,
#                                     Prometheus 2.42), both scenarios,
#                                     the source tree named on the kernel
#                                     command line (ks.repo=) for the
#                                     export unit and tools/kstats (make
#                                     tools).  Default: the newest 6.12
#                                     kernel, else the newest one
#   tests/vm/prometheus.sh --trixie KVER...
#                                     the Debian 13 root
#                                     ($KSTATS_ROOTS/trixie, Prometheus
#                                     2.53), 76-serve.sh on each kernel,
#                                     x86-64 or arm64
#
# With --trixie, kstats serve is built in that root for each kernel's
# architecture (cross-built for arm64, with the root's arm64
# libmicrohttpd and libprotobuf-c, which the guest then loads), in a copy
# of tools/, include/, common/ and the export unit kept there
# (/var/tmp/kstats-serve/SUM/ARCH, SUM naming this tree), which ks.repo=
# names.  An arm64 guest runs the arm64 Prometheus and node_exporter
# unpacked into the root's /opt/arm64 (ks.hostpath=; scripts/deps.sh
# arm64), the amd64 ones holding its /usr/bin.
#
# The modules and the guest's kstats come from vm/out (make
# vm-stage-KVER vm-tools, or vm-tools-arm64).  Measured on 2 cores busy
# with other guests: 6.12 with both scenarios 100 s; 76-serve.sh alone 30
# to 45 s on 7.3 (x86-64 or arm64), 30 s on the arm64 6.1 and 6.12, and
# serve's first build in the root 5 to 15 s (then only what changed).

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/scripts/kernels.sh"

if [ "${1:-}" != --trixie ]; then
	kver=${1:-$("$top/scripts/kernels.sh" list | grep '^6\.12\.' | tail -n 1)}
	[ -n "$kver" ] || kver=$("$top/scripts/kernels.sh" newest)
	KS_VM_SCENARIO_TIMEOUT=${KS_VM_SCENARIO_TIMEOUT:-300} \
		exec "$top/vm/session.sh" -k "$kver" --scenarios "$here/prometheus" \
		--9p-host-root --append "ks.repo=$top"
fi
shift
[ $# -gt 0 ] || { echo "usage: $0 --trixie KVER..." >&2; exit 2; }
root=$KSTATS_ROOTS/trixie
[ -x "$root/usr/bin/prometheus" ] || { echo "prometheus: no Prometheus in $root (make deps)" >&2; exit 2; }
# shellcheck source=vm/tap.sh
. "$top/vm/tap.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# serve_build DIR ARCH: kstats with serve built for ARCH in the Debian 13
# root, in DIR there: a copy of the tree's sources (git ls-files: none of
# its objects, such as the static arm64 build's without serve), their
# times kept so that make rebuilds what changed, and of the export unit.
# Its output in $log.
serve_build() {
	mkdir -p "$root$1/debian"
	(cd "$top" && git ls-files -co --exclude-standard tools include common | tar -cf - -T -) |
		tar -C "$root$1" -xf - &&
		cp -p "$top/debian/kstats.kstats-export.service" "$top/debian/kstats-export.default" \
			"$root$1/debian/" || return 1
	cross=
	[ "$2" = "$(ks_host_arch)" ] || cross=CROSS_COMPILE=aarch64-linux-gnu-
	ks_in_root "$root" make -s -j2 -C "$1/tools" SERVE=1 $cross
} > "$log" 2>&1

for kver in "$@"; do
	arch=$(ks_karch "$kver") || { notok "$kver: no such kernel (scripts/kernels.sh list)"; continue; }
	dir=/var/tmp/kstats-serve/$(echo "$top" | cksum | cut -d' ' -f1)/$arch
	serve=$dir/tools/kstats append=
	if [ "$arch" != "$(ks_host_arch)" ]; then
		serve=$dir/tools/aarch64-linux-gnu/kstats append=ks.hostpath=/opt/arm64/usr/bin
	fi
	# the copy is the guest's until its session ends: one run of an
	# architecture of this tree at a time
	mkdir -p "$root${dir%/*}"
	exec 9> "$root$dir.lock"
	flock 9
	t0=$(date +%s)
	if ! serve_build "$dir" "$arch"; then
		notok "$kver: kstats serve built for $arch in $root" "$(tail -n 20 "$log")"
		exec 9>&-
		continue
	fi
	echo "# $kver: kstats serve built for $arch in $root$dir in $(($(date +%s) - t0)) s"
	KS_VM_SCENARIO_TIMEOUT=${KS_VM_SCENARIO_TIMEOUT:-600} \
		"$top/vm/session.sh" -k "$kver" --scenarios "$here/prometheus" -s 76-serve \
		--9p-host-root="$root" --append "ks.repo=$dir ks.serve=$serve $append" > "$log" 2>&1
	rc=$?
	exec 9>&-
	# its lines in this numbering; a session that ended badly without
	# a failure of its own (killed, a harness error) is one
	n0=$tap_n
	if tap_relay all < "$log" && [ $rc -ne 0 ]; then
		notok "$kver: vm/session.sh ended with status $rc" "$(tail -n 5 "$log")"
	elif [ $tap_n = "$n0" ]; then
		notok "$kver: vm/session.sh gave no result"
	fi
	echo "# $kver: $(($(date +%s) - t0)) s in all"
done
tap_end
