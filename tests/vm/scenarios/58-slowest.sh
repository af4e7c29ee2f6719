# SPDX-License-Identifier: GPL-2.0
# trace NAME slowest K: the K slowest calls kept, with their stacks, on
# every backend.  kstats_target's "callers" file calls ks_target_site()
# from three sites (kt_site_a N x 20 us, kt_site_b 2N x 80 us, kt_site_c
# 3N x 320 us) and once from kt_site_slow (5 ms): the slow call comes
# first, from kt_site_slow, by the writing shell, with a stack that names
# its caller and the debugfs write.  ks_target_irq() takes one interrupt
# in each call (an irq_work's self-IPI): each is counted interrupted; a
# sleep switches.
# reset empties the table; bad values are refused.
. /ks/lib.sh

T=$KS_TDIR
load_modules || exit 0
set_backends

# slow_field NODE RANK KEY: KEY's value on NODE's "# slow RANK" line.
slow_field() {
	awk -v r="$2" -v key="$3" '
		$1 == "#" && $2 == "slow" && $3 == r {
			for (i = 4; i < NF; i++) if ($i == key) { print $(i + 1); found = 1; exit }
		}
		END { exit !found }' "$KS_DIR/$1"
}

# slow_caller NODE RANK: the caller of the call of RANK (the rest of its line).
slow_caller() {
	awk -v r="$2" '$1 == "#" && $2 == "slow" && $3 == r {
			for (i = 4; i < NF; i++) if ($i == "caller") break
			s = $(i + 1); for (j = i + 2; j <= NF; j++) s = s " " $j
			print s; exit
		}' "$KS_DIR/$1"
}

# stack NODE RANK: the frames of the call of RANK, one per line.
stack() {
	awk -v r="$2" '$1 == "#" && $2 == "stack" && $3 == r { print $4 }' "$KS_DIR/$1"
}

# slow_rank NODE FUNCTION: the rank of the first kept call from FUNCTION.
slow_rank() {
	awk -v fn="$2" '$1 == "#" && $2 == "slow" {
			for (i = 4; i < NF; i++) if ($i == "caller") break
			if (index($(i + 1), fn "+") == 1) { print $3; exit }
		}' "$KS_DIR/$1"
}

slow_n() {
	grep -c '^# slow ' "$KS_DIR/$1"
}

# disturbed_n NODE: the calls in NODE's DISTURBED rows (its disturbed
# calls' histogram, kept apart).
disturbed_n() {
	awk '$1 == "#" && $2 == "slot" && $4 == "DISTURBED" { n += $7 } END { print n + 0 }' "$KS_DIR/$1"
}

