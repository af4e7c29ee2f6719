# SPDX-License-Identifier: GPL-2.0
# The README's example session: real commands, real output, in the VM.
# Run with scripts/readme-session.sh.
. /ks/lib.sh
insmod /modules/kstats.ko
insmod /modules/kstats_target.ko

# say CMD: print "$ CMD" and its output, as typed at a root shell
say() {
	echo "$ $*"
	sh -c "$*" 2>&1
}

dmesg -n 1	# kernel messages to the log only, as on a terminal
echo "=== SESSION BEGIN"
say 'echo "trace find_vma bits 3" > /sys/kernel/debug/kstats/_control'
say 'for i in $(seq 200); do /bin/busybox true; done'
say 'head -4 /sys/kernel/debug/kstats/find_vma'
say 'grep CPUS /sys/kernel/debug/kstats/find_vma | head -3'
say 'echo "trace should_failslab" > /sys/kernel/debug/kstats/_control'
say 'echo "trace ks_target_clone" > /sys/kernel/debug/kstats/_control; head -1 /sys/kernel/debug/kstats/ks_target_clone'
say 'cat /sys/kernel/debug/kstats/_control'
say 'dmesg | grep kstats: | tail -1 | cut -c 16-'
say 'echo "trace kstats_target:kt_gen_0* bits 3" > /sys/kernel/debug/kstats/_control; cat /sys/kernel/debug/kstats/_last'
say '(sleep 0.5; echo 1 > /sys/kernel/debug/kstats_target/gen) & kstats top -n 1 -i 4 "kt_gen_0f*" | head -5'
echo "=== SESSION END"
ok "session"
