# SPDX-License-Identifier: GPL-2.0
# Globs: "trace GLOB" makes one node per matching function, with exact
# counts for each; the glob_max limit, the deny list, _last, verbs on
# globs, "remove GLOB", and rmmod with over a thousand nodes attached.
# The target module's family: kt_gen_000..kt_gen_3ff, kt_gen_I called
# I + 1 times (I in hex) per unit written to its "gen" file, and
# kt_gen_slow_0..3, once per unit, spinning 20 us << K.
# ks-lockdown: again (vm/runner.sh: once more under lockdown, through /proc)
. /ks/lib.sh

load_modules || exit 0
T=$KS_TDIR
P=/sys/module/kstats/parameters/glob_max
LAST=$KS_DIR/_last

# nodes NAME-PREFIX: how many nodes _control lists whose name starts so
nodes() {
	awk -v p="$1" 'index($1, p) == 1 { n++ } END { print n + 0 }' "$KS_CTL"
}

# wrong_counts UNITS: the kt_gen_XXX nodes whose samples are not
# UNITS * (0xXXX + 1), one "name samples" per line
wrong_counts() {
	awk -v u="$1" '$1 ~ /^kt_gen_[0-9a-f][0-9a-f][0-9a-f]$/ {
		want = u * (("0x" substr($1, 8)) + 1)
		if ($4 != want) print $1, $4, "want", want
	}' "$KS_CTL"
}
# gen_wrong PREFIX U: wrong_counts U over the nodes of kstats_target
# whose function's name starts with PREFIX, named without the module.
gen_wrong() {
	awk -v p="^kstats_target:$1" '$1 ~ p { sub(/^kstats_target:/, "", $1); print }' "$KS_CTL" > /tmp/ctl.glob
	KS_CTL=/tmp/ctl.glob wrong_counts "$2"
}

expect_eq "glob_max defaults to 1000" "$(cat $P)" 1000
# What ftrace can trace of the family (a few the compiler turns into tail
# calls may be missing): the glob must match exactly these.
mount -t tracefs nodev /sys/kernel/tracing 2> /dev/null
AFF=/sys/kernel/tracing/available_filter_functions
NALL=$(grep -c "^kt_gen_" $AFF)
N3=$(grep -c "^kt_gen_[0-2]" $AFF)
expect_range "ftrace lists the family ($NALL)" "$NALL" 1001 1028

# Over the limit: refused before anything is attached.
expect_errno "$NALL matches > glob_max -> E2BIG" E2BIG ctl "trace kstats_target:kt_gen_* bits 3"
expect_eq "nothing attached" "$(nodes kt_gen_)" 0
diag "$(cat $LAST)"
check "_last gives the count" 'grep -q "^matched $NALL refused all: more than glob_max 1000" $LAST'
echo 100 > $P
expect_errno "$N3 matches > glob_max 100 -> E2BIG" E2BIG ctl "trace kt_gen_[0-2]* bits 3"
echo 1000 > $P

# 768 functions of the module, at once.
check "trace kstats_target:kt_gen_[0-2]*" ctl "trace kstats_target:kt_gen_[0-2]* bits 3"
expect_eq "$N3 nodes" "$(nodes kstats_target:kt_gen_)" $N3
diag "$(grep -v "^#" $LAST)"
by=$(awk '$1 ~ /^kstats_target:kt_gen_/ { print $2 }' "$KS_CTL" | sort -u | tr '\n' ' ')
diag "backends: $by"
check "_last: $N3 matched, $N3 attached, none refused" \
	'grep -q "^matched $N3 attached $N3 refused 0" $LAST'
echo 1 > $T/gen
bad=$(gen_wrong kt_gen_ 1)
expect_eq "every one of the $N3 counts exact (kt_gen_I: I + 1)" "$bad" ""
expect_eq "kt_gen_2ff: 768 calls" "$(node_field kstats_target:kt_gen_2ff samples)" 768
expect_eq "kt_gen_000: 1 call" "$(node_field kstats_target:kt_gen_000 samples)" 1

