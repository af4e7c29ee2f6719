# SPDX-License-Identifier: GPL-2.0
# The direct backend: chosen by default when BTF allows, refused for
# stack-passed arguments, unwinding through the trampoline, removal and
# rmmod while a traced call sleeps in the body.
# ks-lockdown: again (vm/runner.sh: once more under lockdown, through /proc)
. /ks/lib.sh

load_modules || exit 0
T=$KS_TDIR
need_direct "the direct backend" || { unload_modules; exit 0; }

check "trace find_vma (default backend)" ctl "trace find_vma"
expect_eq "find_vma goes direct (BTF: 2 register args)" "$(node_field find_vma attach)" "direct:find_vma"
i=0
while [ $i -lt 20 ]; do /bin/busybox true; i=$((i + 1)); done
expect_range "find_vma samples through the trampoline" "$(node_field find_vma samples)" 20 100000000
ctl "remove find_vma"

check "trace do_mmap (default backend)" ctl "trace do_mmap"
attach=$(node_field do_mmap attach)
check "do_mmap (7+ args) falls back from direct ($attach)" '[ "${attach%%:*}" != direct ]'
ctl "remove do_mmap"
expect_errno "do_mmap via direct -> EINVAL" EINVAL ctl "trace do_mmap via direct"
check "the log says why" 'dmesg | grep -q "do_mmap: do_mmap takes arguments on the stack"'

# A glob via direct: each function refused is named in _last with its
# reason, the log says the first five and one line for the rest (zstd's
# HUF_* functions: 12 to 19 of them take arguments on the stack).
n0=$(dmesg | wc -l)
check "trace HUF_* via direct" ctl "trace HUF_* via direct"
set -- $(tail -n 1 $KS_DIR/_last)
r=${6:-0}
expect_eq "_last: each of the $r refused named with its reason" \
	"$(grep -c '^refused HUF_[^ ]*: .* use via fprobe or kretprobe$' $KS_DIR/_last)" "$r"
logged=$(dmesg | tail -n +$((n0 + 1)) | grep -c 'kstats: HUF_.* use via fprobe or kretprobe$')
if [ "$r" -gt 5 ]; then
	expect_eq "the log: the first 5 reasons" "$logged" 5
	check "the log: one line for the other $((r - 5))" \
		"dmesg | tail -n +$((n0 + 1)) | grep -q 'kstats: HUF_\*: $((r - 5)) more functions refused, not logged: _last names each with its reason'"
else
	skip "the log: the first 5 reasons" "$r refused here"
fi
ctl "remove HUF_*"

# Six register arguments and the return value pass through untouched.
check "plain six-argument calls" 'echo 300 > $T/args'
check "trace ks_target_args6 via direct" ctl "trace ks_target_args6 via direct"
check "six-argument calls through the trampoline" 'echo 300 > $T/args'
expect_eq "300 calls timed" "$(node_field ks_target_args6 samples)" 300
ctl "remove ks_target_args6"

# Unwinding from inside a traced body walks through the trampoline.
check "plain unwind reaches kt_write" 'echo 1 > $T/unwind'
check "trace ks_target_unwind via direct" ctl "trace ks_target_unwind via direct"
check "unwind through the trampoline reaches kt_write" 'echo 3 > $T/unwind'
expect_eq "3 unwinds timed" "$(node_field ks_target_unwind samples)" 3
ctl "remove ks_target_unwind"

# A direct call and a kprobe on the same function (ftrace then calls the
# kprobe through its regs caller and jumps on to the trampoline).
check "trace ks_target_mark_a via direct" ctl "trace ks_target_mark_a via direct"
check "and a section starting at the same function" ctl "trace both start ks_target_mark_a end ks_target_mark_b"
taskset 1 sh -c "echo '500 0' > $T/section"
expect_eq "direct node counts every call" "$(node_field ks_target_mark_a samples)" 500
expect_eq "section node counts every section" "$(node_field both samples)" 500
check "remove the section first" ctl "remove both"
echo '50 0' > $T/section
expect_eq "direct node still counts" "$(node_field ks_target_mark_a samples)" 550
ctl "remove ks_target_mark_a"

# Removal while a call sleeps in the traced body (55-edges: without waiting).
check "trace ks_target_sleep via direct" ctl "trace ks_target_sleep via direct"
echo "1 1500" > $T/sleep &
sleeper=$!
check "the call is inside the body (the target says so)" \
	poll 300 '[ "$(cat $T/sleeping)" = 1 ] && grep -q "^ks_target_sleep direct active 0 0$" $KS_CTL'
check "remove while a call sleeps in the body" ctl "remove ks_target_sleep"
wait $sleeper
check "the sleeper came back" "! kill -0 $sleeper 2>/dev/null"

# rmmod while a call sleeps in the body: waits, then unloads cleanly.
if ! lockdown_skip "rmmod kstats with a call in flight"; then
	check "trace ks_target_sleep via direct again" ctl "trace ks_target_sleep via direct"
	echo "1 1500" > $T/sleep &
	sleeper=$!
	check "the call is inside the body again" poll 300 '[ "$(cat $T/sleeping)" = 1 ]'
	check "rmmod kstats with a call in flight" rmmod kstats
	wait $sleeper
	check "sleeper finished after rmmod" "! kill -0 $sleeper 2>/dev/null"
fi
unload_modules
