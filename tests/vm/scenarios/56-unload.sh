# SPDX-License-Identifier: GPL-2.0
# Unloading with direct calls that would not return before the module
# goes: rmmod's own syscall (its dispatcher is refused via direct), tasks
# that end inside a timed body (the exit scan), a task asleep inside one
# for 1000 s (woken on unload).  rmmod returns within 10 s each time.
. /ks/lib.sh

load_modules || exit 0
if need_direct "unloading with direct calls that would not return"; then
	# rmmod's own syscall runs through the syscall table's dispatcher:
	# the direct backend refuses it (unloading would wait for rmmod's
	# own call), the default takes another, and rmmod returns.
	disp=$(grep -m1 -oE '^(x64_sys_call|invoke_syscall)(\.[a-z]+\.[0-9]+)?( |$)' \
		/sys/kernel/tracing/available_filter_functions | tr -d ' ')
	if [ -n "$disp" ]; then
		expect_errno "trace $disp via direct -> EINVAL" EINVAL ctl "trace ${disp%%.*} via direct"
		check "the log says why" "dmesg | tail -n 3 | grep -q '${disp%%.*}: $disp may not return before the module goes'"
		check "trace ${disp%%.*} (the default backend)" ctl "trace ${disp%%.*}"
		check "not direct" "! node_field ${disp%%.*} attach | grep -q '^direct:'"
		check "its calls are timed" poll 500 "[ \"\$(node_field ${disp%%.*} samples)\" -gt 0 ]"
		rmmod_within_10s "rmmod kstats while ${disp%%.*} is traced returns"
		check "insmod kstats again" insmod "$KS_MODDIR/kstats.ko"
	fi

	# A task that ends inside a timed body never returns through the
	# trampoline: here a fatal signal, taken in get_signal(), which then
	# exits.  The exit scan takes those calls out of the ones rmmod
	# waits for; without it rmmod would wait for ever.
	check "trace get_signal via direct" ctl "trace get_signal via direct"
	killed=0
	for i in 1 2 3 4 5; do
		sleep 100 &
		victim=$!
		sleep 0.2
		kill -9 $victim
		wait $victim 2> /dev/null
		[ $? = 137 ] && killed=$((killed + 1))
	done
	expect_eq "5 tasks were killed (inside get_signal)" "$killed" 5
	check "remove get_signal" ctl "remove get_signal"
	said=$(dmesg | grep -c 'kstats: unloading waits')
	rmmod_within_10s "rmmod kstats returns"
	expect_eq "rmmod waited for no call" "$(dmesg | grep -c 'kstats: unloading waits')" "$said"
	check "insmod kstats again" insmod "$KS_MODDIR/kstats.ko"

	# A task asleep inside a timed body may sleep there for ever (an idle
	# worker in schedule()): unloading wakes it, as livepatch moves its
	# sleepers on.  Here a sleep of 1000 s, inside schedule().
	check "trace schedule via direct" ctl "trace schedule via direct"
	sleep 1000 &
	sleeper=$!
	check "the sleeper sleeps (in schedule)" poll 500 "grep -q '^State:.*S' /proc/$sleeper/status"
	check "remove schedule" ctl "remove schedule"
	rmmod_within_10s "rmmod kstats returns"
	check "the sleeper sleeps on" "kill -0 $sleeper"
	kill $sleeper
	wait $sleeper 2> /dev/null
	check "insmod kstats again" insmod "$KS_MODDIR/kstats.ko"
fi
unload_modules
