# SPDX-License-Identifier: GPL-2.0
# perf ftrace latency -T FUNC (function_graph tracer, ns histogram) on the
# same workloads, ks-bench started by perf.  Raw outputs: $KSB_OUT/raw/.
. /ks/lib.sh
. /scenarios/bench-lib.sh

N=${N:-100000}
NOPEN=${NOPEN:-10000}
REPS=${REPS:-5}
mkdir -p $KSB_OUT/raw

why=$(host_tool_why /usr/bin/perf linux-perf)
if [ -n "$why" ]; then
	res unavail tool=perf-ftrace target=all why="$(enc "$why")"
	skip "perf" "$why"
	exit 0
fi

funcs=$(bench_funcs)

for target in empty $funcs; do
	if [ $target = empty ]; then
		func=ks_target_empty
		set -- write $KSB_EMPTY $N
		ops=$N
	else
		func=$target
		set -- open $KSB_TMP $NOPEN
		ops=$NOPEN
	fi
	raw=$KSB_OUT/raw/perf-ftrace-$target.txt
	# shellcheck disable=SC2086
	in_host perf ftrace latency -n -T $func -- /tmp/ks-bench $KSB_OPTS -r $REPS "$@" > $raw 2>&1
	l=$(grep '^KSB ' $raw | tail -n1)
	if [ -z "$l" ]; then
		why=$(grep -v '^#' $raw | head -n1)
		res unavail tool=perf-ftrace target=$target why="$(enc "${why:-no output}")"
		skip "perf ftrace latency $target" "$(head -n3 $raw)"
		continue
	fi
	res alt tool=perf-ftrace target=$target kind=$([ $target = empty ] && echo empty || echo open) \
		ops=$ops min=$(ksb_field "$l" min) median=$(ksb_field "$l" median) \
		t=$(ksb_field "$l" t) raw=${raw##*/}
	ok "perf ftrace latency $target"
done
