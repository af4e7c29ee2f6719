#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Package test.  Installs the kstats-dkms and kstats packages (deb-out/,
# from 'make deb') into a throwaway overlay of each clean Debian root that
# scripts/deps.sh made (bookworm: Debian 12; trixie: Debian 13, 7.x) and
# checks what a user gets: DKMS built and installed the module for every
# kernel with headers there (its vermagic names that kernel, modprobe
# resolves 'kstats' to it), a kernel upgrade (the bookworm-backports
# headers that deps.sh downloaded) gets its module too, the CLI and
# kstats-plot run on snapshot files, kstats-serve.service is where systemd
# reads units, disabled, valid, and its command line (expanded as systemd
# does, with /etc/default/kstats-serve) serves /metrics, and purging removes
# it all.  Offline, in a network namespace of its own (kstats serve binds
# 127.0.0.1:9477 whatever this machine runs): the roots already hold what
# the packages depend on, and curl.  The roots are left untouched.  TAP
# lines (vm/tap.sh); last line 'N passed, N failed, N skipped'.
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
cp "$top/tests/cli/fixtures/hand-bits3.txt" "$tmp/in/find_vma-node.txt"

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
# unit_argv UNIT: its ExecStart's arguments, one a line, as systemd
# expands them (systemd.service(5), "Command lines"): the values of its
# Environment=, then of its EnvironmentFile= (KEY=VALUE lines, "#" and ";"
# comments, quotes stripped); ${VAR} one argument, $VAR split at blanks.
unit_argv() {
	python3 - "$1" <<'PY'
import re, shlex, sys

env, files, cmd = {}, [], ""
for line in open(sys.argv[1]):
    key, _, val = line.strip().partition("=")
    if key == "Environment":
        env.update(a.split("=", 1) for a in shlex.split(val))
    elif key == "EnvironmentFile":
        files.append(val)
    elif key == "ExecStart":
        cmd = val
for f in files:
    try:
        lines = open(f.lstrip("-")).read().splitlines()
    except FileNotFoundError:
        if f.startswith("-"):
            continue
        raise
    for l in lines:
        l = l.strip()
        if l and l[0] not in "#;" and "=" in l:
            k, v = (s.strip() for s in l.split("=", 1))
            if len(v) > 1 and v[0] == v[-1] and v[0] in "\"'":
                v = v[1:-1]
            env[k] = v
var = r"[A-Za-z_][A-Za-z0-9_]*"
for w in shlex.split(cmd):
    if re.fullmatch(r"\$" + var, w):
        for a in env.get(w[1:], "").split():
            print(a)
    else:
        print(re.sub(r"\$\{(" + var + r")\}", lambda m: env.get(m[1], ""), w))
PY
}
# serve_start [VAR=VALUE...]: the unit's command line, as unit_argv
# expands it, in the background (with VAR=VALUE in its environment); its
# stderr in serve.err, its "serve: http://..." line awaited; $serve_pid.
serve_start() {
	_argv=$(unit_argv "$unit")
	: > serve.err
	set -f
	_ifs=$IFS IFS='
'
	# shellcheck disable=SC2086
	env "$@" $_argv 2> serve.err &
	serve_pid=$!
	IFS=$_ifs
	set +f
	_i=0
	while ! grep -q '^kstats: serve: http://' serve.err && [ $_i -lt 100 ] &&
		kill -0 "$serve_pid" 2> /dev/null; do
		sleep 0.1
		_i=$((_i + 1))
	done
}
# serve_stop: SIGTERM; the exit status in $serve_rc.
serve_stop() {
	kill -TERM "$serve_pid" 2> /dev/null
	wait "$serve_pid"
	serve_rc=$?
}
# get URL [ACCEPT]: the body in body; $code and $ctype of the answer.
get() {
	rm -f body head
	curl -s -o body -D head ${2:+-H "Accept: $2"} "$1"
	touch body head
	code=$(sed -n '1s/^HTTP\/1\.[01] \([0-9]*\).*/\1/p' head)
	ctype=$(sed -n 's/^Content-Type: \(.*\)\r$/\1/Ip' head)
}
PB_ACCEPT='application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited'
PB_TYPE='application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited'
# pb_frames: the length-delimited messages of body, and whether they end
# at its last byte ("N whole").
pb_frames() {
	python3 -c '
import sys
b, i, n = open("body", "rb").read(), 0, 0
while i < len(b):
    size = shift = 0
    while i < len(b):
        c = b[i]
        i, size, shift = i + 1, size | (c & 0x7f) << shift, shift + 7
        if c < 0x80:
            break
    i, n = i + size, n + 1
print(n, "whole" if i == len(b) else "cut")'
}
# serve_checks: kstats-serve.service as installed: where systemd reads
# units, disabled and not started, valid; its command line with the
# shipped settings (no module here: 503 and why), then with edited ones
# and a node (a fake debugfs): both expositions; SIGTERM ends it with 0.
serve_checks() {
	unit=$(dpkg -L kstats | grep -E '^(/usr)?/lib/systemd/system/kstats-serve\.service$')
	if ! [ -f "$unit" ]; then
		notok "kstats-serve.service: not in the package" "$(dpkg -L kstats | grep systemd)"
		return
	fi
	if command -v systemctl > /dev/null; then
		check "kstats-serve.service: in a unit directory of systemd ($unit)" \
			sh -c "systemd-analyze unit-paths && systemd-analyze unit-paths |
				grep -qx \"\$(dirname \"\$(realpath '$unit')\")\""
		expect "kstats-serve.service: systemctl is-enabled: disabled" \
			"$(systemctl --root=/ is-enabled kstats-serve.service 2>&1)" disabled
		# verify looks Documentation='s page up with man(1): not where
		# there is no man-db (the page itself: the "man pages" check)
		_man=--man=yes
		command -v man > /dev/null || _man=--man=no
		check "kstats-serve.service: systemd-analyze verify $_man" \
			systemd-analyze verify "$_man" "$unit"
	else
		skip "kstats-serve.service: systemd-analyze unit-paths, systemctl is-enabled, systemd-analyze verify" \
			"no systemd in this root (scripts/deps.sh deb)"
	fi
	check "kstats-serve.service: no .wants link, none in deb-systemd-helper's state" \
		absent /etc/systemd/system/*.wants/kstats-serve.service \
		/var/lib/systemd/deb-systemd-helper-enabled/*.wants/kstats-serve.service
	check "kstats-serve.service: postinst starts nothing" \
		sh -c '! grep -n "deb-systemd-invoke.*kstats-serve" /var/lib/dpkg/info/kstats.postinst'
	expect "kstats-serve.service: ExecStart with the shipped settings" \
		"$(unit_argv "$unit" | tr '\n' ' ')" "/usr/bin/kstats serve --listen 127.0.0.1:9477 "

	# the shipped settings; no kstats module on this machine: 503 and why
	serve_start
	expect "serve (the unit's command): listens at 127.0.0.1:9477" \
		"$(cat serve.err)" "kstats: serve: http://127.0.0.1:9477/metrics"
	if [ -e /sys/module/kstats ]; then
		skip "serve, no module: GET /metrics" \
			"this machine has the kstats module loaded"
	else
		get http://127.0.0.1:9477/metrics
		echo "# GET /metrics: HTTP $code, $ctype: $(head -n 1 body)"
		check "serve, no module: GET /metrics: 503, text/plain, modprobe kstats" \
			sh -c "cat head body; [ '$code' = 503 ] && [ '$ctype' = 'text/plain; charset=utf-8' ] &&
				[ \$(wc -l < body) = 1 ] && grep -q '^kstats: the kstats module is not loaded.*modprobe kstats' body"
		why=$(head -n 1 body)
		get http://127.0.0.1:9477/metrics "$PB_ACCEPT"
		expect "serve, no module: protobuf Accept: the same 503, text/plain" \
			"$code $ctype $(cat body)" "503 text/plain; charset=utf-8 $why"
	fi
	serve_stop
	expect "serve: SIGTERM: exit status 0" "$serve_rc" 0

	# edited settings, and a node (a fake debugfs, KSTATS_DEBUGFS)
	sed -i -e 's/^KSTATS_SERVE_LISTEN=.*/KSTATS_SERVE_LISTEN=127.0.0.1:9478/' \
		-e 's/^KSTATS_SERVE_NODES=.*/KSTATS_SERVE_NODES="find_* nomatch"/' \
		-e 's/^KSTATS_SERVE_OPTIONS=.*/KSTATS_SERVE_OPTIONS=--per-cpu/' /etc/default/kstats-serve
	expect "kstats-serve.service: ExecStart with edited settings" \
		"$(unit_argv "$unit" | tr '\n' ' ')" "/usr/bin/kstats serve --listen 127.0.0.1:9478 --per-cpu find_* nomatch "
	mkdir -p dbg
	cp find_vma-node.txt dbg/find_vma
	echo "find_vma kretprobe active 13 0" > dbg/_control
	KSTATS_DEBUGFS=$PWD/dbg kstats export --prometheus --per-cpu find_vma > export.prom
	serve_start KSTATS_DEBUGFS="$PWD/dbg"
	expect "serve, edited settings: listens at 127.0.0.1:9478" \
		"$(cat serve.err)" "kstats: serve: http://127.0.0.1:9478/metrics"
	get http://127.0.0.1:9478/metrics
	check "serve, a node: GET /metrics: 200, text 0.0.4 = export --prometheus" \
		sh -c "cat head; [ '$code' = 200 ] && [ '$ctype' = 'text/plain; version=0.0.4; charset=utf-8' ] &&
			[ -s body ] && diff export.prom body"
	families=$(grep -c '^# TYPE ' body)
	get http://127.0.0.1:9478/metrics "$PB_ACCEPT"
	expect "serve, a node: protobuf Accept: 200, delimited, the text's families" \
		"$code $ctype $(pb_frames)" "200 $PB_TYPE $families whole"
	serve_stop
	expect "serve, edited settings: SIGTERM: exit status 0" "$serve_rc" 0
}
before=$(kernels)
echo "# kernels with headers: $(echo $before)"
check "dpkg -i kstats-dkms kstats" \
	dpkg -i kstats-dkms_*_all.deb kstats_*_amd64.deb
