# SPDX-License-Identifier: GPL-2.0
# What the annotation API's section pair costs (kstats_api_sample.ko, built
# against the same kmod/): N calls of a function whose body is an empty
# KSTATS_SECTION_START/END pair, against N calls of the same function
# without it ("bare").  Disabled: no API node exists, the static key is off
# (two no-op jumps).  Enabled: a node is active and records every pair
# (its samples must then be exact).
. /ks/lib.sh
. /scenarios/bench-lib.sh

N=${N:-100000}
REPS=${REPS:-5}
d=/sys/kernel/debug/kstats_api_sample

if [ ! -f /modules/kstats_api_sample.ko ]; then
	res unavail tool=api why=kstats_api_sample.ko%20not%20staged
	skip "section pair" "kstats_api_sample.ko not staged"
	exit 0
fi
check "insmod kstats_api_sample.ko" insmod /modules/kstats_api_sample.ko || exit 0
# warm-up operations count too: ks-bench -w 2 (KSB_OPTS) plus REPS timed
calls=$(( (REPS + 2) * N ))
for state in off on; do
	if [ $state = on ]; then
		check "an active API node" 'echo "kas_bench 3" > '$d/new || break
	fi
	for what in bare empty; do
		l=$(ksb -r "$REPS" write $d/$what "$N") || { fail "api $state $what"; continue; }
		res api state=$state what=$what ops=$N min=$(ksb_field "$l" min) \
			median=$(ksb_field "$l" median) t=$(ksb_field "$l" t)
		ok "api $state: $what"
	done
done
expect_eq "enabled: every pair recorded ($calls)" "$(node_field kas_bench samples)" "$calls"
echo 1 > $d/delete
check "rmmod kstats_api_sample" rmmod kstats_api_sample