N=10
SLOW=5000	# us
rt=$(uname -v | grep -o PREEMPT_RT)
for b in $backends; do
	check "$b: trace ks_target_site slowest 4" ctl "trace ks_target_site via $b slowest 4"
	check "$b: slowest=4 in the head line" '[ "$(node_field ks_target_site slowest)" = 4 ]'
	expect_eq "$b: none kept before a call" "$(slow_n ks_target_site)" 0
	echo "$N $SLOW" > $T/callers
	expect_eq "$b: samples: 6N + 1" "$(node_field ks_target_site samples)" $((6 * N + 1))
	expect_eq "$b: 4 calls kept" "$(slow_n ks_target_site)" 4
	diag "$(grep -E '^# (kstats|samples|disturbed|slow|stack) ' $KS_DIR/ks_target_site)"
	diag "$(kstats slowest ks_target_site)"
	# the host may stall the guest inside any call (a loaded machine
	# under TCG): the 5 ms call is kept, not always first
	r=$(slow_rank ks_target_site kt_site_slow)
	check "$b: kt_site_slow's call is kept (rank $r)" '[ -n "$r" ]'
	r=${r:-0}
	t=$(slow_field ks_target_site "$r" time)
	expect_range "$b: it took its 5 ms, or more (the host) ($t)" "$t" 4375000 1000000000
	c=$(slow_caller ks_target_site "$r")
	check "$b: its caller reads FUNCTION+0xOFF/0xSIZE [MODULE] ($c)" \
		"echo '$c' | grep -qE '^kt_site_slow\+0x[0-9a-f]+/0x[0-9a-f]+ \[kstats_target\]\$'"
	expect_eq "$b: by the writing shell (pid $$)" "$(slow_field ks_target_site "$r" pid)" $$
	by=$(slow_field ks_target_site "$r" by)
	check "$b: how it went is one of -, interrupted, switched ($by)" \
		"[ '$by' = - ] || [ '$by' = interrupted ] || [ '$by' = switched ]"
	d=$(node_field ks_target_site disturbed)
	expect_range "$b: disturbed ($d): at most the samples" "$d" 0 $((6 * N + 1))
	expect_eq "$b: the DISTURBED rows hold the $d disturbed calls" "$(disturbed_n ks_target_site)" "$d"
	s0=$(stack ks_target_site "$r" | head -n 1)
	check "$b: its stack starts at its caller ($s0)" \
		"echo '$s0' | grep -q '^kt_site_slow+'"
	check "$b: its stack holds the debugfs write" \
		"stack ks_target_site $r | grep -q '^kt_write+'"
	frames=$(stack ks_target_site "$r" | wc -l)
	expect_range "$b: 2 to 16 frames ($frames)" "$frames" 2 16
	# "at" is the kernel log's clock: before a line logged after it
	at=$(slow_field ks_target_site "$r" at)
	echo "ks-58-mark-$b" > /dev/kmsg
	mark=$(dmesg | sed -n "s/^\[ *\([0-9]*\)\.\([0-9]*\)\] ks-58-mark-$b\$/\1\2/p" | tail -n 1)
	expect_range "$b: it ended (at $at ns) before a log line after it (${mark}000 ns)" \
		"$((at / 1000))" 1 "${mark:-0}"
	# the slowest first, the node's max to a slot (its text clamps it)
	t0=$(slow_field ks_target_site 0 time)
	mx=$(node_field ks_target_site max)
	expect_range "$b: the slowest ($t0) is the node's max ($mx) to a slot" \
		"$t0" $((mx - mx / 8)) $((mx + mx / 4))
	prev=$t0
	for r in 1 2 3; do
		tr=$(slow_field ks_target_site $r time)
		expect_range "$b: rank $r: at least a kt_site_c call, at most rank $((r - 1)) ($tr)" \
			"$tr" 280000 "$prev"
		check "$b: rank $r: from a kt_site_" "slow_caller ks_target_site $r | grep -q '^kt_site_'"
		prev=$tr
	done
	check "$b: kstats check reads the node (slow lines included)" kstats check ks_target_site
	expect_eq "$b: kstats slowest: a row and its stack per call" \
		"$(kstats slowest ks_target_site | awk '$1 ~ /^[0-9]+$/ && NF >= 6 { n++ } END { print n + 0 }')" 4
	check "$b: kstats slowest: the 5 ms call's stack from kt_site_slow" \
		"kstats slowest ks_target_site | grep -q '^    kt_site_slow+'"
	check "$b: kstats save keeps them" "kstats save ks_target_site -o /tmp/slow.json"
	expect_eq "$b: the snapshot's table is the node's" \
		"$(kstats slowest -f /tmp/slow.json | tail -n +2)" "$(kstats slowest -f $KS_DIR/ks_target_site | tail -n +2)"
	check "$b: reset" 'echo reset > $KS_DIR/ks_target_site'
	expect_eq "$b: after reset none kept" "$(slow_n ks_target_site)" 0
	expect_eq "$b: after reset none disturbed" "$(node_field ks_target_site disturbed)" 0
	expect_eq "$b: after reset no DISTURBED row" "$(disturbed_n ks_target_site)" 0
	echo "$N" > $T/callers
	check "$b: after reset the slowest is one of a, b, c's, not kt_site_slow's" \
		"slow_caller ks_target_site 0 | grep -q '^kt_site_[abc]+'"
	check "$b: remove" ctl "remove ks_target_site"

	# an interrupt inside each call: every one disturbed, interrupted
	check "$b: trace ks_target_irq slowest 4" ctl "trace ks_target_irq via $b slowest 4"
	echo 6 > $T/irq
	expect_eq "$b: 6 calls, each with its interrupt: 6 disturbed" \
		"$(node_field ks_target_irq disturbed)" 6
	if [ "$rt" ]; then
		# PREEMPT_RT: what the interrupt wakes (irq_work's and the
		# timers' threads) may preempt the call before it ends
		i=$(node_field ks_target_irq interrupted)
		expect_range "$b: ... interrupted, or preempted after ($i interrupted)" "$i" 1 6
	else
		expect_eq "$b: ... all interrupted" "$(node_field ks_target_irq interrupted)" 6
	fi
	expect_eq "$b: ... all 6 in the DISTURBED rows" "$(disturbed_n ks_target_irq)" 6
	check "$b: kstats save keeps them apart" "kstats save ks_target_irq -o /tmp/irq.json"
	expect_eq "$b: compare --undisturbed leaves the 6 out of each side" \
		"$(kstats compare /tmp/irq.json /tmp/irq.json --undisturbed |
			grep -c 'ks_target_irq in /tmp/irq.json: 6 disturbed calls left out')" 2
	by=$(awk '$2 == "slow" { for (i = 4; i < NF; i++) if ($i == "by") print $(i + 1) }' \
		$KS_DIR/ks_target_irq | sort -u | tr '\n' ' ')
	if [ "$rt" ]; then
		check "$b: the 4 kept: interrupted or switched ($by)" \
			"echo '$by' | grep -qE '^(interrupted )?(switched )?\$'"
	else
		expect_eq "$b: the 4 kept: interrupted" "$by" "interrupted "
	fi
	check "$b: remove" ctl "remove ks_target_irq"

	# a sleep leaves the CPU: switched
	check "$b: trace ks_target_sleep slowest 1" ctl "trace ks_target_sleep via $b slowest 1"
	echo "1 20" > $T/sleep
	expect_eq "$b: the sleeping call: switched" "$(slow_field ks_target_sleep 0 by)" switched
	expect_eq "$b: one switched" "$(node_field ks_target_sleep switched)" 1
	expect_eq "$b: ... in the DISTURBED rows" "$(disturbed_n ks_target_sleep)" 1
	check "$b: remove" ctl "remove ks_target_sleep"

	# many short calls, most undisturbed; K kept, each a real call
	check "$b: trace ks_target_empty slowest 64 callers 2" \
		ctl "trace ks_target_empty via $b slowest 64 callers 2"
	echo 2000 > $T/empty
	expect_eq "$b: 64 kept of 2000" "$(slow_n ks_target_empty)" 64
	d=$(node_field ks_target_empty disturbed)
	expect_range "$b: most of 2000 empty calls undisturbed ($d disturbed)" "$d" 0 999
	check "$b: every one from kt_write" \
		"[ \"\$(awk '\$2 == \"slow\"' $KS_DIR/ks_target_empty | grep -c ' caller kt_write+')\" = 64 ]"
	check "$b: remove" ctl "remove ks_target_empty"
