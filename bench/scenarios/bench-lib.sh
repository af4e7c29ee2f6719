# SPDX-License-Identifier: GPL-2.0
# Helpers for the benchmark scenarios (guest side, busybox sh), sourced
# after /ks/lib.sh.  Not a scenario itself: run alone, it only skips.
#
# Results go to $KS_COLLECT/results, one record a line:
#   SECTION key=value key=value ...
# raw outputs to $KS_COLLECT/raw/; the VM session brings them back to
# bench-out/vm/KVER/res-TAG/ (bench/run.sh), where bench/report.py reads
# them.

KSB_OUT=$KS_COLLECT
KSB_RES=$KSB_OUT/results
KSB_TMP=/tmp/ksb			# tmpfs: the open() workload's directory
KSB_EMPTY=/sys/kernel/debug/kstats_target/empty
KSB_HOST=/host				# the host root, read-only over 9p

# Parameters written by bench/run.sh (N, REPS, NOPEN, ...), staged.
[ -f $KS_FILES/params ] && . $KS_FILES/params

# ks-bench options for every timed run: SCHED_FIFO (no kthread or tracer
# reader runs inside a timed operation; with rcu_nocbs=0 on the kernel
# command line that includes RCU callbacks), 10 ms of sleep before each
# timed operation for the deferred work to run, two warm-up operations.
KSB_OPTS=${KSB_OPTS:-"-f -s 10 -w 2"}

# res SECTION KEY=VALUE...: append one record.
res() {
	echo "$*" >> $KSB_RES
	echo "# result: $*"
}

# enc TEXT: TEXT as one word of a record (spaces and % escaped).
enc() {
	printf '%s' "$*" | sed 's/%/%25/g; s/ /%20/g'
}

# ksb_field LINE KEY: the value of KEY= in a "KSB ..." line of ks-bench.
ksb_field() {
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n1
}

# ksb ARGS...: run ks-bench, print its KSB line; fails if there is none.
ksb() {
	# shellcheck disable=SC2086
	_ksb_out=$(ks-bench $KSB_OPTS "$@" 2>&1)
	_ksb_line=$(echo "$_ksb_out" | grep '^KSB ' | tail -n1)
	if [ -z "$_ksb_line" ]; then
		echo "$_ksb_out" >&2
		return 1
	fi
	echo "$_ksb_line"
}

# ctl_try CMD: write CMD to _control; on failure print the error text
# (strerror of the errno) on stdout and return 1.
ctl_try() {
	_ksb_err=$( (echo "$*" > "$KS_CTL") 2>&1) && return 0
	echo "$_ksb_err" | sed 's/.*write error: //' | head -n1
	return 1
}

# in_host CMD...: run CMD in the host root (chroot), HOME and TMPDIR in
# the guest's /tmp; KSB_TIMEOUT=SECS: killed after that long.
# The guest's env and chroot run first, so the root needs only CMD of the
# guest's architecture (an arm64 guest: Debian 13 root with amd64 tools
# and bpftrace:arm64, bench/run.sh).
in_host() {
	env -i HOME=/tmp TMPDIR=/tmp PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		${KSB_TIMEOUT:+timeout $KSB_TIMEOUT} chroot $KSB_HOST "$@"
}

case ${0##*/} in
bench-lib.sh)
	skip "bench-lib.sh" "helpers, not a scenario" ;;
esac

# host_tool_why PATH PACKAGE: why the host's PATH cannot run in the guest
# (the host root is not shared, or PACKAGE is not installed); empty if it can.
host_tool_why() {
	if ! grep -q " $KSB_HOST " /proc/mounts; then
		echo "host root not mounted over 9p"
	elif [ -n "${HOST_ROOT:-}" ] && ! in_host "$1" --version >/dev/null 2>&1; then
		# a root of other architectures (bench/run.sh): Debian's $2 for
		# this one, or it cannot run here
		echo "no $2:$(uname -m | sed 's/aarch64/arm64/') in $HOST_ROOT"
	elif [ ! -x "$KSB_HOST$1" ]; then
		echo "not installed on the host (apt-get install $2)"
	fi
}

# bench_funcs: the functions of $FUNCS (default path_init) this kernel has.
bench_funcs() {
	for f in ${FUNCS:-path_init}; do
		grep -q " $f\$" /proc/kallsyms && printf ' %s' "$f"
	done
}
