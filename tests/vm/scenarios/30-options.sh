# SPDX-License-Identifier: GPL-2.0
# Filters, sampling, clocks and missed events, with exact expectations,
# on every backend the kernel has.
. /ks/lib.sh

load_modules || exit 0
T=$KS_TDIR
E=ks_target_empty
ncpu=$(nproc)

set_backends

# Start noise: other processes calling the traced function all along.
noise_start() {
	rm -f /tmp/stop
	( while [ ! -e /tmp/stop ]; do echo 10 > $T/empty; done ) &
	noise1=$!
	( while [ ! -e /tmp/stop ]; do echo 10 > $T/empty; done ) &
	noise2=$!
}
noise_stop() {
	touch /tmp/stop
	wait $noise1 $noise2 2>/dev/null
}
# A process that waits for /tmp/go, then runs "$@" (a shell command).
waiter() {
	rm -f /tmp/go
	sh -c "while [ ! -e /tmp/go ]; do :; done; $*" &
	wpid=$!
}

for b in $backends; do
	noise_start
	waiter "echo 1000 > $T/empty"
	check "$b: trace pid $wpid" ctl "trace $E pid $wpid via $b"
	touch /tmp/go; wait $wpid
	expect_eq "$b: pid filter: exactly the process's 1000 calls" "$(node_field $E samples)" 1000
	ctl "remove $E"

	waiter "echo 777 > $T/empty"
	check "$b: trace tgid $wpid" ctl "trace $E tgid $wpid via $b"
	touch /tmp/go; wait $wpid
	expect_eq "$b: tgid filter: exactly 777" "$(node_field $E samples)" 777
	ctl "remove $E"

	check "$b: trace comm ksworker" ctl "trace $E comm ksworker via $b"
	waiter "printf ksworker > /proc/\$\$/comm; echo 555 > $T/empty"
	touch /tmp/go; wait $wpid
	expect_eq "$b: comm filter: exactly 555" "$(node_field $E samples)" 555
	ctl "remove $E"
	noise_stop

	if [ "$ncpu" -ge 2 ]; then
		rm -f /tmp/stop
		( while [ ! -e /tmp/stop ]; do echo 10 > $T/empty; done ) &
		noise1=$!
		taskset -p 1 $noise1 >/dev/null
		check "$b: trace cpus 1" ctl "trace $E cpus 1 via $b"
		taskset 2 sh -c "echo 4321 > $T/empty"
		touch /tmp/stop; wait $noise1
		expect_eq "$b: cpus filter: exactly the 4321 calls on CPU 1" "$(node_field $E samples)" 4321
		check "$b: no CPU 0 row" '! grep -q "CPU  *0 " $KS_DIR/$E'
		ctl "remove $E"
	else
		skip "$b: cpus filter" "needs 2 CPUs"
	fi

	# Sampling: one in 10 per CPU, first call recorded.
	check "$b: trace sample 10" ctl "trace $E sample 10 via $b"
	taskset 1 sh -c "echo 10000 > $T/empty"
	expect_eq "$b: sample 10: 10000 calls -> 1000 samples" "$(node_field $E samples)" 1000
	expect_eq "$b: sample rate in header" "$(node_field $E sample)" 10
	check "$b: estimated calls shown" 'grep -q "^# sampled 1 in 10: estimated calls 10000$" $KS_DIR/$E'
	ctl "remove $E"

	# The counter clock: cycles of x86-64's TSC (0.5-20 GHz) or of arm64's
	# CNTVCT (1 MHz-1.1 GHz: 1 GHz from Armv8.6 on, 62.5 MHz in QEMU).
	lo=25000 hi=1000000 range="0.5-20 GHz" counter=tsc
	hzlo=500000000 hzhi=20000000000
	if [ "$(uname -m)" = aarch64 ]; then
		lo=50 hi=55000 range="1 MHz-1.1 GHz" counter=cntvct
		hzlo=1000000 hzhi=1100000000
	fi
	check "$b: trace clock tsc" ctl "trace ks_target_delay clock tsc via $b"
	echo "100 50000" > $T/delay
	expect_eq "$b: tsc unit" "$(node_field ks_target_delay unit)" cycles
	expect_eq "$b: tsc clock" "$(node_field ks_target_delay clock)" $counter
	expect_eq "$b: tsc slots" "$(node_field ks_target_delay slots)" cycles
	expect_range "$b: tsc hz" "$(node_field ks_target_delay hz)" $hzlo $hzhi
	expect_eq "$b: tsc samples" "$(node_field ks_target_delay samples)" 100
	expect_range "$b: 50 us in cycles ($range)" "$(node_field ks_target_delay p50)" $lo $hi
	ctl "remove ks_target_delay"

	# The default clock: the counter's cycles in the slots, ns in the
	# text; local_clock() once the counter is unstable (forced here),
	# its ns turned into cycles so that the slots keep one unit.
	U=/sys/module/kstats/parameters/counter_unstable
	check "$b: trace ks_target_delay bits 5 (default clock)" ctl "trace ks_target_delay bits 5 via $b"
	echo "100 50000" > $T/delay
	expect_eq "$b: default clock" "$(node_field ks_target_delay clock)" $counter
	expect_eq "$b: default unit" "$(node_field ks_target_delay unit)" ns
	expect_eq "$b: default slots" "$(node_field ks_target_delay slots)" cycles
	expect_range "$b: default hz" "$(node_field ks_target_delay hz)" $hzlo $hzhi
	expect_range "$b: 50 us p50 in ns" "$(node_field ks_target_delay p50)" 50000 $((50000 + 50000 / 16 + 20000))
	expect_range "$b: 50 us min in ns" "$(node_field ks_target_delay min)" 50000 $((50000 + 50000 / 16 + 20000))
	check "$b: no fallback yet" '! grep -q "^# fallback" $KS_DIR/ks_target_delay'
	check "$b: counter marked unstable" "echo 1 > $U"
	expect_eq "$b: fallen back to local" "$(node_field ks_target_delay clock)" local
	check "$b: the header says why" 'grep -q "^# fallback $counter unstable: " $KS_DIR/ks_target_delay'
	check "$b: the log says why" "dmesg | grep -q 'ks_target_delay: the $counter is unstable: local_clock() from now on'"
	echo "100 50000" > $T/delay
	expect_eq "$b: fallback samples" "$(node_field ks_target_delay samples)" 200
	expect_eq "$b: fallback slots still cycles" "$(node_field ks_target_delay slots)" cycles
	expect_range "$b: fallback p50 in ns" "$(node_field ks_target_delay p50)" 50000 $((50000 + 50000 / 16 + 20000))
	expect_range "$b: fallback min in ns" "$(node_field ks_target_delay min)" 50000 $((50000 + 50000 / 16 + 20000))
	check "$b: trace ks_target_empty while unstable" ctl "trace ks_target_empty via $b"
	expect_eq "$b: a new node reads local" "$(node_field ks_target_empty clock)" local
	expect_eq "$b: in ns" "$(node_field ks_target_empty slots)" ns
	check "$b: and names no frequency" '! node_field ks_target_empty hz'
	check "$b: counter stable again" "echo 0 > $U"
	ctl "remove ks_target_empty"
	ctl "remove ks_target_delay"

	# Missed events: 5 sleepers at once, 2 instances.  The direct
	# backend keeps each call's state on its own stack, and fprobe from
	# 6.14 on the function-graph shadow stack: no pool to miss, and the
	# header says maxactive=0.
	check "$b: trace ks_target_sleep maxactive 2" ctl "trace ks_target_sleep maxactive 2 via $b"
	for i in 1 2 3 4 5; do echo "1 1000" > $T/sleep & done
	wait
	pool=2
	[ $b = direct ] && pool=0
	[ $b = fprobe ] && kver_at_least 6 14 && pool=0
	expect_eq "$b: header maxactive" "$(node_field ks_target_sleep maxactive)" $pool
	if [ $pool = 0 ]; then timed=5 missed=0; else timed=2 missed=3; fi
	expect_eq "$b: $timed sleepers timed" "$(node_field ks_target_sleep samples)" $timed
	expect_eq "$b: $missed sleepers reported missed" "$(node_field ks_target_sleep missed)" $missed
	check "$b: missed shown in _control" 'grep -q "^ks_target_sleep $b active $timed $missed$" $KS_CTL'
	ctl "remove ks_target_sleep"
done

# Ranges and limits.
expect_errno "sample 0 -> EINVAL" EINVAL ctl "trace $E sample 0"
expect_errno "maxactive 100000 -> EINVAL" EINVAL ctl "trace $E maxactive 100000"
expect_errno "bad cpu list -> EINVAL" EINVAL ctl "trace $E cpus 0-x"
expect_errno "comm too long -> EINVAL" EINVAL ctl "trace $E comm abcdefghijklmnopq"
expect_errno "option twice -> EINVAL" EINVAL ctl "trace $E bits 3 bits 4"
expect_errno "bits 8 default buckets too big per CPU -> EINVAL" EINVAL ctl "trace $E bits 8"
check "bits 8 with few buckets fits" ctl "trace $E bits 8 buckets 6"
ctl "remove $E"
long=$(printf 'x%.0s' $(seq 1 70))
expect_errno "name longer than 63 -> EINVAL" EINVAL ctl "trace $long"
check "reset all" ctl "reset all"
check "no node left behind by failures" '[ "$(grep -vc "^#" $KS_CTL)" = 0 ]'
unload_modules
