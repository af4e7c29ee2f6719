#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/ab/kstats-ab on every kernel scripts/kernels.sh lists (6.1, 6.12,
# 7.x): the same trace commands and workload on each, checked against what
# is known.  ks_target_empty runs exactly N times per workload run on every
# kernel; should_failslab exists on 6.1 only (compiled out of Debian's 6.12
# and 7.x), and must be reported as absent there, never as zero.  Then
# A/B by glob on 6.12 against itself: the target module's kt_gen_0[0-3]*
# (kt_gen_I called I + 1 times a run) and kt_gen_slow_* (spinning
# slow_ns << K): "again" must find every one of them not measurable,
# "slow" (slow_ns doubled) exactly the four slow ones worse, by about
# 100%, ranked first.  TAP.  The figures come from the snapshots
# (plots/kstats_snapshot.py) and the verdicts the report writes
# (verdicts.json, tools/ab/verdicts.py).  Last, the whole kernel ('*')
# on 6.12 against itself, ranked by total time.  KS_AB_TEST_PART=kernels,
# glob or whole runs one part.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/kernels.sh"
out=${KS_AB_TEST_OUT:-$top/tests/ab/out}
N=3000
TAP_PREFIX="ab: "
. "$top/vm/tap.sh"

# samples FILE: the snapshot's sample count.
samples() { /usr/bin/python3 "$top/plots/kstats_snapshot.py" "$1" samples 2>/dev/null; }
# verdict FUNCTION KERNEL FIELD [FORMAT]: one field of the report's verdicts.
verdict() { /usr/bin/python3 "$top/tools/ab/verdicts.py" "$out" "$@"; }

