#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/kstats-ab on every kernel scripts/kernels.sh lists (6.1, 6.12,
# 7.x): the same trace commands and workload on each, checked against what
# is known.  ks_target_empty runs exactly N times per workload run on every
# kernel; should_failslab exists on 6.1 only (compiled out of Debian's 6.12
# and 7.x), and must be reported as absent there, never as zero.  TAP.
# The figures come from the snapshots (plots/kstats_snapshot.py) and the
# verdicts the report writes (verdicts.json, tools/ab/verdicts.py).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/kernels.sh"
out=${KS_AB_TEST_OUT:-$top/tests/ab/out}
N=3000
TAP_PREFIX="ab: "
. "$top/tests/tap.sh"

# samples FILE: the snapshot's sample count.
samples() { /usr/bin/python3 "$top/plots/kstats_snapshot.py" "$1" samples 2>/dev/null; }
# verdict FUNCTION KERNEL FIELD [FORMAT]: one field of the report's verdicts.
verdict() { /usr/bin/python3 "$top/tools/ab/verdicts.py" "$out" "$@"; }

mapfile -t kv < <(ks_kernels)
[ ${#kv[@]} -ge 2 ] || { notok "at least two kernels" "found: ${kv[*]}"; tap_end; exit 1; }
specs=()
for k in "${kv[@]}"; do
	l=${k%%-*}	# 6.1.0, 6.12.95+deb12, 7.3.4+deb13
	l=${l%%+*}
	specs+=("$l=$k")
done
# KS_AB_TEST_REUSE=1 checks the last run's folder again without running.
if [ "${KS_AB_TEST_REUSE:-0}" = 1 ] && [ -f "$out/report.md" ]; then
	rc=0
else
	rm -rf "$out"
	"$top/tools/kstats-ab" -o "$out" -r 2 --target -n $N -t "ks_target_empty" -t "should_failslab" \
		-w "echo $N > /sys/kernel/debug/kstats_target/empty" "${specs[@]}" > "$out.log" 2>&1
	rc=$?
fi
expect "kstats-ab exit status" $rc 0
[ $rc = 0 ] || sed 's/^/#   /' "$out.log" | tail -n 30

for s in "${specs[@]}"; do
	l=${s%%=*} k=${s#*=}
	for r in 1 2; do
		f=$out/$l/ks_target_empty.r$r.json
		expect "$l: run $r: ks_target_empty samples" "$(samples "$f")" $N
	done
	expect "$l: report: ks_target_empty calls per op" \
		"$(verdict ks_target_empty "$l" calls_per_op %.2f)" 1.00
	case $k in
	6.1.*)	expect "$l: should_failslab measured" "$(verdict should_failslab "$l" status)" measured ;;
	*)	expect "$l: should_failslab reported absent" "$(verdict should_failslab "$l" status)" absent ;;
	esac
done
for f in ks_target_empty-compare.md ks_target_empty-cdf.png ks_target_empty-pct.png report.md verdicts.json; do
	if [ -s "$out/$f" ]; then ok "wrote $f"; else notok "wrote $f"; fi
done
# Same code, same count: the compare table has one row per kernel, with
# the same count.
counts=$(grep -E '^\| [0-9.]+ \| [0-9]+ \|' "$out/ks_target_empty-compare.md" | awk -F'|' '{ gsub(/ /, "", $3); print $3 }' | sort -u)
expect "compare: one count, $N, on every kernel" "$counts" $N
tap_end