done

# recursion: kept calls of every depth; a glob's nodes each keep theirs
check "trace ks_target_recurse slowest 8" ctl "trace ks_target_recurse slowest 8"
echo "5 4" > $T/recurse
expect_eq "recursion: 8 of 20 kept" "$(slow_n ks_target_recurse)" 8
check "recursion: callers are kt_write or itself" \
	"! awk '\$2 == \"slow\"' $KS_DIR/ks_target_recurse | grep -v -e ' caller kt_write+' -e ' caller ks_target_recurse+'"
check "remove ks_target_recurse" ctl "remove ks_target_recurse"
check "trace kt_site_* slowest 2" ctl "trace kt_site_* slowest 2"
echo "3 1000" > $T/callers
for s in a b c slow; do
	expect_eq "glob: kt_site_$s keeps its one call" "$(slow_n kt_site_$s)" 1
done
check "remove kt_site_*" ctl "remove kt_site_*"

# bad values: refused, with the reason in the log
for v in 0 65 -1 x 99999999999; do
	expect_errno "slowest $v -> EINVAL" EINVAL ctl "trace ks_target_site slowest $v"
	check "slowest $v: the log says why" "dmesg | tail -n 2 | grep -q 'bad value for slowest: not in 1..64'"
done
expect_errno "slowest twice -> EINVAL" EINVAL ctl "trace ks_target_site slowest 2 slowest 2"
expect_errno "a section with slowest -> EINVAL" EINVAL \
	ctl "trace sect start ks_target_mark_a end ks_target_mark_b slowest 2"
check "the log says why" "dmesg | tail -n 2 | grep -q 'slowest keeps calls of a function'"
check "no node left" '[ "$(grep -vc "^#" $KS_CTL)" = 0 ]'
unload_modules
