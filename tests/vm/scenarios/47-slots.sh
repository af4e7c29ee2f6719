# SPDX-License-Identifier: GPL-2.0
# Slots only for CPUs that record (kmod/ks_slots.c), on 2 vCPUs:
#  - a node keeps a spare for each online CPU without slots, and slots on
#    none until a CPU records and takes one; 300 nodes nobody calls keep
#    two blocks each, to the byte of the formula;
#  - counts stay exact across the claims; a CPU that comes online finds
#    its spare ready (the hotplug callback made it before the CPU ran), so
#    its first calls count; only past mem_max are they missed
#    (unslotted), every call landing in samples or in missed;
#  - the memory line agrees with the formula of ks_slots.c.
# ks-lockdown: again (vm/runner.sh: once more under lockdown, through /proc)
. /ks/lib.sh

T=$KS_TDIR
P=/sys/module/kstats/parameters
load_modules || exit 0

# mem NODE: "BYTES CPUS SPARES" from its "# memory" line
mem() {
	awk '$2 == "memory" { sub(/,/, "", $8); print $3, $7, $9; exit }' "$KS_DIR/$1"
}

# block NODE: bytes of one CPU's slots, 16 * kstats_nr_slots(bits, buckets)
block() {
	_b=$(node_field "$1" bits)
	_k=$(node_field "$1" buckets)
	echo $((16 * ((((_k + 1) << _b)) + 1)))
}

ncpu=$(grep -c ^processor /proc/cpuinfo)
check "2 vCPUs online" '[ "$ncpu" = 2 ] && [ "$(cat /sys/devices/system/cpu/online)" = 0-1 ]'
# ---- one node: lazy slots, claims, exact counts ----
check "trace ks_target_empty" ctl "trace ks_target_empty"
set -- $(mem ks_target_empty)
expect_eq "new node: slots on 0 CPUs, 2 spares" "$2 $3" "0 2"
b0=$1
blk=$(block ks_target_empty)
taskset 2 sh -c "echo 1000 > $T/empty"
set -- $(mem ks_target_empty)
expect_eq "CPU 1 recorded: slots on 1 CPU, 1 spare" "$2 $3" "1 1"
expect_eq "the same bytes: the spare became CPU 1's" "$1" "$b0"
expect_eq "1000 calls" "$(node_field ks_target_empty samples)" 1000
expect_eq "rows only on CPU 1" \
	"$(awk '$1 == "slot" && $3 == "CPU" { print $4 }' $KS_DIR/ks_target_empty | sort -u)" 1
taskset 1 sh -c "echo 500 > $T/empty"
expect_eq "CPU 0 too: 1500 calls" "$(node_field ks_target_empty samples)" 1500
expect_eq "missed 0" "$(node_field ks_target_empty missed)" 0
check "every online CPU has slots: no spare kept" \
	poll 300 '[ "$(mem ks_target_empty | cut -d" " -f2,3)" = "2 0" ]'
expect_eq "bytes: both spares are slots now, none allocated" \
	"$(mem ks_target_empty | cut -d' ' -f1)" "$b0"
check "kstats check ks_target_empty" kstats check ks_target_empty
check "remove ks_target_empty" ctl "remove ks_target_empty"

# ---- 300 nodes nobody calls: a spare for each online CPU ----
check "trace kstats_target:kt_gen_0* and _1[0-3]*" \
	ctl "trace kstats_target:kt_gen_0* bits 3"
ctl "trace kstats_target:kt_gen_1[0-3]* bits 3"
n=$(grep -c "^kstats_target:kt_gen_" $KS_CTL)
check "$n nodes, about 320 (a few are tail calls)" '[ "$n" -ge 300 ] && [ "$n" -le 320 ]'
# every node's "BYTES CPUS SPARES", counted: one line if all are alike
all_mem() {
	awk '$2 == "memory" { sub(/,/, "", $8); print $3, $7, $9 }' \
		$KS_DIR/kstats_target:kt_gen_* | sort | uniq -c | awk '{ print $1, $2, $3, $4 }'
}
gblk=$(block kstats_target:kt_gen_000)
expect_eq "every node has slots on 0 CPUs, 2 spares" "$(all_mem | cut -d' ' -f1,3,4)" "$n 0 2"
expect_eq "each takes the formula's bytes: the node, its headers, two blocks" \
	"$(all_mem | cut -d' ' -f2)" $((b0 - 2 * blk + 2 * gblk))
