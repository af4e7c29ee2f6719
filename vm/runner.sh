#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side: run VM scenarios, then the dmesg check.  Installed in the
# initramfs as /usr/bin/ks-run; /init calls it, and from the -i shell you
# can run it by hand:  ks-run [NAME[,NAME...]]   (names or globs, no .sh;
# default: every /scenarios/*.sh).  Prints TAP lines and a final
#   KSTATS-VM-END pass=P fail=F skip=S
# marker that vm/session.sh checks for.  With KS_COLLECT_ON=1 (ks.collect=1)
# the files under $KS_COLLECT go to the host after each scenario.

. /ks/lib.sh

list=${1:-*}
timeout=${KS_TIMEOUT:-120}

count() { grep -c "^$1\$" "$KS_STATE/results"; }	# vm/tap.sh's words
: > "$KS_STATE/results"		# a fresh count for each ks-run
rm -f "$KS_STATE/n"

names=""
for pat in $(echo "$list" | tr ',' ' '); do
	found=""
	for f in /scenarios/$pat.sh; do
		[ -f "$f" ] || continue
		n=${f##*/}
		names="$names ${n%.sh}"
		found=1
	done
	[ -n "$found" ] || { TAP_PREFIX="$KS_KVER: $pat: "; fail "no such scenario"; }
done

echo
echo "KSTATS-VM-BEGIN kver=$KS_KVER cpus=$(nproc) uptime=$(cut -d' ' -f1 /proc/uptime)"

# run_one NAME: one scenario, under the timeout, its results checked.
run_one() {
	export KS_SCENARIO=$1
	TAP_PREFIX="$KS_KVER: ${KS_PASS:+$KS_PASS: }$1: "
	before=$(($(count ok) + $(count notok) + $(count skip)))
	fails=$(count notok)
	t0=$(cut -d' ' -f1 /proc/uptime)
	echo "# scenario ${KS_PASS:+$KS_PASS: }$1 (uptime $t0)"
	# "# ks-timeout: S" in a scenario: it may take S seconds, if longer
	t=$(sed -n 's/^# ks-timeout: \([0-9][0-9]*\)$/\1/p' "/scenarios/$1.sh")
	[ -n "$t" ] && [ "$t" -gt "$timeout" ] || t=$timeout
	timeout "$t" sh "/scenarios/$1.sh" < /dev/null
	rc=$?
	after=$(($(count ok) + $(count notok) + $(count skip)))
	if [ $rc -eq 124 ] || [ $rc -eq 137 ] || [ $rc -eq 143 ]; then
		fail "timed out after ${t}s (status $rc)"
	elif [ "$after" -eq "$before" ]; then
		fail "reported no results (exit status $rc)"
	elif [ $rc -ne 0 ] && [ "$(count notok)" -eq "$fails" ]; then
		fail "exited with status $rc"
	fi
	echo "# scenario $1 done (status $rc, uptime $(cut -d' ' -f1 /proc/uptime))"
	[ "${KS_COLLECT_ON:-0}" = 1 ] && ks_publish
}

for name in $names; do
	run_one "$name"
done

# The lockdown pass: the scenarios that say "# ks-lockdown: again" run
# once more with the kernel locked down (integrity, as Secure Boot does),
# the modules loaded before it (unsigned, they could not be after) and
# kstats' files read in /proc (vm/lib.sh, KS_LOCKDOWN; debugfs's kstats
# is a link there, and works too).  Last in the boot: a
# lockdown is never lifted.  ks.lockdown=0 leaves it out.
again=""
for name in $names; do
	grep -q '^# ks-lockdown: again' "/scenarios/$name.sh" && again="$again $name"
done
if [ -n "$again" ] && [ "${KS_LOCKDOWN_PASS:-1}" = 1 ]; then
	TAP_PREFIX="$KS_KVER: lockdown: "
	L=/sys/kernel/security
	grep -q " $L securityfs" /proc/mounts || mount -t securityfs securityfs $L
	if [ ! -e $L/lockdown ]; then
		skip "the lockdown pass" "this kernel has no lockdown LSM"
	elif load_modules; then
		check "echo integrity > $L/lockdown" 'echo integrity > '$L/lockdown
		expect_eq "lockdown level" "$(cat $L/lockdown)" "none [integrity] confidentiality"
		expect_errno "debugfs refuses a writable file now (the target's)" EPERM \
			'echo 1 > /sys/kernel/debug/kstats_target/empty'
		check "the kernel says why" 'dmesg | grep -q "Lockdown: .*debugfs access is restricted"'
		# kstats' files are in /proc/kstats, and debugfs's kstats links there
		check "debugfs's path to kstats' _control still works" \
			'echo "trace find_vma" > /sys/kernel/debug/kstats/_control &&
			 echo "remove find_vma" > /sys/kernel/debug/kstats/_control'
		[ -f "$KS_MODDIR/kstats_api_sample.ko" ] &&
			expect_errno "an unsigned module is refused now" EPERM \
				insmod "$KS_MODDIR/kstats_api_sample.ko"
		export KS_LOCKDOWN=1 KS_PASS=lockdown
		for name in $again; do
			run_one "$name"
		done
		unset KS_LOCKDOWN KS_PASS
	fi
fi

TAP_PREFIX="$KS_KVER: "
if bad=$(dmesg_bad); then
	notok "dmesg clean" "$(printf '%s\n' "$bad" | head -n 80)"
else
	ok "dmesg clean"
fi

echo "KSTATS-VM-END pass=$(count ok) fail=$(count notok) skip=$(count skip) uptime=$(cut -d' ' -f1 /proc/uptime)"
