# SPDX-License-Identifier: GPL-2.0
# kstats doctor on a real kernel: with the module loaded it can trace
# (exit 0), reads lockdown none and the control files in /proc/kstats (in
# the lockdown pass: integrity), and each backend the kernel
# offers attaches and times a 100 ms nanosleep() at 0.8..1.25 of
# CLOCK_MONOTONIC; --json says the same; without the module it cannot.
# ks-lockdown: again
. /ks/lib.sh

T=$KS_TDIR

load_modules || exit 0
out=/tmp/doctor.out
kstats doctor >$out 2>/tmp/doctor.err
rc=$?
expect_eq "doctor with the module: exit 0 (can trace)" "$rc" 0
expect_eq "doctor: nothing on stderr" "$(cat /tmp/doctor.err)" ""
check "doctor: every line within 72 columns" "! awk 'length > 72' $out | grep -q ."
check "doctor: no node left behind" '! grep -q "^hrtimer_nanosleep " $KS_CTL'
# fact FACT K: word K of FACT's line (2: the value's first), "last": the verdict
fact() { awk -v f="$1" -v k="$2" 'index($0, f "  ") == 1 { print (k == "last" ? $NF : $k); exit }' $out; }
if [ "${KS_LOCKDOWN:-0}" = 1 ]; then
	expect_eq "doctor: lockdown integrity, ok" "$(fact lockdown 2) $(fact lockdown last)" "integrity ok"
	expect_eq "doctor: control names /proc/kstats" "$(fact control 2) $(fact control 3)" "/proc/kstats (procfs)"
	expect_eq "doctor: debugfs closed by lockdown" "$(fact debugfs last)" "-"
else
	expect_eq "doctor: control names /proc/kstats" "$(fact control 2) $(fact control 3) $(fact control last)" \
		"/proc/kstats (procfs) ok"
	# the lockdown level lives in securityfs, which the harness mounts later
	L=/sys/kernel/security
	if ! grep -q " $L securityfs" /proc/mounts; then
		expect_eq "doctor: no securityfs: lockdown unknown, warn, the mount as fix" \
			"$(fact lockdown 2) $(fact lockdown last) $(grep -A1 '^lockdown ' $out | tail -n 1)" \
			"unknown warn   fix: mount -t securityfs none $L"
		check "mount securityfs" mount -t securityfs securityfs $L
		kstats doctor --no-attach >$out 2>&1
		umount_sfs=1
	fi
	expect_eq "doctor: lockdown none, ok" "$(fact lockdown 2) $(fact lockdown last)" "none ok"
fi
case $(fact machine 2) in	# the harness runs QEMU without KVM
QEMU*) expect_eq "doctor: QEMU without KVM is an emulator: warn" "$(fact machine last)" warn ;;
*) fail "doctor: QEMU without KVM is an emulator" "$(grep -A1 '^machine ' $out)" ;;
esac
kstats doctor >$out 2>&1
while IFS= read -r line; do diag "$line"; done <$out
expect_eq "doctor: the module loaded, its version, ok" "$(fact module 1) $(fact module last)" "module ok"
# the backends this kernel offers, told apart as vm/lib.sh does
for b in direct fprobe kretprobe; do
	case $b in
	direct) have_direct ;;
	fprobe) grep -qw register_fprobe_syms /proc/kallsyms ;;
	kretprobe) true ;;
	esac
	offered=$?
	line=$(grep "^backend $b " $out)
	if [ $offered != 0 ]; then
		expect_eq "doctor: backend $b: not in this kernel, no" "$(echo "$line" | awk '{ print $3, $NF }')" "not no"
		continue
	fi
	expect_eq "doctor: backend $b attaches, ok" "$(echo "$line" | awk '{ print $NF }')" ok
	# "backend direct  clock tsc, 100 ms = 1.002x  ok"
	ratio=$(echo "$line" | sed -n 's/.* = \([0-9.]*\)x .*/\1/p')
	expect_range "doctor: backend $b: the node's 100 ms over CLOCK_MONOTONIC's" "$ratio" 0.8 1.25
done
r=$(kstats doctor --json 2>&1)
rc=$?
expect_eq "doctor --json: exit 0" "$rc" 0
check "doctor --json: can_trace is true" 'echo "$r" | grep -q "^  \"can_trace\": true,$"'
expect_range "doctor --json: a fact a line" "$(echo "$r" | grep -c '^    { "fact": ')" 17 40
check "doctor --json: one object" 'echo "$r" | head -n 1 | grep -qx "{" && echo "$r" | tail -n 1 | grep -qx "}"'
expect_eq "doctor --json: the lockdown fact" "$(echo "$r" | grep '"fact": "lockdown"' | sed 's/.*"value": "\([a-z]*\).*/\1/')" \
	"$([ "${KS_LOCKDOWN:-0}" = 1 ] && echo integrity || echo none)"
[ -n "${umount_sfs:-}" ] && umount $L
# kprobes switched off: the kretprobe node attaches and counts nothing;
# doctor and trace say which switch and how to turn it on (debugfs's
# switch is closed under lockdown: not in the lockdown pass)
KP=/sys/kernel/debug/kprobes/enabled
if [ "${KS_LOCKDOWN:-0}" != 1 ] && [ -w $KP ]; then
	check "kprobes off" "echo 0 > $KP"
	kstats doctor >$out 2>&1
	expect_eq "kprobes off: doctor's kprobes line, its fix" \
		"$(fact kprobes 2) $(fact kprobes last) $(grep -A1 '^kprobes ' $out | tail -n 1)" \
		"disabled no   fix: echo 1 > $KP"
	expect_eq "kprobes off: backend kretprobe attached, counted nothing: no" \
		"$(grep '^backend kretprobe ' $out | awk '{ print $3, $4, $NF }')" "attached, no no"
	check "kprobes off: the fix names the switch" \
		"grep -A1 '^backend kretprobe ' $out | grep -qF 'kprobes are switched off'"
	check "kprobes off: kretprobe is not among the backends that can trace" \
		"tail -n 1 $out | grep -q '^kstats can' && ! tail -n 1 $out | grep -q kretprobe"
	kstats trace ks_target_empty --via kretprobe 2>/tmp/doctor.err
	expect_eq "kprobes off: trace --via kretprobe warns, one line" "$(cat /tmp/doctor.err)" \
		"kstats: warning: kprobes are switched off ($KP is 0): kretprobe counts no call until echo 1 > $KP"
	echo 100 > $T/empty
	expect_eq "kprobes off: the node counted none of 100 calls" "$(node_field ks_target_empty samples)" 0
	check "kprobes on" "echo 1 > $KP"
	echo 100 > $T/empty
	expect_eq "kprobes on again: 100 of 100 calls" "$(node_field ks_target_empty samples)" 100
	ctl "remove ks_target_empty"
fi
if lockdown_skip "doctor without the module"; then
	exit 0
fi
unload_modules
kstats doctor --no-attach >$out 2>&1
expect_eq "doctor --no-attach without the module: exit 1" "$?" 1
expect_eq "doctor: the module line says not loaded" "$(fact module 2) $(fact module 3) $(fact module last)" "not loaded no"
expect_eq "doctor: the last line" "$(tail -n 1 $out)" "kstats cannot trace here: the module is not loaded"
