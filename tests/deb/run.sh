#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Package test.  Installs the kstats-dkms and kstats packages (deb-out/,
# from 'make deb') into a throwaway overlay of each clean Debian root that
# scripts/deps.sh made (bookworm: Debian 12; trixie: Debian 13, 7.x) and
# checks what a user gets: DKMS built and installed the module for every
# kernel with headers there (its vermagic names that kernel, modprobe
# resolves 'kstats' to it), a kernel upgrade (the bookworm-backports
# headers that deps.sh downloaded) gets its module too, the CLI and
# kstats-plot run on snapshot files, and purging removes it all.  Offline:
# the roots already hold what the packages depend on.  The roots are left
# untouched.  TAP lines (vm/tap.sh); last line 'N passed, N failed, N skipped'.
#
#   tests/deb/run.sh [ROOT...]     default: every root of deps.sh that exists
top=$(cd "$(dirname "$0")/../.." && pwd)
KSTATS_ROOTS=${KSTATS_ROOTS:-/var/lib/kstats}
DEB_OUT=${DEB_OUT:-$top/deb-out}
# shellcheck source=vm/tap.sh
. "$top/vm/tap.sh"
roots=${*:-$(for r in bookworm trixie; do [ -x "$KSTATS_ROOTS/$r/usr/bin/apt-get" ] && echo "$KSTATS_ROOTS/$r"; done)}
set -- "$DEB_OUT"/kstats-dkms_*_all.deb "$DEB_OUT"/kstats_*_amd64.deb
for f in "$@"; do
	[ -f "$f" ] || { notok "no package $f (make deb)"; tap_end; exit 1; }
done
[ -n "$roots" ] || { notok "no Debian root in $KSTATS_ROOTS (make deps)"; tap_end; exit 1; }
[ "$(id -u)" = 0 ] || { notok "needs root (chroot)"; tap_end; exit 1; }

