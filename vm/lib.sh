# SPDX-License-Identifier: GPL-2.0
#
# Helpers for VM scenarios (tests/vm/scenarios/*.sh, and every other
# scenario folder vm/session.sh runs), sourced inside the guest as
# `. /ks/lib.sh`.  Plain busybox sh: no bashisms.
#
# Every check prints one TAP line on the console, through vm/tap.sh
# (staged beside this file):
#   ok N - KVER: SCENARIO: DESC        /   not ok N - KVER: SCENARIO: DESC
# The host (vm/session.sh) collects and renumbers them.  Checks return 0
# on success and 1 on failure, so `check ... || return` style works, but a
# scenario need not stop at the first failure.

KS_DEBUGFS_MNT=/sys/kernel/debug
# KS_LOCKDOWN=1: the lockdown pass (vm/runner.sh): the kernel is locked
# down (integrity), debugfs refuses every writable file, so the test
# target's files are read and written in /proc, and kstats' there too
# (where they are: debugfs's kstats is a link to them); the modules were
# loaded before the lockdown and cannot be loaded again (unsigned).
if [ "${KS_LOCKDOWN:-0}" = 1 ]; then
	KS_DIR=/proc/kstats
	KS_TDIR=/proc/kstats_target
else
	KS_DIR=$KS_DEBUGFS_MNT/kstats
	KS_TDIR=$KS_DEBUGFS_MNT/kstats_target
fi
KS_CTL=$KS_DIR/_control
KS_MODDIR=/modules
KS_STATE=/tmp/.ks		# counters shared by all scenarios of one boot
KS_FILES=${KS_FILES:-/ks/files}	# what the host staged (vm/session.sh --stage)
KS_COLLECT=${KS_COLLECT:-/ks/collect}	# what goes back (--collect)
KS_KVER=$(uname -r)
[ -n "$KS_SCENARIO" ] || { KS_SCENARIO=${0##*/}; KS_SCENARIO=${KS_SCENARIO%.sh}; }

mkdir -p "$KS_STATE" 2>/dev/null
# shellcheck source=vm/tap.sh
. "${KS_LIB:-/ks}/tap.sh"
TAP_STATE=$KS_STATE		# one numbering and count for all scenarios
# How much longer than the work it times a probed section may take, in ns,
# beyond the slot precision: the probes' own cost under TCG.  A debug
# kernel (KASAN, lockdep: make test-debug) passes ks.slack= for more.
KS_SLACK=${KS_SLACK:-30000}

# The checks of vm/tap.sh, each line prefixed "KVER: SCENARIO: " (ks-run
# sets it again for each scenario it runs).
TAP_PREFIX="$KS_KVER: ${KS_PASS:+$KS_PASS: }$KS_SCENARIO: "

# ok DESC: record a pass (vm/tap.sh's).

# fail DESC [DETAIL...]: record a failure; DETAIL lines are printed as
# TAP comments under it.
fail() {
	notok "$@"
	return 1
}

# skip DESC REASON: a check that cannot run here (counted apart: skipped),
# vm/tap.sh's.

# diag TEXT: a TAP comment (shown in the console log only).
diag() {
	echo "# $*"
}

# check DESC CMD [ARGS...]: ok if CMD succeeds; on failure show its output.
# With a single CMD word containing shell syntax (redirections, pipes),
# pass it as one string: check "desc" 'grep -q x /file | ...'.
check() {
	_ks_desc=$1
	shift
	if [ $# -eq 1 ]; then
		_ks_out=$(eval "$1" 2>&1)
	else
		_ks_out=$("$@" 2>&1)
	fi
	_ks_rc=$?
	if [ $_ks_rc -eq 0 ]; then
		ok "$_ks_desc"
	else
		fail "$_ks_desc" "command: $*" "exit status: $_ks_rc" "$_ks_out"
	fi
}

# expect_eq DESC ACTUAL EXPECTED: string equality.
expect_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		fail "$1" "expected: '$3'" "actual:   '$2'"
	fi
}

# expect_range DESC VALUE LO HI: LO <= VALUE <= HI (numbers, decimals ok).
expect_range() {
	if awk -v v="$2" -v lo="$3" -v hi="$4" 'BEGIN {
		n = "^-?[0-9]+(\\.[0-9]+)?$"
		if (v !~ n || lo !~ n || hi !~ n) exit 1
		exit !(v + 0 >= lo + 0 && v + 0 <= hi + 0)
	}'; then
		ok "$1"
	else
		fail "$1" "expected: $3 <= value <= $4" "actual:   '$2'"
	fi
}

# ks_strerror NAME: the C library's text for errno NAME (what busybox
# tools print, e.g. "sh: write error: No such file or directory").
ks_strerror() {
	case $1 in
	EPERM)		echo "Operation not permitted" ;;
	ENOENT)		echo "No such file or directory" ;;
	ESRCH)		echo "No such process" ;;
	EINTR)		echo "Interrupted system call" ;;
	EIO)		echo "Input/output error" ;;
	ENXIO)		echo "No such device or address" ;;
	E2BIG)		echo "Argument list too long" ;;
	EBADF)		echo "Bad file descriptor" ;;
	EAGAIN)		echo "Resource temporarily unavailable" ;;
	ENOMEM)		echo "Cannot allocate memory" ;;
	EACCES)		echo "Permission denied" ;;
	EFAULT)		echo "Bad address" ;;
	EBUSY)		echo "Device or resource busy" ;;
	EEXIST)		echo "File exists" ;;
	ENODEV)		echo "No such device" ;;
	ENOTDIR)	echo "Not a directory" ;;
	EISDIR)		echo "Is a directory" ;;
	EINVAL)		echo "Invalid argument" ;;
	ENOSPC)		echo "No space left on device" ;;
	ERANGE)		echo "Numerical result out of range" ;;
	ENAMETOOLONG)	echo "File name too long" ;;
	ENOSYS)		echo "Function not implemented" ;;
	EOVERFLOW)	echo "Value too large for defined data type" ;;
	EOPNOTSUPP)	echo "Operation not supported" ;;
	EALREADY)	echo "Operation already in progress" ;;
	ENOTSUPP)	echo "Unknown error 524" ;;	# kernel-internal 524
	*)		return 1 ;;
	esac
}

