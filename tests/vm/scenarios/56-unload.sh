# SPDX-License-Identifier: GPL-2.0
# Unloading with direct calls that would not return before the module
# goes: rmmod's own syscall (its dispatcher is refused via direct), tasks
# that end inside a timed body (the exit scan), a task asleep inside one
# for 1000 s (woken on unload).  rmmod returns within 10 s each time.
# A thread's life in one call (a kthread's function, ret_from_fork) is
# refused via direct; one started after the attach keeps rmmod waiting,
# the log names it, and rmmod returns once the thread ends.
. /ks/lib.sh

# stopped_in_get_signal PID...: is each task stopped (SIGSTOP) inside
# get_signal(), entered through kstats' trampoline, as its kernel stack
# says (do_signal_stop, get_signal, ks_direct_fast [kstats], get_signal's
# call site)?  Without /proc/PID/stack, its wchan: do_signal_stop(),
# which only get_signal() calls.
stopped_in_get_signal() {
	for p; do
		grep -q '^State:.*(stopped)' /proc/$p/status || return 1
		if [ -e /proc/$p/stack ]; then
			grep -q ' get_signal+' /proc/$p/stack || return 1
			grep -q ' ks_direct_[a-z_]*+.* \[kstats\]' /proc/$p/stack || return 1
		else
			[ "$(cat /proc/$p/wchan)" = do_signal_stop ] || return 1
		fi
	done
}

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
	# waits for; without it rmmod would wait for ever.  Each task is
	# stopped first (SIGSTOP), which it is inside get_signal(): its call
	# is timed and stays in flight, so rmmod (after the node's removal)
	# waits for exactly those, until SIGKILL ends them in the same call.
	check "trace get_signal via direct" ctl "trace get_signal via direct"
	victims=""
	for i in 1 2 3 4 5; do
		sleep 100 &
		victims="$victims $!"
	done
	kill -STOP $victims
	check "5 tasks stopped inside get_signal, through the trampoline" poll 500 "stopped_in_get_signal $victims"
	check "remove get_signal" ctl "remove get_signal"
	waits='kstats: unloading waits for 5 calls still inside get_signal to return'
	said=$(dmesg | grep -c "$waits")
	rmmod kstats &
	rmmoder=$!
	check "rmmod waits for their 5 calls in flight" \
		poll 1000 "[ \$(dmesg | grep -c '$waits') -gt $said ]"
	check "and waits on while they are stopped" "grep -q '^kstats ' /proc/modules"
	t0=$(uptime_cs)
	kill -9 $victims
	killed=0
	for v in $victims; do
		wait $v 2> /dev/null
		[ $? = 137 ] && killed=$((killed + 1))
	done
	expect_eq "5 tasks were killed (inside get_signal)" "$killed" 5
	check "rmmod kstats returns once they ended" poll 3000 '! grep -q "^kstats " /proc/modules'
	expect_range "rmmod returned within 10 s of the kill (cs)" $(($(uptime_cs) - t0)) 0 999
	wait $rmmoder
	check "insmod kstats again" insmod "$KS_MODDIR/kstats.ko"

	# A thread's life in one call: ret_from_fork() (a C function from
	# 6.6 on x86-64) runs a new kthread's whole life; so does what a
	# kernel thread runs (ks_target_thread, kstats_target's kt_thread).
	T=$KS_TDIR
	if grep -qE '^ret_from_fork( |$)' /sys/kernel/tracing/available_filter_functions; then
		expect_errno "trace ret_from_fork via direct -> EINVAL" EINVAL ctl "trace ret_from_fork via direct"
	else
		skip "trace ret_from_fork via direct" "ret_from_fork is not a traceable function here"
	fi
	check "start kt_thread" "echo 1 > $T/thread"
	check "kt_thread runs" poll 500 "grep -qx kt_thread /proc/[0-9]*/comm"
	expect_errno "trace ks_target_thread via direct (kt_thread runs it) -> EINVAL" EINVAL \
		ctl "trace ks_target_thread via direct"
	check "the log says why" "dmesg | tail -n 3 | grep -q 'ks_target_thread: ks_target_thread may not return before the module goes'"
	check "trace ks_target_thread (the default backend)" ctl "trace ks_target_thread"
	check "not direct" "! node_field ks_target_thread attach | grep -q '^direct:'"
	ctl "remove ks_target_thread"
	check "stop kt_thread" "echo 0 > $T/thread"
	# No thread runs it now (but one did: refused still)
	expect_errno "trace ks_target_thread via direct (kt_thread ran it) -> EINVAL" EINVAL \
		ctl "trace ks_target_thread via direct"
	check "rmmod kstats" rmmod kstats
	check "insmod kstats again" insmod "$KS_MODDIR/kstats.ko"
	# A new kstats has seen no thread run it: via direct is taken, and the thread
	# started next spends its life in a timed call.  rmmod waits for
	# it, names it, and returns once the thread ends.
	check "trace ks_target_thread via direct (no thread runs it)" ctl "trace ks_target_thread via direct"
	check "start kt_thread again" "echo 1 > $T/thread"
	check "remove ks_target_thread" ctl "remove ks_target_thread"
	rmmod kstats &
	rmmoder=$!
	check "rmmod names the thread it waits for" \
		poll 1000 "dmesg | grep -q 'unloading waits for kt_thread (pid [0-9]*), asleep inside ks_target_thread (a kernel thread'"
	sleep 1
	check "and waits on while kt_thread lives" "grep -q '^kstats ' /proc/modules"
	t0=$(uptime_cs)
	check "stop kt_thread" "echo 0 > $T/thread"
	check "rmmod kstats returns once the thread ended" poll 3000 '! grep -q "^kstats " /proc/modules'
	expect_range "rmmod returned within 10 s of the stop (cs)" $(($(uptime_cs) - t0)) 0 999
	wait $rmmoder
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