# Verbs on globs.
check "reset kstats_target:kt_gen_00*" ctl "reset kstats_target:kt_gen_00*"
expect_eq "reset: kt_gen_00f at 0" "$(node_field kstats_target:kt_gen_00f samples)" 0
expect_eq "reset: kt_gen_010 kept 17" "$(node_field kstats_target:kt_gen_010 samples)" 17
check "stop kstats_target:kt_gen_1*" ctl "stop kstats_target:kt_gen_1*"
echo 1 > $T/gen
expect_eq "stopped: kt_gen_1ff kept 512" "$(node_field kstats_target:kt_gen_1ff samples)" 512
expect_eq "running: kt_gen_2ff 2 x 768" "$(node_field kstats_target:kt_gen_2ff samples)" 1536
# Of 768 call sites about one in two hundred shares its home entry in the direct
# backend's table with another (ks_direct.h): those are stopped, and go
# on, by the gate of the entry their search finds, the others by their
# home's.  Every one of them, either way:
bad=$(gen_wrong kt_gen_1 1)
expect_eq "stopped: every kt_gen_1XX kept its count (I + 1)" "$bad" ""
bad=$(gen_wrong kt_gen_2 2)
expect_eq "running: every kt_gen_2XX counted twice (2 (I + 1))" "$bad" ""
expect_errno "remove of a glob matching no node -> ENOENT" ENOENT ctl "remove nosuch_*"
check "remove kstats_target:kt_gen_*" ctl "remove kstats_target:kt_gen_*"
expect_eq "remove GLOB leaves none" "$(nodes kstats_target:kt_gen_)" 0

# The same 768 on fprobe: one fprobe, one registration, the handlers
# finding each node by its function's address; part of them removed while
# the rest go on.
if grep -qw register_fprobe_ips /proc/kallsyms; then
	t0=$(uptime_cs)
	check "trace kstats_target:kt_gen_[0-2]* via fprobe" ctl "trace kstats_target:kt_gen_[0-2]* via fprobe bits 3"
	t1=$(uptime_cs)
	diag "$N3 functions on one fprobe in $((t1 - t0))0 ms"
	check "_last: $N3 matched, $N3 attached on fprobe" \
		'grep -q "^matched $N3 attached $N3 refused 0 fprobe $N3$" $LAST'
	echo 1 > $T/gen
	bad=$(gen_wrong kt_gen_ 1)
	expect_eq "fprobe: every one of the $N3 counts exact (kt_gen_I: I + 1)" "$bad" ""
	check "remove kstats_target:kt_gen_1*" ctl "remove kstats_target:kt_gen_1*"
	expect_eq "fprobe: $((N3 - 256)) left" "$(nodes kstats_target:kt_gen_)" $((N3 - 256))
	echo 1 > $T/gen
	bad=$(gen_wrong 'kt_gen_[02]' 2)
	expect_eq "fprobe: the others counted twice (2 (I + 1)), their fprobe shared with the removed" "$bad" ""
	check "remove kstats_target:kt_gen_*" ctl "remove kstats_target:kt_gen_*"
	expect_eq "fprobe: none left" "$(nodes kstats_target:kt_gen_)" 0
else
	skip "a glob on one fprobe" "no fprobe in this kernel"
fi

# Known delays, by a glob without a module.
check "trace kt_gen_slow_* bits 5" ctl "trace kt_gen_slow_* bits 5"
expect_eq "4 slow nodes" "$(nodes kt_gen_slow_)" 4
echo 3 > $T/gen
for k in 0 1 2 3; do
	d=$((20000 << k))
	expect_eq "kt_gen_slow_$k: 3 calls" "$(node_field kt_gen_slow_$k samples)" 3
	# none faster than its spin, to the slot: the node counts TSC cycles
	# and its text shows ns, each slot of cycles going whole to the slot
	# of ns its middle falls in, and min lies in the first slot shown
	# (159,743 for a 160,000 ns spin, one slot of bits 5 below: 1/32);
	# the fastest of the three within four times it, plus 100 us (TCG
	# runs in real time, and a host running two VMs stretches a 20 us
	# spin to 70)
	lo=$((d - d / 32))
	mn=$(node_field kt_gen_slow_$k min)
	expect_range "kt_gen_slow_$k min ($mn) in [$d - 1/32, 4 x $d + 100us]" "$mn" $lo $((4 * d + 100000))
	expect_range "kt_gen_slow_$k p50 >= $d - 1/32" "$(node_field kt_gen_slow_$k p50)" $lo 100000000