# expect_errno DESC ERRNO_NAME CMD [ARGS...]: CMD must fail and its stderr
# must carry the strerror text of ERRNO_NAME.  Like check, a single CMD
# string is evaluated, so redirections work:
#   expect_errno "unknown symbol" ENOENT 'echo "trace nosuch" > /sys/kernel/debug/kstats/_control'
#   expect_errno "unknown symbol" ENOENT ctl "trace nosuch"
expect_errno() {
	_ks_desc=$1
	_ks_want=$(ks_strerror "$2") || {
		fail "$_ks_desc" "expect_errno: unknown errno name '$2'"
		return 1
	}
	shift 2
	if [ $# -eq 1 ]; then
		( eval "$1" ) > "$KS_STATE/out" 2> "$KS_STATE/err"
	else
		"$@" > "$KS_STATE/out" 2> "$KS_STATE/err"
	fi
	_ks_rc=$?
	_ks_err=$(cat "$KS_STATE/err")
	if [ $_ks_rc -eq 0 ]; then
		fail "$_ks_desc" "command: $*" "succeeded, expected failure: $_ks_want" \
			"$(cat "$KS_STATE/out")"
	elif ! grep -qF "$_ks_want" "$KS_STATE/err"; then
		fail "$_ks_desc" "command: $*" "expected error: $_ks_want" \
			"stderr: $_ks_err"
	else
		ok "$_ks_desc"
	fi
}

# ctl CMD: write one command to kstats' _control in a single write().
# Returns non-zero (with the error on stderr) if the module rejects it.
ctl() {
	echo "$*" > "$KS_CTL"
}

# node_field NODE KEY: print the value after KEY in the '#' header lines of
# /sys/kernel/debug/kstats/NODE (docs/format.md), e.g.
#   node_field find_vma samples   -> 2003411
#   node_field find_vma p99.9     -> 2040
#   node_field find_vma state     -> active     (key=value words work too)
# NODE containing a '/' is taken as a file path.  Fails if KEY is absent.
node_field() {
	case $1 in
	*/*)	_ks_f=$1 ;;
	*)	_ks_f=$KS_DIR/$1 ;;
	esac
	awk -v key="$2" '
		!/^#/ { exit 1 }
		{
			for (i = 2; i <= NF; i++) {
				if ($i == key && i < NF) { print $(i + 1); found = 1; exit 0 }
				if (index($i, key "=") == 1) {
					print substr($i, length(key) + 2); found = 1; exit 0
				}
			}
		}
		END { exit !found }' "$_ks_f"
}

# kver_at_least MAJOR MINOR: is the running kernel MAJOR.MINOR or newer?
kver_at_least() {
	_ks_maj=${KS_KVER%%.*}
	_ks_min=${KS_KVER#*.}
	_ks_min=${_ks_min%%[!0-9]*}
	[ "$_ks_maj" -gt "$1" ] || { [ "$_ks_maj" -eq "$1" ] && [ "$_ks_min" -ge "$2" ]; }
}

# tsc_gave_up: has the kernel itself marked the TSC unstable (its
# clocksource watchdog, a failed sync check)?  kstats then times with
# local_clock() (49-clock, 70-api).
tsc_gave_up() {
	dmesg | grep -q "Marking TSC unstable"
}

# have_direct: does kstats have its direct backend here?  It has a
# trampoline for x86-64 and arm64 (kmod/ks_arch.h), and needs ftrace's
# direct calls, which arm64 has from 6.12 on.
have_direct() {
	grep -qE ' register_ftrace_direct(_multi)?$' /proc/kallsyms
}

# need_direct DESC: true if the direct backend exists here; else DESC (the
# checks that need it) is recorded as skipped, with the reason, and false.
need_direct() {
	have_direct && return 0
	skip "$1" "no ftrace direct calls in this kernel (the direct backend)"
	return 1
}

# set_backends: set $backends, the backends a scenario runs its
# per-backend checks on: kretprobe, direct (need_direct: a skip where it
# is missing), fprobe where the kernel has it.
set_backends() {
	backends=kretprobe
	need_direct "direct: the per-backend checks" && backends="$backends direct"
	grep -qw register_fprobe_syms /proc/kallsyms && backends="$backends fprobe"
	return 0
}

# load_modules: insmod /modules/kstats.ko (required) then
# /modules/kstats_target.ko (if present); reports one check each.
load_modules() {
	if [ "${KS_LOCKDOWN:-0}" = 1 ]; then
		check "kstats loaded before the lockdown, its files in /proc" \
			'grep -q "^kstats " /proc/modules && test -e "$KS_CTL"' || return 1
		expect_eq "no node left by the scenario before" \
			"$(grep -vc '^#' "$KS_CTL")" 0
		return 0
	fi
	if [ ! -f "$KS_MODDIR/kstats.ko" ]; then
		fail "load kstats.ko" "no $KS_MODDIR/kstats.ko in the initramfs" \
			"(make vm-stage-$KS_KVER fills vm/out/$KS_KVER/modules/)"
		return 1
	fi
	check "insmod kstats.ko" insmod "$KS_MODDIR/kstats.ko" || return 1
	check "kstats _control exists" test -e "$KS_CTL" || return 1
	if [ -f "$KS_MODDIR/kstats_target.ko" ]; then
		check "insmod kstats_target.ko" insmod "$KS_MODDIR/kstats_target.ko" ||
			return 1
	fi
	return 0
}

# lockdown_skip DESC: in the lockdown pass, record DESC as skipped (the
# modules cannot be loaded again there) and succeed; else fail, silently.
#   if ! lockdown_skip "rmmod with nodes attached"; then ...; fi
lockdown_skip() {
	[ "${KS_LOCKDOWN:-0}" = 1 ] || return 1
	skip "$1" "a locked-down kernel loads no unsigned module again"
	return 0
}

# unload_modules: rmmod the modules load_modules inserted (reverse order),
# one check each, for those that are loaded.
unload_modules() {
	if [ "${KS_LOCKDOWN:-0}" = 1 ]; then	# kept: no reload under lockdown
		echo "remove all" > "$KS_CTL"
		expect_eq "remove all leaves no node" "$(grep -vc '^#' "$KS_CTL")" 0
		return
	fi
	_ks_rc=0
	for _ks_m in kstats_target kstats; do
		if grep -q "^$_ks_m " /proc/modules; then
			check "rmmod $_ks_m" rmmod "$_ks_m" || _ks_rc=1
		fi
	done
	return $_ks_rc
}

# uptime_cs: the guest's uptime in 1/100 s.
uptime_cs() {
	read -r up _ < /proc/uptime
	echo "${up%.*}${up#*.}"
}

# rmmod_within_10s LABEL: rmmod kstats in the background and check (LABEL)
# that it is gone, and that it took under 10 s.
rmmod_within_10s() {
	_ks_t0=$(uptime_cs)
	rmmod kstats &
	_ks_rmmoder=$!
	check "$1" poll 3000 '! grep -q "^kstats " /proc/modules'
	_ks_t1=$(uptime_cs)
	wait $_ks_rmmoder
	expect_range "rmmod took under 10 s (cs)" $((_ks_t1 - _ks_t0)) 0 999
}

# poll TRIES CMD [ARGS...]: retry CMD (every 10 ms) until it succeeds or
# TRIES attempts have failed.  Use instead of a fixed sleep.
poll() {
	_ks_tries=$1
	shift
	while [ "$_ks_tries" -gt 0 ]; do
		if [ $# -eq 1 ]; then eval "$1"; else "$@"; fi && return 0
		_ks_tries=$((_ks_tries - 1))
		sleep 0.01
	done
	return 1
}

# Kernel log patterns that fail a run (dmesg_bad).  KS_DMESG_BAD is
# case-sensitive ("BUG" must not match "debug"), KS_DMESG_BAD_I is not.
# kmemleak logs its start and each scan's count, whoever leaked: its
# reports are judged where a scenario scans (kmemleak_scan below), by
# whose allocation leaked.  lockdep's reports say "WARNING" or "BUG".
KS_DMESG_BAD='\bBUG\b|WARNING|Oops|KASAN|UBSAN|list_del corruption'
KS_DMESG_BAD_I='general protection|call trace'

# dmesg_bad [CONTEXT]: print the kernel log lines matching the patterns
# above, each with 2 lines before and CONTEXT (default 12) after: a
# warning's trace is logged below the console loglevel, so this is the
# place to see it.  Status 0 if there are any.
dmesg_bad() {
	dmesg > "$KS_STATE/dmesg"
	{
		grep -nE "$KS_DMESG_BAD" "$KS_STATE/dmesg"
		grep -niE "$KS_DMESG_BAD_I" "$KS_STATE/dmesg"
	} | cut -d: -f1 | sort -nu > "$KS_STATE/dmesg.bad"
	[ -s "$KS_STATE/dmesg.bad" ] || return 1
	awk -v ctx="${1:-12}" '
		NR == FNR { for (i = $1 - 2; i <= $1 + ctx; i++) want[i] = 1; next }
		FNR in want { if (shown && FNR > last + 1) print "--"; print; shown = 1; last = FNR }
	' "$KS_STATE/dmesg.bad" "$KS_STATE/dmesg"
	return 0
}

# kmemleak_scan: age and scan (kmemleak reports an object once it is 5 s
# old and found unreferenced), then set KS_LEAKS_ALL to the number of
# unreferenced objects and KS_LEAKS_OURS to those whose allocation
# backtrace passes through kstats or its test modules: by name, or by an
# address in module space (a module since unloaded).  Status 1 without
# kmemleak.
kmemleak_scan() {
	[ -e "$KS_DEBUGFS_MNT/kmemleak" ] || return 1
	sleep 6
	echo scan > "$KS_DEBUGFS_MNT/kmemleak"
	echo scan > "$KS_DEBUGFS_MNT/kmemleak"
	cat "$KS_DEBUGFS_MNT/kmemleak" > "$KS_STATE/kmemleak"
	KS_LEAKS_ALL=$(grep -c '^unreferenced object' "$KS_STATE/kmemleak")
	KS_LEAKS_OURS=$(awk '
		/^unreferenced object/ { n += hit; hit = 0; next }
		/\[kstats|[^a-z_]ks_|kstats_|0xffffffffc0/ { hit = 1 }
		END { print n + hit }' "$KS_STATE/kmemleak")
	return 0
}

# ks_publish: print on the console each file under $KS_COLLECT that is new
# or changed since the last call, between KS-FILE-BEGIN PATH MD5 and
# KS-FILE-END PATH, for the host (vm/collect.sh).  Text files; a last
# line without its newline gets one.  vm/runner.sh calls it after each
# scenario when the host collects (ks.collect=1).
ks_publish() {
	[ -d "$KS_COLLECT" ] || return 0
	touch "$KS_STATE/published"
	(cd "$KS_COLLECT" && find . -type f | sort) | while read -r _ks_f; do
		_ks_f=${_ks_f#./}
		awk 1 "$KS_COLLECT/$_ks_f" > "$KS_STATE/pub"
		_ks_sum=$(md5sum < "$KS_STATE/pub" | cut -c1-32)
		grep -qxF "$_ks_f $_ks_sum" "$KS_STATE/published" && continue
		echo "KS-FILE-BEGIN $_ks_f $_ks_sum"
		cat "$KS_STATE/pub"
		echo "KS-FILE-END $_ks_f"
		echo "$_ks_f $_ks_sum" >> "$KS_STATE/published"
	done
}

# mount_host_root DIR: mount the host's / (vm/session.sh --9p-host-root)
# read-only on DIR.  Status 1 (nothing printed) without it.
mount_host_root() {
	mkdir -p "$1"
	mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=262144 \
		hostroot "$1" 2>/dev/null
}

# ks_arg NAME: the value of NAME=VALUE on the kernel command line;
# status 1 without it.
ks_arg() {
	for _ks_a in $(cat /proc/cmdline); do
		case $_ks_a in "$1"=*) echo "${_ks_a#*=}"; return 0 ;; esac
	done
	return 1
}

# Programs of the host root (vm/session.sh --9p-host-root), mounted on
# KS_HOST by host_root_prepare.  They run after the guest's own env and
# chroot (busybox's), so that the root needs only the programs of the
# guest's architecture: an arm64 guest runs the arm64 programs of the
# Debian 13 root.  Their PATH puts ks.hostpath=DIR[:DIR...] of the kernel
# command line first (programs unpacked beside the root's own, such as
# its arm64 Prometheus: tests/vm/prometheus.sh).
KS_HOST=/host

# host_path: the PATH of the programs of the host root.
host_path() {
	_ks_p=$(ks_arg ks.hostpath)
	echo "${_ks_p:+$_ks_p:}/usr/sbin:/usr/bin:/sbin:/bin"
}

# host_which PROGRAM: its path in the host root (PROGRAM with a '/' as
# it is); status 1 if that root has no such executable.
host_which() {
	case $1 in
	*/*)	[ -x "$KS_HOST$1" ] && echo "$1"; return ;;
	esac
	for _ks_d in $(host_path | tr : ' '); do
		[ -x "$KS_HOST$_ks_d/$1" ] && { echo "$_ks_d/$1"; return 0; }
	done
	return 1
}

