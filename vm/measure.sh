# SPDX-License-Identifier: GPL-2.0
#
# Measurement helpers for scenarios that measure rather than test: the
# demo's (demo/scenarios/NN-*.sh) and the A/B runner's (tools/ab/10-ab.sh),
# sourced as
#   . "${KS_LIB:-/ks}/measure.sh"
# In the VM (vm/session.sh) from /ks, on top of /ks/lib.sh; on a real
# machine (demo/demo.sh --host: KS_DEMO_HOST=1, KS_LIB=vm/) from the
# source tree.  POSIX sh (busybox or dash).
#
# A scenario writes what it measured into $DEMO_OUT: snapshots (kstats
# save) and SCENARIO.facts, one KEY=VALUE a line, which demo/report.py
# turns into the tables.  In the VM $DEMO_OUT is $KS_COLLECT: the session
# brings the files back to the host (vm/session.sh --collect).  Lines
# starting with "# demo:" are progress.

. "${KS_LIB:-/ks}/lib.sh"
# Host facts (kernel config, sizes, the runner's settings), staged by the
# caller as _env.sh (vm/session.sh --stage: /ks/files).
[ -f "$KS_FILES/_env.sh" ] && . "$KS_FILES/_env.sh"

DEMO_OUT=${KS_DEMO_OUT:-$KS_COLLECT}
DEMO_FACTS=$DEMO_OUT/$KS_SCENARIO.facts
DEMO_KO=${KS_DEMO_KO:-/modules/kstats.ko}
mkdir -p "$DEMO_OUT"
: > "$DEMO_FACTS"

# say TEXT: a progress line (the host streams these while the VM runs).
say() {
	echo "# demo: $*"
}

# fact KEY VALUE...: record one measured figure for the report.
fact() {
	_fact_k=$1
	shift
	echo "$_fact_k=$*" >> "$DEMO_FACTS"
}

# demo_up: make sure kstats is loaded (insmod it if needed) and no node
# is left from before.  One check.
demo_up() {
	DEMO_LOADED=0
	if [ ! -e "$KS_CTL" ]; then
		check "insmod kstats" insmod "$DEMO_KO" || return 1
		DEMO_LOADED=1
	fi
	fact kernel "$(uname -r)"
	fact cpus "$(grep -c '^processor' /proc/cpuinfo)"
	fact vm "$([ -n "$KS_DEMO_HOST" ] && echo 0 || echo 1)"
	fact icount "${KS_ICOUNT:-0}"
	return 0
}

# demo_down: remove our nodes; rmmod kstats if demo_up loaded it.
demo_down() {
	for _n in $DEMO_NODES; do
		ctl "remove $_n" 2>/dev/null
	done
	DEMO_NODES=""
	if [ "$DEMO_LOADED" = 1 ]; then
		check "rmmod kstats" rmmod kstats
	fi
}

# demo_trace NAME [OPTION VALUE]...: one "trace" write to _control.
# Status 0 traced; 2 the kernel has no such function (ENOENT); 1 another
# error (reported as a failed check).
demo_trace() {
	if echo "trace $*" 2> "$KS_STATE/trace.err" > "$KS_CTL"; then
		DEMO_NODES="$DEMO_NODES $1"
		return 0
	fi
	if grep -q "$(ks_strerror ENOENT)" "$KS_STATE/trace.err"; then
		return 2
	fi
	fail "trace $*" "$(cat "$KS_STATE/trace.err")"
	return 1
}

# demo_untrace NAME: remove one node.
demo_untrace() {
	ctl "remove $1"
	DEMO_NODES=$(echo "$DEMO_NODES" | tr ' ' '\n' | grep -vx "$1" | tr '\n' ' ')
}

# wl ID CMD [ARGS...]: run a workload, show and keep its result line
# ("NAME: ops=N ns=T ..."); facts ID.KEY for each key=value in it.
# Fails the scenario's check if the workload fails.
wl() {
	_wl_id=$1
	shift
	say "  $*"
	if ! WL=$("$@" 2> "$KS_STATE/wl.err"); then
		fail "$_wl_id: $*" "$WL" "$(cat "$KS_STATE/wl.err")"
		return 1
	fi
	say "    $WL"
	for _wl_kv in ${WL#*:}; do
		case $_wl_kv in
		*=*)	fact "$_wl_id.${_wl_kv%%=*}" "${_wl_kv#*=}" ;;
		esac
	done
	return 0
}

# wl_get KEY: a key=value of the last wl result line.
wl_get() {
	for _wl_kv in ${WL#*:}; do
		case $_wl_kv in
		"$1="*)	echo "${_wl_kv#*=}"; return 0 ;;
		esac
	done
	return 1
}

# samples NODE: the samples count of a node.
samples() {
	node_field "$1" samples
}

# snap NODE FILE LABEL: save a snapshot of NODE as $DEMO_OUT/FILE.
snap() {
	check "save $2" kstats save "$1" -o "$DEMO_OUT/$2" --label "$3"
}

# tmpfs_dir: a fresh directory on a tmpfs for file-system workloads.
tmpfs_dir() {
	if [ -n "$KS_DEMO_HOST" ]; then
		mktemp -d "${KS_DEMO_TMPFS:-/dev/shm}/ks-demo.XXXXXX"
	else
		mktemp -d /tmp/ks-demo.XXXXXX	# /tmp is a tmpfs in the VM
	fi
}
