# SPDX-License-Identifier: GPL-2.0
# The default backend at its edges: compiler clones whose arguments BTF
# cannot tell (.part, .isra with more arguments), removal and rmmod while
# a call sleeps 12 s in a traced body, resets racing records, the longest
# command the grammar accepts, vmlinux BTF read once.
. /ks/lib.sh

load_modules || exit 0
T=$KS_TDIR

# Compiler clones that need not keep the prototype never go direct.
check "the target module has BTF" test -e /sys/kernel/btf/kstats_target
check "trace ks_target_part (default backend)" ctl "trace ks_target_part"
attach=$(node_field ks_target_part attach)
check "the .part clone is attached, not direct ($attach)" \
	'case "$attach" in direct:*) false ;; *:*ks_target_part.part.0*) true ;; *) false ;; esac'
check ".part: values and results intact" 'echo 200 > $T/part'
expect_eq ".part: 400 calls timed" "$(node_field ks_target_part samples)" 400
ctl "remove ks_target_part"
if need_direct ".part via direct -> EINVAL, with the reason"; then
	expect_errno ".part via direct -> EINVAL" EINVAL ctl "trace ks_target_part via direct"
	check "the log says why (.part)" \
		'dmesg | grep -q "ks_target_part.part.0 is a compiler clone whose arguments need not match the prototype"'
fi

check "trace ks_target_isra (default backend)" ctl "trace ks_target_isra"
attach=$(node_field ks_target_isra attach)
check "the .isra clone is attached, not direct ($attach)" \
	'case "$attach" in direct:*) false ;; *:*ks_target_isra.isra.0*) true ;; *) false ;; esac'
check ".isra (seven arguments): values and results intact" 'echo 300 > $T/isra'
expect_eq ".isra: 300 calls timed" "$(node_field ks_target_isra samples)" 300
ctl "remove ks_target_isra"
if need_direct ".isra via direct -> EINVAL, with the reason"; then
	expect_errno ".isra via direct -> EINVAL" EINVAL ctl "trace ks_target_isra via direct"
	check "the log says why (.isra)" \
		'dmesg | grep -q "ks_target_isra.isra.0 is a compiler clone whose arguments need not match the prototype"'
fi
if need_direct "a function of the target with BTF goes direct"; then
	check "a function of the target with BTF still goes direct" ctl "trace ks_target_empty"
	expect_eq "ks_target_empty attach" "$(node_field ks_target_empty attach)" "direct:ks_target_empty"
	ctl "remove ks_target_empty"
fi

# vmlinux BTF is read once per module load, whatever the number of trace
# commands (this load read it for ks_target_part above).
reads=$(dmesg | grep -c 'kstats: vmlinux BTF read')
expect_range "vmlinux BTF read and indexed" "$reads" 1 100
ctl "trace find_vma"
ctl "trace do_mmap"
ctl "remove find_vma"
ctl "remove do_mmap"
expect_eq "no more vmlinux BTF reads" "$(dmesg | grep -c 'kstats: vmlinux BTF read')" "$reads"

