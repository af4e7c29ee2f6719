# SPDX-License-Identifier: GPL-2.0
# Beside another tracer's direct call (a BPF fentry program, a livepatch),
# here the target module's own on ks_target_empty ("hold"): a default
# trace falls back to the next cheapest backend and counts exactly; an
# asked-for direct attach says EBUSY; and the other way round, kstats'
# hold makes the other one fail, until kstats lets go.
# ks-lockdown: again (vm/runner.sh: once more under lockdown, through /proc)
. /ks/lib.sh

load_modules || exit 0
T=$KS_TDIR

backend() {
	awk -v n="$1" '$1 == n { print $2 }' "$KS_CTL"
}

if ! echo 1 > $T/hold 2> /dev/null; then
	skip "another tracer's direct call" "this kernel has no ftrace direct calls"
	unload_modules
	exit 0
fi
ok "another tracer holds ks_target_empty"
check "trace ks_target_empty (default)" ctl "trace ks_target_empty"
b=$(backend ks_target_empty)
check "falls back from direct ($b)" '[ "$b" = fprobe ] || [ "$b" = kretprobe ]'
check "the log says why" 'dmesg | tail -n 5 | grep -q "ks_target_empty: another tracer holds ks_target_empty for its direct call"'
echo 1000 > $T/empty
expect_eq "$b: 1000 calls counted" "$(node_field ks_target_empty samples)" 1000
ctl "remove ks_target_empty"
expect_errno "trace ... via direct -> EBUSY" EBUSY ctl "trace ks_target_empty via direct"

# A glob over the held function and others: the others stay direct.
check "trace kstats_target:ks_target_[de]*" ctl "trace kstats_target:ks_target_[de]* bits 3"
expect_eq "the held one falls back" \
	"$(backend kstats_target:ks_target_empty | grep -c -e fprobe -e kretprobe)" 1
expect_eq "the delay function is direct" "$(backend kstats_target:ks_target_delay)" direct
echo 300 > $T/empty
echo "7 1000" > $T/delay
expect_eq "held: 300 calls" "$(node_field kstats_target:ks_target_empty samples)" 300
expect_eq "direct: 7 calls" "$(node_field kstats_target:ks_target_delay samples)" 7
ctl "remove kstats_target:ks_target_*"
check "the other tracer lets go" sh -c "echo 0 > $T/hold"

# kstats first: the other tracer cannot attach until kstats removes its node.
check "trace ks_target_empty (direct)" ctl "trace ks_target_empty"
expect_eq "direct" "$(backend ks_target_empty)" direct
expect_errno "the other tracer -> EBUSY" EBUSY sh -c "echo 1 > $T/hold"
echo 200 > $T/empty
expect_eq "still 200 calls counted" "$(node_field ks_target_empty samples)" 200
ctl "remove ks_target_empty"
check "after remove, the other tracer attaches" sh -c "echo 1 > $T/hold"
check "and lets go" sh -c "echo 0 > $T/hold"

# A livepatch: an ftrace_ops that may change the ip (the target's "patch").
# ftrace lets no direct call beside it unless the call's owner can share
# (ops_func, which kstats does not offer: docs/direct.md).
if ! echo 1 > $T/patch 2> /dev/null; then
	skip "a livepatch's ftrace_ops" "this kernel refused an IPMODIFY ftrace_ops"
	unload_modules
	exit 0
fi
ok "a livepatch-like ftrace_ops on ks_target_empty"
check "patched: trace ks_target_empty (default)" ctl "trace ks_target_empty"
b=$(backend ks_target_empty)
check "patched: falls back from direct ($b)" '[ "$b" = fprobe ] || [ "$b" = kretprobe ]'
check "patched: the log says why" 'dmesg | tail -n 5 | grep -q "ks_target_empty: another tracer holds ks_target_empty for its direct call"'
echo 400 > $T/empty
expect_eq "patched, $b: 400 calls counted" "$(node_field ks_target_empty samples)" 400
ctl "remove ks_target_empty"
expect_errno "patched: trace ... via direct -> EBUSY" EBUSY ctl "trace ks_target_empty via direct"
check "the patch comes off" sh -c "echo 0 > $T/patch"
# kstats first: the patch waits until kstats lets go.
check "trace ks_target_empty (direct) before the patch" ctl "trace ks_target_empty"
expect_eq "direct before the patch" "$(backend ks_target_empty)" direct
expect_errno "the patch -> EBUSY while kstats holds the function" EBUSY sh -c "echo 1 > $T/patch"
echo 100 > $T/empty
expect_eq "direct: still exact (100 calls)" "$(node_field ks_target_empty samples)" 100
ctl "remove ks_target_empty"
check "after remove, the patch goes on" sh -c "echo 1 > $T/patch"
check "and comes off" sh -c "echo 0 > $T/patch"
unload_modules
