# SPDX-License-Identifier: GPL-2.0
# SMP stress on 4 vCPUs (tests/vm/run.sh --smp 4; make test runs it once
# per kernel, make test-stress with ks.stress=10 on the kernel command
# line for ten times the iterations).  For a fixed number of iterations:
#   - a worker pinned to each vCPU calls the target's functions, in rounds
#     of known calls as long as the writers run, through nodes on every
#     backend that are never touched (exact counts) and a node with a cpus
#     filter (bounds);
#   - three writers trace, read, reset and remove the same and different
#     functions on every backend, with options, racing each other;
#   - readers check that the exact nodes' samples never go backwards and
#     that each reads back whole (kstats check), and hold node files open
#     while the writers remove them;
#   - vCPUs 2 and 3 go offline and come back all along;
# then kstats is removed while nodes on every backend are attached and
# calls run in all of them, and loaded again, several times.
. /ks/lib.sh

scale=1
for a in $(cat /proc/cmdline); do
	case $a in ks.stress=*) scale=${a#*=} ;; esac
done
ncpu=$(nproc)
if [ "$ncpu" -lt 4 ]; then
	skip "SMP stress" "needs 4 vCPUs (run.sh --smp 4), has $ncpu"
	exit 0
fi
load_modules || exit 0
T=$KS_TDIR
S=/tmp/stress
rm -rf $S
mkdir -p $S
up0=$(cut -d' ' -f1 /proc/uptime)

fp=kretprobe
grep -qw register_fprobe_syms /proc/kallsyms && fp=fprobe
# direct where the kernel has ftrace direct calls (not arm64 6.1): there
# the node it would time exactly goes on kretprobe, samples + missed exact.
dr=direct
need_direct "direct: the stress's exact node and rmmod rounds (kretprobe instead)" || dr=kretprobe
backends="kretprobe"
[ $dr = direct ] && backends="direct $backends"
[ $fp = fprobe ] && backends="$backends fprobe"

N=200			# calls per write
K=$((4 * scale))	# rounds per worker, at least: they go on while writers run
M=$((2 * scale))	# rounds per writer
H=$((2 * scale))	# offline/online cycles of vCPUs 2 and 3, at least
R=$((15 * scale))	# rounds per monitor, at least
L=$((1 * scale))	# rmmod/insmod cycles with calls in flight
RD=8			# recursion depth
NR=$((N / 10))		# recursive top calls per write
NS=$((N / 4))		# sections per write

# Nodes that nothing but the workers touch: exact counts on every backend.
check "trace ks_target_empty via $dr" ctl "trace ks_target_empty via $dr"
check "trace ks_target_args6 via kretprobe" ctl "trace ks_target_args6 via kretprobe"
check "trace ks_target_recurse via $fp" ctl "trace ks_target_recurse via $fp"
check "trace sec (section)" ctl "trace sec start ks_target_mark_a end ks_target_mark_b"
check "trace ks_target_clone cpus 1-2" ctl "trace ks_target_clone cpus 1-2"
check "trace sec3 (section, cpus 3)" ctl "trace sec3 start ks_target_mark_a end ks_target_mark_b cpus 3"
# call sites and slowest calls: kt_site_a, b and c call it 1, 2 and 3
# times a round (20, 80 and 320 us); two sites kept apart, c's in "other"
check "trace ks_target_site via $dr callers 2 slowest 4" \
	ctl "trace ks_target_site via $dr callers 2 slowest 4"
exact="ks_target_empty ks_target_args6 ks_target_recurse sec ks_target_clone sec3 ks_target_site"
nexact=$(echo $exact | wc -w)

# Have the three writers finished?
writers_done() {
	[ -e $S/writer.1 ] && [ -e $S/writer.2 ] && [ -e $S/writer.3 ]
}

# worker CPU: rounds of known calls, K at least and until the writers are
# done; a failed write (a function that saw wrong arguments, a wrong result
# or a broken stack trace) is counted.
worker() {
	while [ ! -e $S/go ]; do :; done
	bad=0 i=0
	while [ $i -lt $K ] || ! writers_done; do
		echo $N > $T/empty || bad=$((bad + 1))
		echo $N > $T/args || bad=$((bad + 1))
		echo "$NR $RD" > $T/recurse || bad=$((bad + 1))
		echo $N > $T/clone || bad=$((bad + 1))
		echo "$NS 200" > $T/section || bad=$((bad + 1))
		echo "$((N / 4)) 300" > $T/delay || bad=$((bad + 1))
		echo $((N / 8)) > $T/part || bad=$((bad + 1))
		echo $((N / 8)) > $T/isra || bad=$((bad + 1))
		echo 10 > $T/unwind || bad=$((bad + 1))
		echo 1 > $T/callers || bad=$((bad + 1))
		i=$((i + 1))
	done
	echo "$bad $i" > $S/worker.$1
	diag "worker.$1 done at $(cut -d' ' -f1 /proc/uptime)"
}

# writer J: trace, read, reset, remove; races with the other writers on
# the same names give EEXIST and ENOENT, nothing else may fail.
writer() {
	while [ ! -e $S/go ]; do :; done
	id=$1 nt=0 nr=0 nm=0 i=0
	set -- $backends
	nb=$#
	while [ $i -lt $M ]; do
		k=$(((i + id) % 4))
		case $k in
		0)	f=ks_target_delay ;;
		1)	f=ks_target_unwind ;;
		2)	f=ks_target_part ;;
		3)	f=ks_target_isra ;;
		esac
		j=$(((i * 7 + id) % nb + 1))
		eval b=\${$j}
		via="via $b"
		[ $k -ge 2 ] && via=""	# clones whose arguments BTF cannot tell
		case $((i % 5)) in
		0)	opt="" ;;
		1)	opt="gap yes" ;;
		2)	opt="sample 3" ;;
		3)	opt="cpus 0-1" ;;
		4)	opt="clock tsc bits 5" ;;
		esac
		ctl "trace $f $via $opt" 2>> $S/err.$id && nt=$((nt + 1))
		cat $KS_DIR/$f > /dev/null 2>&1
		ctl "reset $f" 2>> $S/err.$id && nr=$((nr + 1))
		cat $KS_DIR/$f > /dev/null 2>&1
		if [ $((i % 3)) = 0 ]; then
			ctl "trace wsec$id start ks_target_mark_a end ks_target_mark_b" 2>> $S/err.$id &&
				nt=$((nt + 1))
			ctl "remove wsec$id" 2>> $S/err.$id && nm=$((nm + 1))
		fi
		ctl "remove $f" 2>> $S/err.$id && nm=$((nm + 1))
		i=$((i + 1))
	done
	echo "$nt $nr $nm" > $S/writer.$id
	diag "writer.$id done at $(cut -d' ' -f1 /proc/uptime)"
}