# Removal never waits for a call sleeping in the body.
in_body() {	# is pid $1 asleep in ks_target_sleep's msleep?
	case $(cat /proc/$1/wchan 2>/dev/null) in
	*msleep* | *schedule_timeout* | *ks_target_sleep*) return 0 ;;
	esac
	return 1
}
if need_direct "removal and rmmod while a direct call sleeps in the body"; then
	check "trace ks_target_sleep via direct" ctl "trace ks_target_sleep via direct"
	echo "1 12000" > $T/sleep &
	sleeper=$!
	check "a call sleeps 12 s in the body" poll 500 in_body $sleeper
	t0=$(uptime_cs)
	check "remove while it sleeps" ctl "remove ks_target_sleep"
	check "_control answers" 'cat $KS_CTL > /dev/null'
	t1=$(uptime_cs)
	# The call sleeps 12 s: a removal that waited for it would take that.
	# Under 5 s (a KASAN kernel under load takes over 1 s).
	expect_range "remove and a read took under 5 s, not the call's 12 (cs)" $((t1 - t0)) 0 499
	check "the name can be traced again meanwhile" ctl "trace ks_target_sleep via direct"
	check "one short call" 'echo "1 1" > $T/sleep'
	check "another node meanwhile" ctl "trace ks_target_empty via direct"
	echo 100 > $T/empty
	expect_eq "it counts" "$(node_field ks_target_empty samples)" 100
	ctl "remove ks_target_empty"
	wait $sleeper
	check "the sleeper returned" '! kill -0 $sleeper 2>/dev/null'
	expect_eq "the new node counted its own call only" "$(node_field ks_target_sleep samples)" 1
	ctl "remove ks_target_sleep"

	# rmmod with a call in the body waits for it, and says so once.
	check "trace ks_target_sleep via direct again" ctl "trace ks_target_sleep via direct"
	echo "1 3000" > $T/sleep &
	sleeper=$!
	check "a call sleeps 3 s in the body" poll 500 in_body $sleeper
	check "remove it" ctl "remove ks_target_sleep"
	said=$(dmesg | grep -c 'kstats: unloading waits for 1 call still inside ks_target_sleep to return')
	check "rmmod kstats while it sleeps" rmmod kstats
	check "rmmod returned after the sleeper" '! in_body $sleeper'
	wait $sleeper
	expect_eq "one log line says what rmmod waited for" \
		"$(dmesg | grep -c 'kstats: unloading waits for 1 call still inside ks_target_sleep to return')" $((said + 1))
	check "insmod kstats again" insmod "$KS_MODDIR/kstats.ko"

	# A CPU that goes offline never returns from do_idle() (its idle
	# task starts afresh): the direct backend refuses it, as that call
	# would hold the module for ever, and the default takes another.
	expect_errno "trace do_idle via direct -> EINVAL" EINVAL ctl "trace do_idle via direct"
	check "the log says why" 'dmesg | tail -n 3 | grep -q "do_idle: do_idle may not return before the module goes"'
	check "trace do_idle (the default backend)" ctl "trace do_idle"
	check "not direct" '! node_field do_idle attach | grep -q "^direct:"'
	check "do_idle's calls are timed" poll 500 '[ "$(node_field do_idle samples)" -gt 0 ]'
	C1=/sys/devices/system/cpu/cpu1/online
	if [ -w $C1 ]; then
		check "CPU 1 offline and back while do_idle is traced" \
			'echo 0 > $C1 && echo 1 > $C1'
	fi
	check "remove do_idle" ctl "remove do_idle"
	rmmod_within_10s "rmmod kstats returns"
	check "insmod kstats again" insmod "$KS_MODDIR/kstats.ko"

	# arm64: a CPU going offline asks the firmware (PSCI) to switch it
	# off, a call that does not return when it succeeds.  Traced through
	# the direct backend, it held rmmod for ever after an offline.
	AFF=/sys/kernel/tracing/available_filter_functions
	if grep -q "^cpu_psci_cpu_die\b" $AFF; then
		for f in cpu_psci_cpu_die psci_0_2_cpu_off; do
			grep -q "^$f\b" $AFF || continue
			expect_errno "trace $f -> EINVAL" EINVAL ctl "trace $f"
			check "$f: the log says why" "dmesg | tail -n 3 | grep -q '$f: not traced: it never returns'"
		done
		check "trace *psci* (the rest of them)" ctl "trace *psci*"
		if [ -w $C1 ]; then
			check "CPU 1 offline and back while *psci* is traced" \
				'echo 0 > $C1 && echo 1 > $C1'
		fi
		check "remove *psci*" ctl "remove *psci*"
		rmmod_within_10s "rmmod kstats returns after an offline"
		check "insmod kstats after the offline" insmod "$KS_MODDIR/kstats.ko"
	fi
fi

# Resets racing records on both CPUs: every read stays consistent.
via="via direct"
have_direct || via=""	# the default backend
check "trace ks_target_delay $via" ctl "trace ks_target_delay $via bits 3"
rm -f /tmp/ks-stop
for cpu in 1 2; do
	taskset $cpu sh -c "while [ ! -e /tmp/ks-stop ]; do echo '500 100' > $T/delay; echo '500 3000' > $T/delay; done" &
done
bad=0
i=0
while [ $i -lt 60 ]; do
	ctl "reset ks_target_delay"
	echo '20 700' > $T/delay
	kstats check ks_target_delay > /tmp/ks-check.out 2>&1 || { bad=$((bad + 1)); cat /tmp/ks-check.out; }
	i=$((i + 1))
done
touch /tmp/ks-stop
wait
expect_eq "kstats check after 60 resets under load: failures" $bad 0
ctl "reset ks_target_delay"
echo '50 4000' > $T/delay
expect_range "min after reset is a real time" "$(node_field ks_target_delay min)" 4000 100000000
ctl "remove ks_target_delay"

# The longest command the grammar accepts fits in one write.
name=$(printf 'n%.0s' $(seq 63))
cpus=$(printf '0,1,%.0s' $(seq 15))0-1
cmd="trace $name start ks_target_mark_a end ks_target_mark_b bits 3 buckets 20 clock local clones yes sample 1000000 pid 1073741823 tgid 1073741823 comm aaaaaaaaaaaaaaa cpus $cpus gap no"
diag "command of ${#cmd} bytes"
check "a ${#cmd}-byte command is accepted" ctl "$cmd"
check "its node exists" test -e "$KS_DIR/$name"
ctl "remove $name"
unload_modules