for k in $before; do
	module_ok "$k"
done
# kstats-serve.service under the root's own systemd: before the kernel
# upgrade, which brings bookworm-backports' udev and systemd
check "/etc/default/kstats-serve is a conffile" sh -c \
	'dpkg-query -W -f="\${Conffiles}" kstats | grep -q " /etc/default/kstats-serve "'
serve_checks
if grep -rqs bookworm-backports /etc/apt/sources.list.d/ &&
	ls /var/cache/apt/archives/linux-headers-*.deb > /dev/null 2>&1; then
	# --force-confold: the headers bring initramfs-tools, whose
	# update-initramfs.conf deps.sh wrote (update_initramfs=no); dpkg
	# asks about it otherwise, and with no terminal fails
	check "kernel upgrade: bookworm-backports headers" \
		apt-get install -y -q --no-download --no-install-recommends -o Dpkg::Options::=--force-confold \
		-t bookworm-backports linux-headers-amd64
	for k in $(kernels); do
		echo "$before" | grep -qx "$k" || module_ok "$k"
	done
fi
check "kstats --version" sh -c '[ "$(kstats --version)" = "kstats 0.1" ]'
check "kstats: module not loaded, says modprobe kstats" \
	sh -c '! kstats list 2> err; cat err; grep -q "modprobe kstats" err'