# monitor: the exact nodes' samples never go backwards, and every read of
# them parses whole; R rounds at least and until the writers are done.
monitor() {
	while [ ! -e $S/go ]; do :; done
	back=0 broken=0 i=0
	for n in $exact; do echo 0 > $S/last.$n; done
	while [ $i -lt $R ] || ! writers_done; do
		for n in $exact; do
			s=$(node_field $n samples)
			read -r last < $S/last.$n
			if [ -z "$s" ] || [ "$s" -lt "$last" ]; then
				back=$((back + 1))
				echo "$n: $last then '$s'" >> $S/back
			fi
			echo "${s:-0}" > $S/last.$n
		done
		n=$(echo $exact | cut -d' ' -f$((i % nexact + 1)))
		kstats check $n > $S/check.out 2>&1 ||
			{ broken=$((broken + 1)); cat $S/check.out >> $S/broken; }
		i=$((i + 1))
	done
	echo "$back $broken $i" > $S/monitor
	diag "monitor done at $(cut -d' ' -f1 /proc/uptime)"
}

# holder: while the writers run, opens the nodes they churn, reads a line,
# lets them remove the node, reads the rest.
holder() {
	exec 2> /dev/null
	while [ ! -e $S/go ]; do :; done
	held=0
	while ! writers_done; do
		for f in ks_target_delay ks_target_unwind ks_target_part ks_target_isra; do
			{
				read -r line && held=$((held + 1))
				cat $KS_CTL > /dev/null
				cat > /dev/null
			} < $KS_DIR/$f
		done
	done
	echo $held > $S/holder
	diag "holder done at $(cut -d' ' -f1 /proc/uptime)"
}

