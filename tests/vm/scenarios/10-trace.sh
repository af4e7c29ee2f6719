# SPDX-License-Identifier: GPL-2.0
# Walking skeleton: exact counts, nesting, known latency, a real kernel
# function, on the default backend and on every backend the kernel has.
# ks-lockdown: again (vm/runner.sh: once more under lockdown, through /proc)
. /ks/lib.sh

load_modules || exit 0
T=$KS_TDIR

set_backends

# Sum of the CPUS rows' counts of node $1.
cpus_total() {
	awk '$3 == "CPUS" { s += $6 } END { print s + 0 }' "$KS_DIR/$1"
}
# Sum of the per-CPU rows' counts of node $1.
cpu_total() {
	awk '$3 == "CPU" { s += $6 } END { print s + 0 }' "$KS_DIR/$1"
}

for b in $backends; do
	check "$b: trace ks_target_empty" ctl "trace ks_target_empty via $b"
	expect_eq "$b: attach shown" "$(node_field ks_target_empty attach)" "$b:ks_target_empty"
	echo 100000 > $T/empty
	expect_eq "$b: 100000 calls -> 100000 samples" "$(node_field ks_target_empty samples)" 100000
	expect_eq "$b: CPUS rows add up" "$(cpus_total ks_target_empty)" 100000
	expect_eq "$b: CPU rows add up" "$(cpu_total ks_target_empty)" 100000
	expect_eq "$b: missed" "$(node_field ks_target_empty missed)" 0
	diag "$b: empty function: $(sed -n 3p $KS_DIR/ks_target_empty)"

	check "$b: stop" 'echo stop > $KS_DIR/ks_target_empty'
	echo 500 > $T/empty
	expect_eq "$b: stopped node records nothing" "$(node_field ks_target_empty samples)" 100000
	expect_eq "$b: state stopped" "$(node_field ks_target_empty state)" stopped
	check "$b: reset via _control" ctl "reset ks_target_empty"
	expect_eq "$b: reset empties" "$(node_field ks_target_empty samples)" 0
	check "$b: start" 'echo start > $KS_DIR/ks_target_empty'
	echo 777 > $T/empty
	expect_eq "$b: restarted node counts again" "$(node_field ks_target_empty samples)" 777
	check "$b: remove" ctl "remove ks_target_empty"
	check "$b: node file gone" '! test -e $KS_DIR/ks_target_empty'

	# Recursion: each nested call is timed with its own start.
	check "$b: trace ks_target_recurse" ctl "trace ks_target_recurse via $b"
	echo "300 7" > $T/recurse
	expect_eq "$b: depth 7 x 300 calls -> 2100 samples" "$(node_field ks_target_recurse samples)" 2100
	expect_eq "$b: recursion missed" "$(node_field ks_target_recurse missed)" 0
	ctl "remove ks_target_recurse"

	# Known latency: a 200 us spin on local_clock(); p50 within the slot
	# precision above it (plus the tracer's own cost, a few us under TCG,
	# more for a probe's exception on a loaded host: KS_SLACK, 20 us at least).
	check "$b: trace ks_target_delay bits 5" ctl "trace ks_target_delay bits 5 via $b"
	echo "200 200000" > $T/delay
	expect_eq "$b: delay samples" "$(node_field ks_target_delay samples)" 200
	p50=$(node_field ks_target_delay p50) sl=$((KS_SLACK > 20000 ? KS_SLACK : 20000))
	expect_range "$b: delay p50 ($p50) in [200000, 200000 + 2^-5 + $((sl / 1000))us]" "$p50" 200000 $((200000 + 200000 / 32 + sl))
	expect_range "$b: delay min >= 200000" "$(node_field ks_target_delay min)" 200000 300000
	ctl "remove ks_target_delay"
done

# A real kernel function under a page-fault workload.
check "trace find_vma" ctl "trace find_vma"
i=0
while [ $i -lt 50 ]; do /bin/busybox true; i=$((i + 1)); done
n=$(node_field find_vma samples)
expect_range "find_vma saw the workload" "$n" 50 100000000
# one read of the node (find_vma keeps being called: two reads may not agree)
grep "^#" $KS_DIR/find_vma > /tmp/find_vma.head
p10=$(node_field /tmp/find_vma.head p10) p50=$(node_field /tmp/find_vma.head p50)
p99=$(node_field /tmp/find_vma.head p99)
mn=$(node_field /tmp/find_vma.head min) mx=$(node_field /tmp/find_vma.head max)
check "find_vma: min <= p10 <= p50 <= p99 <= max ($mn $p10 $p50 $p99 $mx)" \
	"[ $mn -le $p10 ] && [ $p10 -le $p50 ] && [ $p50 -le $p99 ] && [ $p99 -le $mx ]"
expect_range "find_vma p50 is sane (ns)" "$p50" 10 1000000
diag "$(head -3 $KS_DIR/find_vma)"
check "grep CPUS works" 'grep -q "CPUS" $KS_DIR/find_vma'
cat "$KS_DIR/_control" > /tmp/ctl
check "_control lists find_vma" 'grep -q "^find_vma " /tmp/ctl'

# Bad input: clear errors, nothing else touched.
ctl "stop find_vma"
before=$(cat $KS_DIR/find_vma)
expect_errno "unknown symbol -> ENOENT" ENOENT ctl "trace ks_no_such_function_xyz"
check "unknown symbol logged by name" 'dmesg | grep -q "ks_no_such_function_xyz"'
expect_errno "unknown verb -> EINVAL" EINVAL ctl "frobnicate find_vma"
expect_errno "unknown option -> EINVAL" EINVAL ctl "trace ks_target_empty colour blue"
expect_errno "bits out of range -> EINVAL" EINVAL ctl "trace ks_target_empty bits 99"
expect_errno "duplicate -> EEXIST" EEXIST ctl "trace find_vma"
expect_errno "remove unknown -> ENOENT" ENOENT ctl "remove nosuchnode"
expect_errno "bad node command -> EINVAL" EINVAL 'echo bogus > $KS_DIR/find_vma'
check "find_vma histogram untouched by failures" '[ "$(cat $KS_DIR/find_vma)" = "$before" ]'
check "find_vma still listed" 'grep -q "^find_vma " $KS_DIR/_control'

# rmmod with nodes attached removes them.
if ! lockdown_skip "rmmod kstats with nodes attached"; then
	ctl "trace ks_target_empty"
	check "rmmod kstats with nodes attached" rmmod kstats
	check "kstats dir gone" '! test -e $KS_DIR'
fi
unload_modules