# host_run CMD [ARGS...]: CMD run in the host root, HOME and TMPDIR /tmp.
host_run() {
	env -i HOME=/tmp TMPDIR=/tmp PATH="$(host_path)" chroot "$KS_HOST" "$@"
}

# host_start LOG CMD [ARGS...]: host_run CMD in the background, its
# output in LOG; KS_HOST_PID is its pid (env and chroot exec it).
host_start() {
	_ks_log=$1
	shift
	env -i HOME=/tmp TMPDIR=/tmp PATH="$(host_path)" chroot "$KS_HOST" "$@" > "$_ks_log" 2>&1 &
	KS_HOST_PID=$!
}

# host_root_prepare DESC PROGRAM...: the host root on KS_HOST with the
# guest's /proc, /sys, /dev and /tmp bound into it, once the export unit
# and its settings of the source tree there (ks.repo=DIR: DIR/debian)
# are copied into /tmp (kstats.kstats-export.service,
# kstats-export.default: for timer_export_setup; copied first, as the
# guest's /tmp then covers the root's).  Two checks.  Without the root or
# one of the PROGRAMs (host_which), DESC is skipped with why: status 1.
host_root_prepare() {
	_ks_desc=$1
	shift
	if ! mount_host_root "$KS_HOST"; then
		skip "$_ks_desc" "host root not shared (vm/session.sh --9p-host-root)"
		return 1
	fi
	for _ks_b in "$@"; do
		host_which "$_ks_b" > /dev/null && continue
		skip "$_ks_desc" "no $_ks_b in the host root (PATH $(host_path); make deps)"
		return 1
	done
	_ks_repo=$(ks_arg ks.repo)
	check "the export unit and its settings from the source tree" \
		cp "$KS_HOST$_ks_repo/debian/kstats.kstats-export.service" \
		"$KS_HOST$_ks_repo/debian/kstats-export.default" /tmp/ || return 1
	mount -o rbind /proc $KS_HOST/proc && mount -o rbind /sys $KS_HOST/sys &&
		mount -o rbind /dev $KS_HOST/dev && mount -o bind /tmp $KS_HOST/tmp
	check "host root prepared" test -d $KS_HOST/proc/self -a -e $KS_HOST/dev/null
}