part=${KS_AB_TEST_PART:-all}
mapfile -t kv < <(ks_kernels)
[ ${#kv[@]} -ge 2 ] || { notok "at least two kernels" "found: ${kv[*]}"; tap_end; exit 1; }
specs=()
for k in "${kv[@]}"; do
	l=${k%%-*}	# 6.1.0, 6.12.95+deb12, 7.3.4+deb13
	l=${l%%+*}
	specs+=("$l=$k")
done
# ab_run DIR ARGS...: tools/ab/kstats-ab -o DIR ARGS... (its output in
# DIR.log), its status in rc.  KS_AB_TEST_REUSE=1 checks the last run's
# folder again without running.
ab_run() {
	local g=$1
	shift
	if [ "${KS_AB_TEST_REUSE:-0}" = 1 ] && [ -f "$g/report.md" ]; then
		rc=0
		return
	fi
	rm -rf "$g"
	"$top/tools/ab/kstats-ab" -o "$g" "$@" > "$g.log" 2>&1
	rc=$?
}
# The glob and whole parts' workload: slow_ns doubled on the kernel
# labelled slow, then the target's generated family called once.
GEN_WL='if [ "$AB_LABEL" = slow ]; then echo 40000 > /sys/module/kstats_target/parameters/slow_ns; fi'
GEN_WL="$GEN_WL; echo 1 > /sys/kernel/debug/kstats_target/gen"
k612() { printf '%s\n' "${kv[@]}" | grep -m1 '^6\.12\.'; }

kernels_part() {
	ab_run "$out" -r 2 --target -n $N -t "ks_target_empty" -t "should_failslab" \
		-w "echo $N > /sys/kernel/debug/kstats_target/empty" "${specs[@]}"
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
}

# The glob half.  GEN: the functions of kt_gen_0[0-3]* ftrace can trace on
# 6.12 with this module: 62 of the 64 (kt_gen_001 and kt_gen_002 are not
# in available_filter_functions there; 45-glob allows for such gaps).
GEN=62
glob_part() {
	local g=$out-glob k
	k=$(k612)
	[ -n "$k" ] || { skip "A/B by glob" "no 6.12 kernel"; return; }
	ab_run "$g" -r 3 --target --top 5 -t 'kt_gen_0[0-3]* bits 3' -t 'kt_gen_slow_* bits 5' \
		-w "$GEN_WL" same="$k" again="$k" slow="$k"
	expect "glob: kstats-ab exit status" $rc 0
	[ $rc = 0 ] || sed 's/^/#   /' "$g.log" | tail -n 30
	for l in same again slow; do
		expect "glob: $l: kt_gen_0[0-3]* attached" \
			"$(grep '^glob.1.last=' "$g/$l/ab.facts" | cut -d= -f2-)" \
			"matched $GEN attached $GEN refused 0 direct $GEN"
		expect "glob: $l: kt_gen_slow_* attached" \
			"$(grep '^glob.2.last=' "$g/$l/ab.facts" | cut -d= -f2-)" \
			"matched 4 attached 4 refused 0 direct 4"
		expect "glob: $l: 3 runs, one file of every node each" "$(ls "$g/$l/all" | tr '\n' ' ')" \
			"r1.json r2.json r3.json "
	done
	# rank name verdict change% count-base count-new, per function
	python3 "$top/tools/ab/verdicts.py" "$g" --changed again > "$g.again"
	python3 "$top/tools/ab/verdicts.py" "$g" --changed slow > "$g.slow"
	expect "glob: again: $((GEN + 4)) functions ranked" "$(wc -l < "$g.again")" $((GEN + 4))
	expect "glob: again: every one not measurable" \
		"$(awk '$3 != "not_measurable"' "$g.again")" ""
	bad=$(awk '$2 ~ /^kt_gen_0/ { want = ("0x" substr($2, 8)) + 1
		if ($5 != want || $6 != want) print $2, $5, $6, "want", want }
		$2 ~ /^kt_gen_slow_/ && ($5 != 1 || $6 != 1) { print $2, $5, $6, "want 1" }' "$g.slow")
	expect "glob: slow: every count exact per run (kt_gen_I: I + 1, slow: 1)" "$bad" ""
	expect "glob: slow: the four slow ones first, worse" \
		"$(head -n 4 "$g.slow" | awk '{ print $3 }' | sort | uniq -c | awk '{ print $1, $2 }')" "4 worse"
	expect "glob: slow: ranks 1-4 are kt_gen_slow_0..3" \
		"$(head -n 4 "$g.slow" | awk '{ print $2 }' | sort | tr '\n' ' ')" \
		"kt_gen_slow_0 kt_gen_slow_1 kt_gen_slow_2 kt_gen_slow_3 "
	# the spin doubled: +100% but for the call's own cost (fixed, so
	# less) and what lands in the longer spin (an interrupt: more)
	expect "glob: slow: each +90% to +110% (the spin doubled)" \
		"$(head -n 4 "$g.slow" | awk '$4 < 90 || $4 > 110')" ""
	expect "glob: slow: the $GEN others not measurable" \
		"$(tail -n +5 "$g.slow" | awk '$3 == "not_measurable"' | wc -l)" $GEN
	expect "glob: report opens with what changed" \
		"$(grep -m2 '^## ' "$g/report.md" | tr '\n' '|')" \
		"## Kernels|## What changed: again against same|"
	for f in kt_gen_slow_3-cdf.png kt_gen_slow_0-pct.png kt_gen_slow_3-compare.md \
		changed-slow.md changed-slow.json same/kt_gen_slow_3.r3.json; do
		if [ -s "$g/$f" ]; then ok "glob: wrote $f"; else notok "glob: wrote $f"; fi
	done
	expect "glob: kt_gen_slow_3: the run split out of r3 has 1 call" \
		"$(samples "$g/slow/kt_gen_slow_3.r3.json")" 1
}

# The whole kernel: '*' on 6.12 against itself, slow_ns doubled on "slow",
# each run keeping the functions it called (--called), ranked by the
# change of total time per run (--rank total).  The four slow ones are
# +100% and in the order of their spins (slow_3 spins 8 x slow_0);
# ks_target_delay(), which spins for each, changes by their sum; kt_gen_I is called I + 1 times a run among everything else
# traced.  On the direct backend: the ~2,000 functions it refuses would
# go to fprobe one registration each, minutes under QEMU (docs/ab.md).
whole_part() {
	local g=$out-whole k last att
	k=$(k612)
	[ -n "$k" ] || { skip "A/B of the whole kernel" "no 6.12 kernel"; return; }
	ab_run "$g" -r 2 --target --called --rank total --top 3 -t '* via direct bits 3' \
		-w "$GEN_WL" same="$k" slow="$k"
	expect "whole: kstats-ab exit status" $rc 0
	[ $rc = 0 ] || sed 's/^/#   /' "$g.log" | tail -n 30
	for l in same slow; do
		last=$(grep '^glob.1.last=' "$g/$l/ab.facts" | cut -d= -f2-)
		att=$(echo "$last" | awk '{ print $4 }')
		t="whole: $l: '*' attached 30,000 functions or more in one write"
		if [ "${att:-0}" -ge 30000 ]; then ok "$t ($last)"; else notok "$t" "$last"; fi
		expect "whole: $l: 2 runs, one file of the called nodes each" "$(ls "$g/$l/all" | tr '\n' ' ')" \
			"r1.json r2.json "
	done
	python3 "$top/tools/ab/verdicts.py" "$g" --changed slow > "$g.slow"
	n=$(wc -l < "$g.slow")
	t="whole: slow: the functions called (300 or more, fewer than attached) ranked"
	if [ "$n" -ge 300 ] && [ "$n" -lt "${att:-0}" ]; then ok "$t ($n of ${att:-0})"; else notok "$t" "$n of ${att:-0}"; fi
	bad=$(awk '$2 ~ /^kt_gen_0[0-3][0-9a-f]$/ { want = ("0x" substr($2, 8)) + 1
		if ($5 != want || $6 != want) print $2, $5, $6, "want", want }' "$g.slow")
	expect "whole: slow: kt_gen_0[0-3]*: each count exact per run among everything traced" "$bad" ""
	expect "whole: slow: kt_gen_0[0-3]*: $GEN of them" \
		"$(awk '$2 ~ /^kt_gen_0[0-3][0-9a-f]$/' "$g.slow" | wc -l)" $GEN
	expect "whole: slow: the slow ones ranked by their spin: slow_3, slow_2, slow_1, slow_0" \
		"$(awk '$2 ~ /^kt_gen_slow_/ { printf "%s ", $2 }' "$g.slow")" \
		"kt_gen_slow_3 kt_gen_slow_2 kt_gen_slow_1 kt_gen_slow_0 "
	# p50: one call a run, and a tick inside one run's spin of 160,000
	# instructions adds 20,000 to that run's total (everything traced)
	expect "whole: slow: each slow one's p50 +90% to +110% (the spin doubled)" \
		"$(awk '$2 ~ /^kt_gen_slow_/ && ($4 < 90 || $4 > 110) { print $2, $4 }' "$g.slow")" ""
	# ks_target_delay() spins for each of them: its total holds theirs
	t="whole: slow: ks_target_delay (what spins for all four): its total per run changed by their sum, within 5%"
	x=$(awk '$2 ~ /^kt_gen_slow_/ { s += $8 - $7 } $2 == "ks_target_delay" { d = $8 - $7; rd = $1 }
		$2 == "kt_gen_slow_3" { r3 = $1 } END { printf "%d %d %d %d", s, d, rd, r3 }' "$g.slow")
	set -- $x
	if [ "$1" -gt 0 ] && [ $(($2 * 100)) -ge $(($1 * 95)) ] && [ $(($2 * 100)) -le $(($1 * 105)) ]; then
		ok "$t (+$2 against +$1; ranks $3 and $4 of slow_3)"
	else
		notok "$t" "sum $1, ks_target_delay +$2 rank $3, slow_3 rank $4" "$(head -n 6 "$g.slow")"
	fi
	expect "whole: report: what changed, ranked by total time" \
		"$(grep -c 'Ranked by the change (largest first) of total time per run' "$g/report.md")" 1
}

case $part in all|kernels) kernels_part ;; esac
case $part in all|glob) glob_part ;; esac
case $part in all|whole) whole_part ;; esac
tap_end