check "kstats compare on two snapshots" \
	sh -c 'kstats compare vm-6.12-find_vma-m16.json vm-6.12-find_vma-m2048.json | grep -q "^  change .*+43%"'
check "kstats-plot cdf: PNG and SVG" sh -c 'kstats-plot cdf vm-6.12-find_vma-m16.json \
	vm-6.12-find_vma-m2048.json -o cdf && head -c 4 cdf.png | grep -q PNG && grep -q "<svg" cdf.svg'
check "man pages" test -f /usr/share/man/man1/kstats.1.gz -a -f /usr/share/man/man1/kstats-plot.1.gz
check "kstats-export.service and .timer shipped, the timer not enabled" sh -c \
	'dpkg -L kstats | grep -qE "^(/usr)?/lib/systemd/system/kstats-export.service$" &&
	 dpkg -L kstats | grep -qE "^(/usr)?/lib/systemd/system/kstats-export.timer$" &&
	 ! ls /etc/systemd/system/timers.target.wants/kstats-export.timer 2>/dev/null'
check "/etc/default/kstats-export is a conffile" sh -c \
	'dpkg-query -W -f="\${Conffiles}" kstats | grep -q " /etc/default/kstats-export "'
check "bash completion where bash-completion looks" \
	bash -c '. /usr/share/bash-completion/completions/kstats && complete -p kstats | grep -q _kstats'
check "apt-get purge kstats kstats-dkms" apt-get purge -y -q kstats kstats-dkms
check "purge left no module, sources or dkms tree" \
	absent /lib/modules/*/updates/dkms/kstats.ko* /usr/src/kstats-* /var/lib/dkms/kstats
check "purge left no CLI" sh -c '! command -v kstats && ! command -v kstats-plot'
check "purge left no kstats-serve.service, its settings (edited) or state" \
	absent /lib/systemd/system/kstats-serve.service /usr/lib/systemd/system/kstats-serve.service \
	/etc/default/kstats-serve /var/lib/systemd/deb-systemd-helper-enabled/kstats-serve.service.dsh-also \
	/etc/systemd/system/*.wants/kstats-serve.service
INNER

for root in $roots; do
	name=${root##*/}
	rm -rf "$tmp/upper" "$tmp/work" "$tmp/merged"
	mkdir -p "$tmp/upper" "$tmp/work" "$tmp/merged"
	# A private mount namespace: the overlay (root below, writes to
	# $tmp/upper), proc, sysfs and debugfs (the CLI's hint reads them)
	# vanish with it; a private network namespace, only lo up.
	unshare --mount --net --fork sh -c '
		set -e
		ip link set lo up
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