# http_get URL: the body at URL (busybox's wget, 10 s at most: its own
# -T crashes busybox 1.35); status 1 on any error, an HTTP one too.
http_get() {
	timeout 10 wget -q -O - "$1"
}

# http_wait TRIES URL...: poll every 0.5 s until each URL answers (2 s
# each); status 1 after TRIES rounds.
http_wait() {
	_ks_tries=$1
	shift
	while [ "$_ks_tries" -gt 0 ]; do
		_ks_up=1
		for _ks_u in "$@"; do
			timeout 2 wget -q -O /dev/null "$_ks_u" 2> /dev/null || { _ks_up=0; break; }
		done
		[ $_ks_up = 1 ] && return 0
		_ks_tries=$((_ks_tries - 1))
		sleep 0.5
	done
	return 1
}

# prom_query EXPR: the value of the instant query EXPR ("" when empty)
# at the Prometheus of KS_PROM (http://ADDR:PORT); EXPR is sent
# percent-encoded, every byte.
prom_query() {
	_ks_q=$(printf '%s' "$1" | od -An -tx1 -v | tr -d ' \n' | sed 's/../%&/g')
	http_get "$KS_PROM/api/v1/query?query=$_ks_q" |
		sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p'
}

# prom_wait DESC EXPR WANT: poll EXPR (prom_query) every 0.5 s until it
# equals WANT, 60 s at most; then expect_eq DESC.
prom_wait() {
	_ks_i=0
	while [ $_ks_i -lt 120 ]; do
		_ks_v=$(prom_query "$2")
		[ "$_ks_v" = "$3" ] && break
		_ks_i=$((_ks_i + 1))
		sleep 0.5
	done
	expect_eq "$1" "$_ks_v" "$3"
}

# near_by PCT A B: is A within PCT% of B?  pct_of A B: A against B in
# percent, signed ("-" when B is not above 0).
near_by() {
	awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN { d = a / b - 1; exit !(b > 0 && d <= p / 100 && d >= -p / 100) }'
}
pct_of() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%+.1f%%", (a / b - 1) * 100; else print "-" }'
}

# timer_export_setup UNIT CONF OUTPUT: the export timer's command, as the
# .deb runs it: ExecStart of UNIT with its Environment= defaults, then
# the settings file CONF, writing OUTPUT; timer_export runs it.
timer_export_setup() {
	export_cmd=$(sed -n 's/^ExecStart=//p' "$1")
	eval "$(sed -n 's/^Environment=//p' "$1")"
	. "$2"
	KSTATS_EXPORT_OUTPUT=$3
	diag "export: $export_cmd (KSTATS_EXPORT_NODES=$KSTATS_EXPORT_NODES)"
}

timer_export() {
	eval "$export_cmd"
}