taskset 1 sh -c "echo 1 > $T/gen"
bad=$(awk '$1 ~ /^kstats_target:kt_gen_[0-9a-f]+$/ {
	want = ("0x" substr($1, length($1) - 2)) + 1
	if ($4 != want || $5 != 0) print $1, $4, $5, "want", want }' $KS_CTL | head -5)
expect_eq "every count exact after the claims (kt_gen_I: I + 1, missed 0)" "$bad" ""
check "remove kstats_target:kt_gen_*" ctl "remove kstats_target:kt_gen_*"

# ---- a CPU that comes online finds its spare; past mem_max it misses ----
C1=/sys/devices/system/cpu/cpu1/online
M=/sys/module/kstats/parameters/mem_max
if [ -w $C1 ]; then
	check "CPU 1 offline" sh -c "echo 0 > $C1"
	check "trace ks_target_empty (1 CPU online)" ctl "trace ks_target_empty"
	expect_eq "1 spare" "$(mem ks_target_empty | cut -d' ' -f2,3)" "0 1"
	taskset 1 sh -c "echo 300 > $T/empty"
	check "CPU 0 took it; no spare while every online CPU has slots" \
		poll 300 '[ "$(mem ks_target_empty | cut -d" " -f2,3)" = "1 0" ]'
	check "CPU 1 online" sh -c "echo 1 > $C1"
	expect_eq "a spare for CPU 1 before it ran anything" \
		"$(mem ks_target_empty | cut -d' ' -f2,3)" "1 1"
	taskset 2 sh -c "echo 700 > $T/empty"
	expect_eq "CPU 1's first calls counted: 1000" "$(node_field ks_target_empty samples)" 1000
	expect_eq "missed 0" "$(node_field ks_target_empty missed)" 0
	expect_eq "slots on both CPUs" "$(mem ks_target_empty | cut -d' ' -f2)" 2
	check "remove ks_target_empty" ctl "remove ks_target_empty"

	check "CPU 1 offline" sh -c "echo 0 > $C1"
	check "trace ks_target_empty (1 CPU online)" ctl "trace ks_target_empty"
	taskset 1 sh -c "echo 300 > $T/empty"
	check "CPU 0 took the spare" \
		poll 300 '[ "$(mem ks_target_empty | cut -d" " -f2,3)" = "1 0" ]'
	echo 0 > $M
	check "CPU 1 online, mem_max 0" sh -c "echo 1 > $C1"
	expect_eq "no spare past mem_max" "$(mem ks_target_empty | cut -d' ' -f2,3)" "1 0"
	check "the log says so" 'dmesg | tail -n 5 | grep -q "ks_target_empty: mem_max (0 MiB) reached"'
	taskset 2 sh -c "echo 700 > $T/empty"
	s=$(node_field ks_target_empty samples)
	m=$(node_field ks_target_empty missed)
	u=$(awk '$2 == "unslotted" { print $3 + 0 }' $KS_DIR/ks_target_empty)
	diag "samples $s missed $m unslotted $u"
	expect_eq "every call in samples or missed: 1000" $((s + m)) 1000
	check "CPU 1's calls missed, and said so" '[ "$m" = 700 ] && [ "$u" = "$m" ]'
	echo 256 > $M
	taskset 2 sh -c "echo 1 > $T/empty"
	check "CPU 1 asked for a spare, and has it or its slots" \
		poll 300 '[ "$(mem ks_target_empty | cut -d" " -f2,3)" != "1 0" ]'
	s=$(node_field ks_target_empty samples)
	taskset 2 sh -c "echo 100 > $T/empty"
	expect_eq "then records again: +100" "$(node_field ks_target_empty samples)" $((s + 100))
	expect_eq "slots on both CPUs" "$(mem ks_target_empty | cut -d' ' -f2)" 2
	check "kstats check ks_target_empty" kstats check ks_target_empty
	check "remove ks_target_empty" ctl "remove ks_target_empty"
else
	skip "a CPU that comes online" "no CPU hotplug here"
fi
unload_modules