done
check "remove kt_gen_slow_*" ctl "remove kt_gen_slow_*"

# The deny list: refused alone, skipped by a glob, each with its reason.
expect_errno "trace do_exit -> EINVAL" EINVAL ctl "trace do_exit"
check "the log says why" 'dmesg | tail -n 5 | grep -q "do_exit: not traced: it never returns"'
expect_errno "trace make_task_dead -> EINVAL" EINVAL ctl "trace make_task_dead"
expect_errno "a glob of denied functions only -> EINVAL" EINVAL ctl "trace do_exi[t]"
check "_last names do_exit and why" 'grep -q "^refused do_exit: it never returns" $LAST'
expect_errno "a glob that matches nothing -> ENOENT" ENOENT ctl "trace nosuch_fn_*"
expect_errno "a glob section -> EINVAL" EINVAL ctl "trace x_* start ks_target_mark_a end ks_target_mark_b"

# The memory budget.
M=/sys/module/kstats/parameters/mem_max
expect_eq "mem_max defaults to 256 MiB" "$(cat $M)" 256
echo 0 > $M
expect_errno "a node past mem_max -> ENOSPC" ENOSPC ctl "trace ks_target_empty"
check "the log says so" 'dmesg | tail -n 3 | grep -q "ks_target_empty: would take the nodes. memory past mem_max (0 MiB"'
echo 256 > $M

# One name in vmlinux and in a module (static functions of the same
# name): both traced, the module's node called MODULE:NAME.
D=proc_pid_cmdline_read
if grep -q "^$D\$" $AFF && grep -q "^$D \[kstats_target\]" $AFF; then
	check "trace ${D%?}? (vmlinux and kstats_target)" ctl "trace ${D%?}? bits 3"
	check "_last: 2 matched, 2 attached" "grep -q '^matched 2 attached 2 refused 0' $LAST"
	expect_eq "nodes $D and kstats_target:$D" \
		"$(nodes $D) $(nodes kstats_target:$D)" "1 1"
	echo 7 > $T/dup
	expect_eq "kstats_target:$D: the module's 7 calls" \
		"$(node_field kstats_target:$D samples)" 7
	v0=$(node_field $D samples)
	cat /proc/self/cmdline > /dev/null
	v1=$(node_field $D samples)
	expect_range "$D: vmlinux's, from reading /proc/self/cmdline ($v0 -> $v1)" \
		$((v1 - v0)) 1 4
	expect_eq "and the module's still 7" "$(node_field kstats_target:$D samples)" 7
	check "remove ${D%?}?" ctl "remove ${D%?}?"
	expect_eq "both gone" "$(nodes $D) $(nodes kstats_target:$D)" "0 0"
else
	skip "one name in vmlinux and kstats_target" "ftrace lists no vmlinux $D here"
fi

# Over a thousand nodes attached, then rmmod.
echo 2000 > $P
check "trace kstats_target:kt_gen_* ($NALL)" ctl "trace kstats_target:kt_gen_* bits 3"
expect_eq "$NALL nodes" "$(nodes kstats_target:kt_gen_)" $NALL
echo 1 > $T/gen
bad=$(gen_wrong kt_gen_ 1)
expect_eq "every one of the counts exact" "$bad" ""
expect_eq "kt_gen_3ff: 1,024 calls" "$(node_field kstats_target:kt_gen_3ff samples)" 1024
if ! lockdown_skip "rmmod kstats with $NALL nodes, insmod again"; then
	check "rmmod kstats with $NALL nodes" rmmod kstats
	check "insmod kstats again" insmod "$KS_MODDIR/kstats.ko"
	expect_eq "glob_max back to 1000" "$(cat $P)" 1000
fi
unload_modules