tmp=$(mktemp -d /var/tmp/kstats-deb.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/in"
cp "$@" "$tmp/in/"
cp "$top/plots/tests/fixtures/vm-6.12-find_vma-m16.json" "$top/plots/tests/fixtures/vm-6.12-find_vma-m2048.json" "$tmp/in/"
cp "$top/vm/tap.sh" "$tmp/in/"

# The checks, run as root inside the root.
cat > "$tmp/in/check.sh" <<'INNER'
set -u
cd /tmp/kstats-deb
. ./tap.sh
check() { # DESC CMD...: ok if CMD succeeds, else its output as comments
	_d=$1
	shift
	if "$@" > out 2>&1; then
		ok "$_d"
	else
		notok "$_d" "$(tail -n 15 out)"
	fi
}
absent() { # PATH...: none exists (nor a dangling link); those left named
	_r=0
	for _f; do
		if [ -e "$_f" ] || [ -L "$_f" ]; then
			echo "left: $_f"
			_r=1
		fi
	done
	return $_r
}
kernels() {
	for b in /lib/modules/*/build; do [ -d "$b" ] && basename "${b%/build}"; done
}
module_ok() { # KVER: DKMS installed kstats for KVER, and modprobe finds it
	check "$1: dkms status installed" sh -c "dkms status kstats -k '$1' | grep -q ': installed'"
	check "$1: built warning-free" sh -c "cat /var/lib/dkms/kstats/*/'$1'/*/log/make.log &&
		! grep -q 'warning:' /var/lib/dkms/kstats/*/'$1'/*/log/make.log"
	check "$1: vermagic $1" sh -c "modinfo -k '$1' -F vermagic kstats | grep -q '^$1 '"
	check "$1: modprobe kstats resolves to updates/dkms" \
		sh -c "modprobe -S '$1' --show-depends kstats | grep -q '^insmod /lib/modules/$1/updates/dkms/kstats.ko'"
}
before=$(kernels)
echo "# kernels with headers: $(echo $before)"
check "dpkg -i kstats-dkms kstats" \
	dpkg -i kstats-dkms_*_all.deb kstats_*_amd64.deb
for k in $before; do
	module_ok "$k"
done
if grep -rqs bookworm-backports /etc/apt/sources.list.d/ &&
	ls /var/cache/apt/archives/linux-headers-*.deb > /dev/null 2>&1; then
	check "kernel upgrade: bookworm-backports headers" \
		apt-get install -y -q --no-download --no-install-recommends -t bookworm-backports linux-headers-amd64
	for k in $(kernels); do
		echo "$before" | grep -qx "$k" || module_ok "$k"
	done
fi
check "kstats --version" sh -c '[ "$(kstats --version)" = "kstats 0.1" ]'
check "kstats: module not loaded, says modprobe kstats" \
	sh -c '! kstats list 2> err; cat err; grep -q "modprobe kstats" err'
check "kstats compare on two snapshots" \
	sh -c 'kstats compare vm-6.12-find_vma-m16.json vm-6.12-find_vma-m2048.json | grep -q "^  change .*+42.8%"'
check "kstats-plot cdf: PNG and SVG" sh -c 'kstats-plot cdf vm-6.12-find_vma-m16.json \
	vm-6.12-find_vma-m2048.json -o cdf && head -c 4 cdf.png | grep -q PNG && grep -q "<svg" cdf.svg'
check "man pages" test -f /usr/share/man/man1/kstats.1.gz -a -f /usr/share/man/man1/kstats-plot.1.gz
check "kstats-export.service and .timer shipped, the timer not enabled" sh -c \
	'dpkg -L kstats | grep -qE "^(/usr)?/lib/systemd/system/kstats-export.service$" &&
	 dpkg -L kstats | grep -qE "^(/usr)?/lib/systemd/system/kstats-export.timer$" &&
	 ! ls /etc/systemd/system/timers.target.wants/kstats-export.timer 2>/dev/null'
check "/etc/default/kstats-export is a conffile" sh -c \
	'dpkg-query -W -f="\${Conffiles}" kstats | grep -q " /etc/default/kstats-export "'
check "kstats-serve.service shipped, not enabled; /etc/default/kstats-serve a conffile" sh -c \
	'dpkg -L kstats | grep -qE "^(/usr)?/lib/systemd/system/kstats-serve.service$" &&
	 ! ls /etc/systemd/system/multi-user.target.wants/kstats-serve.service 2>/dev/null &&
	 dpkg-query -W -f="\${Conffiles}" kstats | grep -q " /etc/default/kstats-serve "'
check "bash completion where bash-completion looks" \
	bash -c '. /usr/share/bash-completion/completions/kstats && complete -p kstats | grep -q _kstats'
check "apt-get purge kstats kstats-dkms" apt-get purge -y -q kstats kstats-dkms
check "purge left no module, sources or dkms tree" \
	absent /lib/modules/*/updates/dkms/kstats.ko* /usr/src/kstats-* /var/lib/dkms/kstats
check "purge left no CLI" sh -c '! command -v kstats && ! command -v kstats-plot'
INNER

for root in $roots; do
	name=${root##*/}
	rm -rf "$tmp/upper" "$tmp/work" "$tmp/merged"
	mkdir -p "$tmp/upper" "$tmp/work" "$tmp/merged"
	# A private mount namespace: the overlay (root below, writes to
	# $tmp/upper), proc, sysfs and debugfs (the CLI's hint reads them)
	# vanish with it.
	unshare --mount --fork sh -c '
		set -e
		m=$2/merged
		mount -t overlay overlay -o "lowerdir=$1,upperdir=$2/upper,workdir=$2/work" "$m"
		mount -t proc proc "$m/proc"
		mount -t sysfs sysfs "$m/sys"
		mount -t debugfs debugfs "$m/sys/kernel/debug"
		mkdir -p "$m/tmp/kstats-deb"
		cp "$2"/in/* "$m/tmp/kstats-deb/"
		exec chroot "$m" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive sh /tmp/kstats-deb/check.sh
	' sh "$root" "$tmp" > "$tmp/log" 2>&1
	rc=$?
	TAP_PREFIX="$name: "
	tap_relay comments < "$tmp/log"
	TAP_PREFIX=
	if [ "$rc" -ne 0 ]; then
		notok "$name: the check script exited with status $rc"
		tail -n 20 "$tmp/log" | sed 's/^/#   /'
	fi
done
tap_end
