# SPDX-License-Identifier: GPL-2.0
# Guest scenario (tests/kbuild/run.sh boots the tiny kernel with it and
# lockdown=integrity, as Secure Boot does): the kernel refuses an
# unsigned module itself, and the CLI names the signature; kstats.ko and
# kstats_target.ko signed with the kernel's own key load, debugfs refuses
# the target's writable file while kstats' _control (in /proc/kstats,
# debugfs's kstats a link to it) works by both paths, and the CLI traces
# the ground-truth target with exact counts through /proc/kstats.
. /ks/lib.sh

L=/sys/kernel/security
grep -q " $L securityfs" /proc/mounts || mount -t securityfs securityfs $L
expect_eq "lockdown level" "$(cat $L/lockdown 2>&1)" "none [integrity] confidentiality"
dmesg -c > /dev/null

# before kstats is loaded: what the CLI says
kstats list > /tmp/out 2> /tmp/err
expect_eq "kstats list without the module: status 1" $? 1
check "the CLI names lockdown and signing, not root" \
	'grep -qF "the kstats module is not loaded, and the kernel is locked down (integrity): it loads only signed modules" /tmp/err && ! grep -q "needs root" /tmp/err'

expect_errno "unsigned kstats_target.ko: the kernel refuses it" EPERM insmod $KS_FILES/kstats_target-unsigned.ko
check "the kernel says why" 'dmesg | grep -q "Lockdown: insmod: unsigned module loading is restricted"'
check "kstats_target not loaded" '! grep -q "^kstats_target " /proc/modules'

dmesg -c > /dev/null
check "signed kstats.ko loads under lockdown" insmod $KS_MODDIR/kstats.ko
check "signed kstats_target.ko loads" insmod $KS_MODDIR/kstats_target.ko
expect_eq "the signatures were accepted: no refusal" \
	"$(dmesg | grep -c "unsigned module loading is restricted")" 0
expect_eq "not tainted as unsigned (no E in /proc/modules)" \
	"$(grep '^kstats ' /proc/modules | grep -c '(.*E.*)')" 0
expect_errno "debugfs refuses a writable file (the target's)" EPERM 'echo 1 > /sys/kernel/debug/kstats_target/empty'
expect_eq "debugfs's kstats is a link to /proc/kstats" "$(readlink /sys/kernel/debug/kstats)" /proc/kstats
check "debugfs's path to _control works: trace" 'echo "trace find_vma" > /sys/kernel/debug/kstats/_control'
check "the node is in /proc/kstats" 'grep -q "^# kstats find_vma " /proc/kstats/find_vma'
check "debugfs's path: remove" 'echo "remove find_vma" > /sys/kernel/debug/kstats/_control'
check "/proc/kstats/_control is there, root's only" \
	'[ "$(stat -c %a /proc/kstats/_control)" = 600 ] && [ "$(stat -c %a /proc/kstats)" = 500 ]'

# what doctor says of this machine: signed, required, locked down, /proc
kstats doctor --no-attach > /tmp/doctor 2>&1
expect_eq "doctor: kstats can trace here (exit 0)" $? 0
# fact FACT: "VALUE | VERDICT" of FACT's line
fact() {
	awk -v f="$1" 'index($0, f "  ") == 1 {
		v = substr($0, length(f) + 1); n = split(v, w, " ")
		sub(/^ +/, "", v); sub(/ +[^ ]+$/, "", v); print v " | " w[n]; exit }' /tmp/doctor
}
expect_eq "doctor: the module is signed" "$(fact signature)" "signed | -"
expect_eq "doctor: signatures required, by lockdown" "$(fact 'sig required')" "yes (lockdown) | -"
expect_eq "doctor: lockdown integrity" "$(fact lockdown)" "integrity (debugfs closed: /proc/kstats) | ok"
expect_eq "doctor: control through /proc/kstats" "$(fact control)" "/proc/kstats (procfs) | ok"
while IFS= read -r line; do diag "$line"; done < /tmp/doctor

# the ground truth, through the CLI (which finds /proc/kstats itself)
check "kstats trace ks_target_empty" kstats trace ks_target_empty
check "kstats trace ks_target_delay" kstats trace ks_target_delay
echo 1000 > /proc/kstats_target/empty
echo "300 2000" > /proc/kstats_target/delay
kstats check ks_target_empty > /tmp/out 2>&1
expect_eq "ks_target_empty: 1000 calls, exactly" "$(grep -o ': [0-9]* samples' /tmp/out)" ": 1000 samples"
check "the CLI read /proc/kstats" 'grep -q "^ok /proc/kstats/ks_target_empty" /tmp/out'
kstats check ks_target_delay > /tmp/out 2>&1
expect_eq "ks_target_delay: 300 calls, exactly" "$(grep -o ': [0-9]* samples' /tmp/out)" ": 300 samples"
p50=$(node_field /proc/kstats/ks_target_delay p50)
# A guest whose TSC was marked unstable (a failed calibration or TSC sync
# check on a loaded host: "Marking TSC unstable", "sched_clock: Marking
# unstable") keeps local_clock() within a tick of the timekeeping clock:
# the target's 2 us spin (tests/target/kt_main.c) then waits for the next
# tick, and no delay is 2 us, whatever current_clocksource says.
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
why=$(dmesg | grep -E 'Marking TSC unstable|sched_clock: Marking unstable|TSC synchronization' | head -n 3)
# a spin of a tick or more (1 ms at HZ=1000) is local_clock() moving by
# ticks, whether or not the kernel said so
[ -n "$why" ] || [ "${p50:-0}" -lt 1000000 ] || why="the 2 us spin waited for a tick"
dmesg | grep -iE 'tsc|sched_clock|clocksource' | head -n 12 | while IFS= read -r line; do diag "$line"; done
if [ "$cs" = tsc ] && [ -z "$why" ]; then
	expect_range "ks_target_delay p50 >= its 2000 ns delay (ns)" "$p50" 2000 $((2000 * 9 / 8 + KS_SLACK))
else
	skip "ks_target_delay p50 >= its 2000 ns delay (ns)" "clocksource ${cs:-unknown}${why:+, $(echo "$why" | tr '\n' ';')} (p50 $p50 ns)"
fi
kstats save ks_target_empty -o /tmp/empty.json > /dev/null 2>&1
check "kstats save under lockdown" 'grep -q "\"samples\": *1000" /tmp/empty.json'
check "kstats stop all" kstats stop all
echo 5 > /proc/kstats_target/empty
expect_eq "stopped: still 1000" "$(node_field /proc/kstats/ks_target_empty samples)" 1000
check "kstats remove all" kstats remove all
expect_eq "no node left" "$(grep -vc '^#' /proc/kstats/_control)" 0
check "rmmod kstats_target" rmmod kstats_target
check "rmmod kstats" rmmod kstats
check "/proc/kstats gone" test ! -e /proc/kstats
if bad=$(dmesg_bad); then fail "dmesg clean" "$bad"; else ok "dmesg clean"; fi
