# SPDX-License-Identifier: GPL-2.0
# The whole kernel at once: "trace * via direct" attaches every function
# ftrace offers that the direct backend can take (41,458 of 43,939 on
# Debian's 6.12) in one write, and "remove *" takes them all off in one.
# While every one of them is traced, the ground truth still counts
# exactly: ks_target_empty 1,000 calls, and each kt_gen_I of the target's
# family I + 1 (kstats_target's gen file).  The guest times of attach and
# remove are printed beside ftrace's own function tracer switched on and
# off in the same guest; the checks on them are gross (2 minutes).  After
# the remove: no node, the nodes' memory back (Slab within 16 MiB of
# before), a clean kernel log; then rmmod, which waits for the calls still
# inside a traced body (tasks asleep in schedule(): it wakes them once a
# second; those still there after one are named in the log), within a
# minute.
# ks-timeout: 360
. /ks/lib.sh

load_modules || exit 0
need_direct "the whole kernel at once" || { unload_modules; exit 0; }
# up to 6.5 (ftrace's direct _multi API) kstats takes 8,192 call sites at
# most (kmod/ks_direct.h: 6.1's ftrace took 9 to 34 KiB a call site)
if grep -qE ' register_ftrace_direct_multi$' /proc/kallsyms; then
	skip "the whole kernel at once" "8,192 direct call sites at most on kernels before 6.6 (kmod/ks_direct.h)"
	unload_modules
	exit 0
fi
T=$KS_TDIR
P=/sys/module/kstats/parameters/glob_max
mount -t tracefs nodev /sys/kernel/tracing 2> /dev/null
AFF=/sys/kernel/tracing/available_filter_functions
slab() { awk '$1 == "Slab:" { print $2 }' /proc/meminfo; }

naff=$(wc -l < $AFF)
if [ -w /sys/kernel/tracing/current_tracer ]; then
	t0=$(uptime_cs); echo function > /sys/kernel/tracing/current_tracer; t1=$(uptime_cs)
	echo nop > /sys/kernel/tracing/current_tracer; t2=$(uptime_cs)
	diag "ftrace's function tracer on $naff functions: on $((t1 - t0))0 ms, off $((t2 - t1))0 ms"
fi
gmax=$(cat $P)
echo 70000 > $P
s0=$(slab)
t0=$(uptime_cs)
check "trace * via direct bits 3: one write" ctl "trace * via direct bits 3"
t1=$(uptime_cs)
tail -n 2 $KS_DIR/_last | while read -r l; do diag "_last: $l"; done
dmesg | grep -E 'at once failed|no room' | head -n 5 | while read -r l; do diag "$l"; done
untold=$(sed -n 's/^untold \([0-9]*\):.*/\1/p' $KS_DIR/_last)
listed=$(grep -c '^refused ' $KS_DIR/_last)
set -- $(grep '^matched' $KS_DIR/_last)
matched=$2 attached=$4 refused=$6
n=$(grep -vc '^#' $KS_CTL)
diag "matched $matched of $naff, attached $attached, refused $refused in $((t1 - t0))0 ms; Slab +$(( $(slab) - s0 )) kB"
expect_eq "every attached function is a node" "$n" "$attached"
expect_eq "_last: the refused, listed ($listed) and untold (${untold:-0}), add up" \
	"$((listed + ${untold:-0}))" "$refused"
check "attach within 2 minutes ($((t1 - t0))0 ms)" '[ $((t1 - t0)) -lt 12000 ]'
check "most of what ftrace offers is attached ($attached of $naff)" '[ $((attached * 10)) -ge $((naff * 9)) ]'
expect_eq "ks_target_empty is one of them" "$(awk '$1 == "ks_target_empty" { print $2 }' $KS_CTL)" direct
# a thread's life in one call is never taken (kmod/ks_direct.c)
expect_eq "none of the functions a thread spends its life in" \
	"$(awk '$1 ~ /^(ret_from_fork|kthread|worker_thread|smpboot_thread_fn|kthreadd|rcu_gp_kthread)$/ { print $1 }' $KS_CTL)" ""

echo 1000 > $T/empty
echo 1 > $T/gen
expect_eq "ks_target_empty: 1000 calls, exactly, with everything traced" \
	"$(node_field ks_target_empty samples) $(node_field ks_target_empty missed)" "1000 0"
