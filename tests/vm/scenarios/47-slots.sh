# SPDX-License-Identifier: GPL-2.0
# Slots only for CPUs that record (kmod/ks_slots.c), on 2 vCPUs:
#  - the pool of a size keeps a spare on each online CPU for each of its
#    nodes without slots there (within spares_max), and a node has slots
#    on no CPU until one records and takes a spare; 300 nodes nobody calls
#    take the node and its per-CPU headers each, no block of slots, to
#    the byte of the formula;
#  - counts stay exact across the claims, all 300 starting on one CPU at
#    once; with spares_max 0 (one spare a CPU) they lose only first calls
#    (every call in samples or missed), and the nodes that took slots
#    count exactly after; a CPU that comes online finds its spare ready
#    (the hotplug callback made it before the CPU ran), so its first calls
#    count; only past mem_max are they missed (unslotted);
#  - the memory line agrees with the formula of ks_slots.c.
. /ks/lib.sh

T=$KS_TDIR
P=/sys/module/kstats/parameters
load_modules || exit 0

# mem NODE: "BYTES CPUS SPARES USERS" from its "# memory" line ("# memory
# B bytes: slots on C CPUs, S spares shared by N nodes")
mem() {
	awk '$2 == "memory" { print $3, $7, $9, $13; exit }' "$KS_DIR/$1"
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
expect_eq "new node: slots on 0 CPUs, 2 spares shared by 1 node" "$2 $3 $4" "0 2 1"
b0=$1
blk=$(block ks_target_empty)
taskset 2 sh -c "echo 1000 > $T/empty"
set -- $(mem ks_target_empty)
expect_eq "CPU 1 recorded: slots on 1 CPU, 1 spare" "$2 $3" "1 1"
expect_eq "one block more: the spare became CPU 1's" "$1" "$((b0 + blk))"
expect_eq "1000 calls" "$(node_field ks_target_empty samples)" 1000
expect_eq "rows only on CPU 1" \
	"$(awk '$1 == "slot" && $3 == "CPU" { print $4 }' $KS_DIR/ks_target_empty | sort -u)" 1
taskset 1 sh -c "echo 500 > $T/empty"
expect_eq "CPU 0 too: 1500 calls" "$(node_field ks_target_empty samples)" 1500
expect_eq "missed 0" "$(node_field ks_target_empty missed)" 0
check "every online CPU has slots: no spare kept" \
	poll 300 '[ "$(mem ks_target_empty | cut -d" " -f2,3)" = "2 0" ]'
expect_eq "bytes: the node and its two CPUs' slots" \
	"$(mem ks_target_empty | cut -d' ' -f1)" "$((b0 + 2 * blk))"
check "kstats check ks_target_empty" kstats check ks_target_empty
check "remove ks_target_empty" ctl "remove ks_target_empty"

# ---- 300 nodes nobody calls: no slots, a spare each on each CPU ----
SM=$P/spares_max
# every node's "BYTES CPUS SPARES USERS", counted: one line if all are alike
all_mem() {
	awk '$2 == "memory" { print $3, $7, $9, $13 }' \
		$KS_DIR/kstats_target:kt_gen_* | sort | uniq -c | awk '{ print $1, $2, $3, $4, $5 }'
}
# calls NAME SAMPLES MISSED of every kt_gen_I
gen_counts() { awk '$1 ~ /^kstats_target:kt_gen_[0-9a-f]+$/ { print $1, $4, $5 }' $KS_CTL | sort; }
# round A B [ONLY]: per node, what A -> B added against I + 1 (echo 1 >
# gen calls kt_gen_I I + 1 times): the bad ones, then "missed-nodes N";
# with ONLY (a file of names), those nodes alone, each missing nothing
round() {
	awk -v only="${3:-}" 'FILENAME == only { o[$1] = 1; next }
	FILENAME == ARGV[1] { s[$1] = $2; m[$1] = $3; next }
	only != "" && !($1 in o) { next }
	{
		want = ("0x" substr($1, length($1) - 2)) + 1
		ds = $2 - s[$1]; dm = $3 - m[$1]
		if (ds + dm != want || (only != "" && dm)) print $1, ds, dm, "want", want
		else if (dm) nm++
	} END { print "missed-nodes", nm + 0 }' "$1" "$2" ${3:+"$3"}
}
# one_round: echo 1 > gen on CPU 0, counts before and after in /tmp/gen0, 1
one_round() {
	gen_counts > /tmp/gen0
	taskset 1 sh -c "echo 1 > $T/gen"
	gen_counts > /tmp/gen1
}
trace_gen() {
	ctl "trace kstats_target:kt_gen_0* bits 3" &&
		ctl "trace kstats_target:kt_gen_1[0-3]* bits 3"
}
expect_eq "spares_max: 16 MiB by default" "$(cat $SM)" 16
check "trace kstats_target:kt_gen_0* and _1[0-3]*" trace_gen
n=$(grep -c "^kstats_target:kt_gen_" $KS_CTL)
check "$n nodes, about 320 (a few are tail calls)" '[ "$n" -ge 300 ] && [ "$n" -le 320 ]'
expect_eq "every node: slots on 0 CPUs, $((2 * n)) spares (one each a CPU) shared by all $n" \
	"$(all_mem | cut -d' ' -f1,3-5)" "$n 0 $((2 * n)) $n"
expect_eq "each takes the node and its per-CPU headers: no block of slots" \
	"$(all_mem | cut -d' ' -f2)" "$b0"
one_round
expect_eq "all $n starting at once on CPU 0: every count exact, none missed (kt_gen_I: I + 1)" \
	"$(round /tmp/gen0 /tmp/gen1)" "missed-nodes 0"
check "CPU 0 wants no spare now: $n left, CPU 1's" \
	poll 300 '[ "$(all_mem | cut -d" " -f3,4)" = "1 $n" ]'
check "remove kstats_target:kt_gen_*" ctl "remove kstats_target:kt_gen_*"

# ---- spares_max 0: one spare a CPU; the rest lose their first calls ----
echo 0 > $SM
check "trace them again, spares_max 0" trace_gen
expect_eq "every node: 2 spares (one a CPU, the least) shared by all $n" \
	"$(all_mem | cut -d' ' -f1,3-5)" "$n 0 2 $n"
one_round
r=$(round /tmp/gen0 /tmp/gen1)
expect_eq "every call in samples or missed" "$(echo "$r" | grep -v '^missed-nodes')" ""
nm=$(echo "$r" | sed -n 's/^missed-nodes //p')
diag "nodes that lost first calls while the pool filled again: $nm of $n"
check "some did ($nm), and not the first: at most $((n - 1))" '[ "$nm" -ge 1 ] && [ "$nm" -le $((n - 1)) ]'
for f in $KS_DIR/kstats_target:kt_gen_*; do
	awk -v f="${f##*/}" '$2 == "memory" && $7 == 1 { print f; exit }' "$f"
done > /tmp/slotted
ns=$(wc -l < /tmp/slotted)
cp /tmp/gen1 /tmp/gen2
one_round
bad=$(round /tmp/gen2 /tmp/gen1 /tmp/slotted | grep -v '^missed-nodes' | head -5)
expect_eq "then the $ns nodes with slots on CPU 0 count every call exactly" "$bad" ""
echo 16 > $SM
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
	check "the log says so" 'dmesg | tail -n 5 | grep -q "mem_max (0 MiB) reached: calls on CPUs without slots are missed"'
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
