# SPDX-License-Identifier: GPL-2.0
# kstats' own overhead, per backend the module accepts: the empty function
# of kstats_target (N calls in one write) and the functions of the
# open("non_existent") workload (NOPEN opens per operation).
. /ks/lib.sh
. /scenarios/bench-lib.sh

N=${N:-100000}
NOPEN=${NOPEN:-10000}
REPS=${REPS:-5}
SAMPLE=${SAMPLE:-10000}
node=$KS_DIR/ks_target_empty

# measure TAG KIND SECTION KEY=VALUE...: time the workload KIND (empty or
# open), optionally counting the calls of node TAG, and record the
# ks-bench figures with the header fields of the node.
measure() {
	_tag=$1 _kind=$2
	shift 2
	_nopt=""
	[ "$_tag" != - ] && _nopt="-n $KS_DIR/$_tag"
	if [ "$_kind" = empty ]; then
		_l=$(ksb -r "$REPS" $_nopt write $KSB_EMPTY "$N")
	else
		_l=$(ksb -r "$REPS" $_nopt open $KSB_TMP "$NOPEN")
	fi || { fail "$* ($_kind): ks-bench failed"; return 1; }
	_extra=""
	if [ "$_tag" != - ]; then
		for _k in samples missed p50 floor attach; do
			_extra="$_extra $_k=$(node_field "$_tag" $_k)"
		done
	fi
	res "$@" kind=$_kind ops=$([ "$_kind" = empty ] && echo "$N" || echo "$NOPEN") \
		min=$(ksb_field "$_l" min) median=$(ksb_field "$_l" median) \
		calls=$(ksb_field "$_l" calls) t=$(ksb_field "$_l" t) $_extra
}

# The workload functions this kernel has (see 00-setup).
funcs=$(bench_funcs)

# Candidate functions for the open() workload: calls per open (exact,
# from the node's sample count) and the symbols attached (clones).
for f in ${CANDIDATES:-}; do
	ctl_try "trace $f" >/dev/null || { res cand name=$f present=0; continue; }
	l=$(ksb -r 3 -n $KS_DIR/$f open $KSB_TMP 1000) &&
		res cand name=$f present=1 ops=3000 calls=$(ksb_field "$l" calls) \
			p50=$(node_field $f p50) attach=$(node_field $f attach)
	ctl "remove $f"
done

# Baselines, before and after (the difference shows drift, if any).
measure - empty base when=before
measure - open base when=before

# try_trace MODE VIA NAME [OPTIONS]: trace; on failure record why (for
# that MODE of the backend) and return 1.
try_trace() {
	_mode=$1 _via=$2 _name=$3
	shift 3
	_why=$(ctl_try "trace $_name via $_via $*") && return 0
	res unavail via=$_via mode=$_mode target=$_name why="$(enc "$_why")"
	return 1
}

for via in ${BACKENDS:-kretprobe fprobe direct}; do
	if ! try_trace full $via ks_target_empty; then
		skip "backend $via" "$(tail -n1 $KSB_RES)"
		continue
	fi
	ok "backend $via: trace ks_target_empty"
	measure ks_target_empty empty kstats via=$via mode=full target=empty
	ctl "remove ks_target_empty"

	# one call in SAMPLE timed: the others cost what a sampled-out
	# call costs, the timed one what the C path costs (report.py)
	if try_trace sample $via ks_target_empty sample $SAMPLE; then
		measure ks_target_empty empty kstats via=$via mode=sample \
			every=$SAMPLE target=empty
		ctl "remove ks_target_empty"
	fi
	if try_trace stopped $via ks_target_empty && ctl "stop ks_target_empty"; then
		measure - empty kstats via=$via mode=stopped target=empty
		ctl "remove ks_target_empty"
	fi
	# the per-call-site histograms and the slowest calls, each alone
	if try_trace callers $via ks_target_empty callers 8; then
		measure ks_target_empty empty kstats via=$via mode=callers target=empty
		ctl "remove ks_target_empty"
	fi
	if try_trace slowest $via ks_target_empty slowest 16; then
		measure ks_target_empty empty kstats via=$via mode=slowest target=empty
		ctl "remove ks_target_empty"
	fi
	if try_trace tsc $via ks_target_empty clock tsc; then
		measure ks_target_empty empty kstats via=$via mode=tsc target=empty
		ctl "remove ks_target_empty"
	fi
	for f in $funcs; do
		try_trace full $via $f || continue
		measure $f open kstats via=$via mode=full target=$f
		ctl "remove $f"
	done
done

# The default backend: what "trace NAME" picks.
if ctl_try "trace ks_target_empty" >/dev/null; then
	a=$(node_field ks_target_empty attach)
	res default via=${a%%:*}
	ctl "remove ks_target_empty"
fi

measure - empty base when=after
measure - open base when=after
check "no node left" '[ "$(ls $KS_DIR | grep -vc "^_")" = 0 ]'	# _control, _last