bad=$(awk '$1 ~ /^kt_gen_[0-9a-f][0-9a-f][0-9a-f]$/ {
	g++; want = ("0x" substr($1, 8)) + 1
	if ($4 != want || $5 != 0) print $1, $4, $5, "want", want
} END { if (g < 1000) print "only", g, "kt_gen nodes" }' $KS_CTL | head -5)
expect_eq "every kt_gen_I: I + 1 calls, none missed" "$bad" ""
called=$(awk '!/^#/ && $4 > 0' $KS_CTL | wc -l)
diag "called while traced: $called functions, $(awk '!/^#/ { s += $4; m += $5 } END { print s + 0, "calls,", m + 0, "missed" }' $KS_CTL)"

# a whole kernel's snapshots: the called functions only (save --called),
# twice, and compare ranking them by total time
t0=$(uptime_cs)
kstats save all --called -o /tmp/whole-a.json --label a 2> /tmp/whole-a.err
rc=$?
t1=$(uptime_cs)
saved=$(sed -n 's/^kstats: saved \([0-9]*\) nodes.*/\1/p' /tmp/whole-a.err)
check "save all --called: the $called called (${saved:-none} saved, rc $rc) in $((t1 - t0))0 ms (under 2 minutes)" \
	'[ $rc = 0 ] && [ "${saved:-0}" -ge "$called" ] && [ "$saved" -le $((called + 500)) ] && [ $((t1 - t0)) -lt 12000 ]'
echo 1000 > $T/empty
kstats save all --called -o /tmp/whole-b.json --label b 2> /dev/null
t0=$(uptime_cs)
kstats compare /tmp/whole-a.json /tmp/whole-b.json --rank total > /tmp/whole-c.txt 2>&1
rc=$?
t1=$(uptime_cs)
ranked=$(sed -n 's/^# \([0-9]*\) functions, ranked.*/\1/p' /tmp/whole-c.txt)
check "compare of the two: ${ranked:-no} functions ranked by total time (rc $rc) in $((t1 - t0))0 ms (under 2 minutes)" \
	'[ $rc = 0 ] && [ "${ranked:-0}" -ge "$called" ] && [ $((t1 - t0)) -lt 12000 ]'
rm -f /tmp/whole-?.json

t0=$(uptime_cs)
check "remove *: one write" ctl "remove *"
t1=$(uptime_cs)
diag "removed in $((t1 - t0))0 ms"
check "remove within 2 minutes ($((t1 - t0))0 ms)" '[ $((t1 - t0)) -lt 12000 ]'
expect_eq "no node left" "$(grep -vc '^#' $KS_CTL)" 0
check "the nodes' memory given back: Slab within 16 MiB of before" \
	poll 3000 '[ $(( $(slab) - s0 )) -lt 16384 ]'
diag "Slab +$(( $(slab) - s0 )) kB after the remove"

# The default backend: the functions the direct backend refuses go to
# fprobe, all on one fprobe (one registration: one each took minutes).
# ks_target_clone is one (a clone whose arguments may differ).
if grep -qw register_fprobe_ips /proc/kallsyms; then
	t0=$(uptime_cs)
	check "trace * bits 3 (the default backend): one write" ctl "trace * bits 3"
	t1=$(uptime_cs)
	l=$(grep '^matched' $KS_DIR/_last)
	fp=$(echo "$l" | sed -n 's/.* fprobe \([0-9]*\).*/\1/p')
	diag "the default backend: $l in $((t1 - t0))0 ms"
	check "the direct backend's refusals on fprobe (${fp:-none}), within 2 minutes ($((t1 - t0))0 ms)" \
		'[ "${fp:-0}" -ge 100 ] && [ $((t1 - t0)) -lt 12000 ]'
	echo 1000 > $T/clone
	echo 1000 > $T/empty
	expect_eq "ks_target_clone (fprobe) and ks_target_empty (direct): 1000 calls each, exactly" \
		"$(awk '$1 == "ks_target_clone" || $1 == "ks_target_empty" { print $1, $2, $4, $5 }' $KS_CTL | sort | tr '\n' ' ')" \
		"ks_target_clone fprobe 1000 0 ks_target_empty direct 1000 0 "
	t0=$(uptime_cs)
	check "remove *: one write" ctl "remove *"
	t1=$(uptime_cs)
	diag "removed in $((t1 - t0))0 ms"
	expect_eq "no node left" "$(grep -vc '^#' $KS_CTL)" 0
fi
echo "$gmax" > $P
check "rmmod kstats_target" rmmod kstats_target
t0=$(uptime_cs)
rmmod kstats &
check "rmmod kstats: gone within a minute" poll 6000 '! grep -q "^kstats " /proc/modules'
t1=$(uptime_cs)
wait
dmesg | grep 'unloading waits' | head -n 7 | while read -r l; do diag "$l"; done
diag "rmmod took $((t1 - t0))0 ms"