# hotplug: vCPUs 2 and 3 offline and back, H times at least and until the
# writers are done.
hotplug() {
	while [ ! -e $S/go ]; do :; done
	bad=0 i=0
	while [ $i -lt $H ] || ! writers_done; do
		for c in 2 3; do
			echo 0 > /sys/devices/system/cpu/cpu$c/online || bad=$((bad + 1))
		done
		for c in 3 2; do
			echo 1 > /sys/devices/system/cpu/cpu$c/online || bad=$((bad + 1))
		done
		i=$((i + 1))
	done
	echo "$bad $i" > $S/hotplug
	diag "hotplug done at $(cut -d' ' -f1 /proc/uptime)"
}

pids=""
for c in 0 1 2 3; do
	worker $c &
	taskset -p $((1 << c)) $! > /dev/null
	pids="$pids $!"
done
for w in 1 2 3; do
	writer $w &
	pids="$pids $!"
done
monitor &
pids="$pids $!"
holder &
pids="$pids $!"
hotplug &
pids="$pids $!"
touch $S/go
# shellcheck disable=SC2086
wait $pids
up1=$(cut -d' ' -f1 /proc/uptime)

bad=0 rounds=0
for c in 0 1 2 3; do
	read -r b r < $S/worker.$c || b=missing
	[ "$b" = 0 ] || bad=$c:$b
	eval r$c=$r
	rounds=$((rounds + r))
done
expect_eq "4 workers, $rounds rounds: every write intact (arguments, results, stack traces)" $bad 0

# Exact counts on the untouched nodes.
calls=$((rounds * N))
if [ $dr = direct ]; then
	expect_eq "direct: ks_target_empty timed $calls calls" "$(node_field ks_target_empty samples)" $calls
	expect_eq "direct: nothing missed" "$(node_field ks_target_empty missed)" 0
else
	s=$(node_field ks_target_empty samples)
	m=$(node_field ks_target_empty missed)
	expect_eq "$dr: ks_target_empty samples + missed = $calls (missed $m)" $((s + m)) $calls
fi
s=$(node_field ks_target_args6 samples)
m=$(node_field ks_target_args6 missed)
expect_eq "kretprobe: ks_target_args6 samples + missed = $calls (missed $m)" $((s + m)) $calls
rcalls=$((rounds * NR * RD))
s=$(node_field ks_target_recurse samples)
m=$(node_field ks_target_recurse missed)
expect_eq "$fp: ks_target_recurse samples + missed = $rcalls (missed $m)" $((s + m)) $rcalls
# Sections move with their task between CPUs: at most one per section.
expect_range "section: samples" "$(node_field sec samples)" 1 $((rounds * NS))
# cpus 1-2: every call of the worker on vCPU 1 (never offline), none of the
# one on vCPU 0 (never moves); the others' as they were placed.
expect_range "cpus 1-2: ks_target_clone samples" "$(node_field ks_target_clone samples)" \
	$((r1 * N)) $(((r1 + r2 + r3) * N))
expect_range "cpus 3 (offline at times): sec3 samples" "$(node_field sec3 samples)" 0 $((rounds * NS))

# the call sites: each one's calls exact, and they add up to the node's
site=$(node_field ks_target_site samples)
if [ $dr = direct ]; then
	expect_eq "direct: ks_target_site timed 6 x $rounds calls" "$site" $((6 * rounds))
else
	m=$(node_field ks_target_site missed)
	expect_eq "$dr: ks_target_site samples + missed = 6 x $rounds (missed $m)" \
		$((site + m)) $((6 * rounds))
fi
# FUNCTION's calls on the node's "# caller" lines ("other": the rest's)
site_calls() {
	awk -v fn="$1" '$1 == "#" && $2 == "caller" {
			s = ""
			for (i = 4; i < NF; i++) if ($i == "site") s = $(i + 1)
			if (fn != "" && $3 != fn && index(s, fn "+") != 1) next
			for (i = 4; i < NF; i++) if ($i == "count") t += $(i + 1)
		}
		END { print t + 0 }' $KS_DIR/ks_target_site
}
expect_eq "callers: the sites add up to the node's samples" "$(site_calls "")" "$site"
expect_eq "callers: kt_site_a's calls, one a round" "$(site_calls kt_site_a)" $rounds
expect_eq "callers: kt_site_b's calls, two a round" "$(site_calls kt_site_b)" $((2 * rounds))
expect_eq "callers: the rest's (kt_site_c's), three a round" "$(site_calls other)" $((3 * rounds))
expect_eq "slowest: 4 kept" "$(grep -c '^# slow ' $KS_DIR/ks_target_site)" 4
expect_range "slowest: disturbed at most the samples" \
	"$(node_field ks_target_site disturbed)" 0 "$site"

