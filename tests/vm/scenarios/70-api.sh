# SPDX-License-Identifier: GPL-2.0
# The annotation API (include/linux/kstats.h): a node made by kstats_new()
# in kstats_api_sample.ko, filled by sections of known length and count and
# by known values; start/stop/reset through both files; delete while
# recording; and a client written for the original header.
. /ks/lib.sh

load_modules || exit 0
[ -f /modules/kstats_api_sample.ko ] || { fail "kstats_api_sample.ko staged"; exit 0; }
check "insmod kstats_api_sample.ko" insmod /modules/kstats_api_sample.ko
A=/sys/kernel/debug/kstats_api_sample
N=ks_api
ncpu=$(grep -c ^processor /proc/cpuinfo)

check "kstats_new($N, 5)" "echo '$N 5' > $A/new"
expect_eq "attach=api" "$(node_field $N attach)" "api:$N"
expect_eq "starts active" "$(node_field $N state)" active
expect_eq "bits 5" "$(node_field $N bits)" 5
check "listed in _control" "grep -qx '$N api active 0 0' $KS_CTL"
expect_errno "same name again -> the sample's EEXIST" EEXIST "echo '$N 5' > $A/new"

# sections: exact count, p50 within the slot precision (+ emulation slack)
taskset 1 sh -c "echo '300 100000' > $A/section"
expect_eq "300 sections -> 300 samples" "$(node_field $N samples)" 300
p50=$(node_field $N p50)
expect_range "section p50 ($p50) >= the 100 us spin, within 1/32 + $((KS_SLACK / 1000)) us" "$p50" 100000 $((100000 + 100000 / 32 + KS_SLACK))
expect_range "section min >= 100 us" "$(node_field $N min)" 100000 $((100000 + 100000 / 32 + KS_SLACK))

# the clock: a section reads the counter where it stands for time, as a
# traced call does, and its time goes into the slots as ns (the maker's
# own values are ns too); local_clock() once the counter is unstable
counter=tsc
[ "$(uname -m)" = aarch64 ] && counter=cntvct
U=/sys/module/kstats/parameters/counter_unstable
if [ $counter = tsc ] && tsc_gave_up; then
	# the kernel itself gave up the TSC (49-clock says the same)
	expect_eq "sections read local_clock(): the kernel marked the TSC unstable" \
		"$(node_field $N clock) $(node_field $N clock_by)" "local no_stable_counter"
	expect_eq "the slots hold ns" "$(node_field $N slots)" ns
	skip "counter marked unstable" "the kernel marked the TSC unstable first"
else
	expect_eq "sections read the $counter" "$(node_field $N clock)" $counter
	expect_eq "the slots hold ns" "$(node_field $N slots)" ns
	check "and the header names no frequency" "! node_field $N hz"
	check "counter marked unstable" "echo 1 > $U"
	expect_eq "sections fall back to local_clock" "$(node_field $N clock)" local
	check "the log says why" "dmesg | grep -q '$N: the $counter is unstable: local_clock() from now on'"
fi
taskset 1 sh -c "echo '100 100000' > $A/section"
expect_eq "300 + 100 sections" "$(node_field $N samples)" 400
expect_range "min still >= 100 us" "$(node_field $N min)" 100000 $((100000 + 100000 / 32 + KS_SLACK))
check "counter stable again" "echo 0 > $U"

# reset through the node file, then known values
check "reset (node file)" "echo reset > $KS_DIR/$N"
expect_eq "reset -> 0 samples" "$(node_field $N samples)" 0
check "1000 x KSTATS_RECORD(777)" "echo '1000 777' > $A/record"
expect_eq "1000 samples" "$(node_field $N samples)" 1000
expect_eq "avg 777" "$(node_field $N avg)" 777
expect_eq "min 777" "$(node_field $N min)" 777
expect_eq "max 777" "$(node_field $N max)" 777
expect_eq "p50 777 (slot mean)" "$(node_field $N p50)" 777
check "CPUS row: 1000 in one slot" "grep CPUS $KS_DIR/$N | grep -q 'count     1000  avg      777'"

# hard interrupt context: 50 on every CPU
check "record_irq 50 x 5 on each CPU" "echo '50 5' > $A/record_irq"
expect_eq "1000 + 50 x $ncpu samples" "$(node_field $N samples)" $((1000 + 50 * ncpu))

# stop / start / reset through _control
check "stop (_control)" ctl "stop $N"
expect_eq "stopped" "$(node_field $N state)" stopped
echo '100 1000' > $A/section
echo '100 5' > $A/record
expect_eq "stopped: no new samples" "$(node_field $N samples)" $((1000 + 50 * ncpu))
check "start (_control)" ctl "start $N"
check "reset (_control)" ctl "reset $N"
echo '10 4' > $A/record
expect_eq "started again: 10 samples" "$(node_field $N samples)" 10
check "stop (node file)" "echo stop > $KS_DIR/$N"
echo '10 4' > $A/record
expect_eq "stopped by its file: still 10" "$(node_field $N samples)" 10
check "start (node file)" "echo start > $KS_DIR/$N"

# only kstats_delete() removes it
expect_errno "remove (_control) -> EBUSY" EBUSY ctl "remove $N"
check "remove all leaves it" ctl "remove all"
check "still there" test -e $KS_DIR/$N

# the CLI reads it like any node
if command -v kstats >/dev/null; then
	check "kstats show" "kstats show $N | grep -q $N"
	check "kstats list names it" "kstats list | grep -q '$N'"
	check "kstats save: attach api, its symbol" "kstats save $N -o /tmp/api.json && grep -q '\"attach\": \"api\"' /tmp/api.json && grep -q '\"symbols\": \[\"$N\"\]' /tmp/api.json"
else
	skip "kstats CLI" "no kstats in /usr/bin"
fi

# delete, and delete/new while a thread and an hrtimer record into it
check "delete" "echo 1 > $A/delete"
check "node file gone" "! test -e $KS_DIR/$N"
check "not listed" "! grep -q '^$N ' $KS_CTL"
check "hammer on" "echo 1 > $A/hammer"
i=0
while [ $i -lt 30 ]; do
	echo "$N 3" > $A/new || fail "new #$i while recording"
	taskset 1 sh -c "echo '20 0' > $A/record"
	echo 1 > $A/delete || fail "delete #$i while recording"
	i=$((i + 1))
done
check "hammer off" "echo 0 > $A/hammer"
loops=$(dmesg | sed -n 's/.*kstats_api_sample: hammer: \([0-9]*\) loops.*/\1/p' | tail -1)
expect_range "the hammer ran ($loops loops)" "${loops:-0}" 1 1000000000
check "30 new/delete while recording: no node left" "! test -e $KS_DIR/$N"
check "rmmod kstats_api_sample" rmmod kstats_api_sample

# a client of the original header, unchanged
check "insmod kstats_lr_client.ko" insmod /modules/kstats_lr_client.ko
expect_eq "lr_client: 100 samples" "$(node_field lr_client samples)" 100
expect_eq "lr_client: min 1" "$(node_field lr_client min)" 1
expect_eq "lr_client: max 100" "$(node_field lr_client max)" 100
expect_eq "lr_client: avg 50" "$(node_field lr_client avg)" 50
expect_eq "lr_client2 (kstats2_new): 1 sample" "$(node_field lr_client2 samples)" 1
check "rmmod kstats_lr_client" rmmod kstats_lr_client
check "its nodes are gone" "! test -e $KS_DIR/lr_client && ! test -e $KS_DIR/lr_client2"
unload_modules