read -r back broken mrounds < $S/monitor
expect_eq "samples never went backwards ($mrounds rounds x $nexact nodes)" "$back" 0
[ -s $S/back ] && diag "$(cat $S/back)"
expect_eq "every read parsed whole ($mrounds kstats check)" "$broken" 0
[ -s $S/broken ] && diag "$(head -20 $S/broken)"

ops=0
for w in 1 2 3; do
	read -r nt nr nm < $S/writer.$w
	ops=$((ops + nt + nr + nm))
	expect_range "writer $w: traced, reset and removed ($nt $nr $nm of $M)" $((nt > 0 && nr > 0 && nm > 0)) 1 1
done
others=$(cat $S/err.* | grep -v -e 'File exists' -e 'No such file or directory')
expect_eq "writers: no error but EEXIST and ENOENT" "$others" ""
read -r held < $S/holder
expect_range "node files held open while the writers ran ($held)" "$held" 1 1000000
read -r hbad hcycles < $S/hotplug
expect_eq "$hcycles offline/online cycles of vCPUs 2 and 3" "$hbad" 0
expect_eq "every vCPU online again" "$(cat /sys/devices/system/cpu/online)" 0-3
diag "stress: $((3 * calls + rcalls)) calls timed exactly, $ops trace/reset/remove, $hcycles hotplug cycles, in $(awk -v a=$up0 -v b=$up1 'BEGIN { print b - a }') s"
for n in $exact; do
	ctl "remove $n"
done
check "no node left" '[ "$(grep -vc "^#" $KS_CTL)" = 0 ]'

# rmmod while nodes on every backend are attached and calls run in each.
rm -f $S/stop
for c in 0 1 2 3; do
	(while [ ! -e $S/stop ]; do
		echo 200 > $T/empty; echo 200 > $T/args; echo "20 4" > $T/recurse
		echo "50 100" > $T/section
	done) &
	taskset -p $((1 << c)) $! > /dev/null
done
(while [ ! -e $S/stop ]; do echo "1 200" > $T/sleep; done) &
i=0
while [ $i -lt $L ]; do
	check "rmmod round $i: trace on every backend" \
		'ctl "trace ks_target_empty via $dr" && ctl "trace ks_target_args6 via kretprobe" &&
		 ctl "trace ks_target_recurse via $fp" && ctl "trace ks_target_sleep via $dr" &&
		 ctl "trace sec start ks_target_mark_a end ks_target_mark_b"'
	check "rmmod round $i: calls in flight" \
		'poll 1000 "[ \$(node_field ks_target_empty samples) -gt 0 ] && [ \$(node_field sec samples) -gt 0 ]"'
	if [ $i = 0 ]; then
		# procfs takes an open file back when its entry goes
		exec 4< $KS_DIR/ks_target_args6
		check "rmmod round $i: rmmod kstats while a node file is open" rmmod kstats
		expect_errno "rmmod round $i: the open node file reads EIO now" EIO 'cat <&4'
		exec 4<&-
	else
		check "rmmod round $i: rmmod kstats" rmmod kstats
	fi
	check "rmmod round $i: gone" '! grep -q "^kstats " /proc/modules && ! test -e $KS_DIR'
	check "rmmod round $i: insmod kstats" insmod $KS_MODDIR/kstats.ko
	# the shell's own writes, exactly, while the workers go on
	ctl "trace ks_target_empty via $dr pid $$"
	echo 1234 > $T/empty
	expect_eq "rmmod round $i: exact count after reload" \
		$(($(node_field ks_target_empty samples) + $(node_field ks_target_empty missed))) 1234
	ctl "remove ks_target_empty"
	i=$((i + 1))
done
touch $S/stop
wait
unload_modules
