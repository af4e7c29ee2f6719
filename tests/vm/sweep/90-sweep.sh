# SPDX-License-Identifier: GPL-2.0
# The sweep (tests/vm/sweep.sh, make test-sweep): kstats attached to every
# function ftrace offers (ks.sweep=full) or to a seeded random sample of
# them (ks.sweep=short, the default), in batches of globs, each under a
# mixed workload (ksmix on a tmpfs and on ext4, a module load and unload,
# vCPU 1 offline and online, an idle moment); every node read and parsed,
# every glob removed.  A second pass forces via fprobe and via kretprobe
# on a random sample of the batches.  A third, the whole kernel, traces
# every function (ks.sweep_whole=all, the full sweep) or a seeded random
# 10,000 (the short one) at once, default backend, under the same
# workload, with kstats_target's ground truth counted exactly meanwhile.
# Then rmmod, and the slab memory compared with before.
#
# Kernel command line knobs: ks.sweep=full|short, ks.seed=N (replays a
# sample), ks.sweep_batch=B (functions per batch, default 400, under
# glob_max), ks.sweep_sample=N (short: functions, default 2000),
# ks.sweep_pass2=N (functions per forced backend, default 5000 full, 250
# short), ks.sweep_ms=MS (workload per batch, default 1000),
# ks.sweep_only=GLOB,GLOB... (one batch of these globs, counts unchecked:
# to replay a batch), ks.sweep_hung=S (the hung-task timeout, default
# 30 s), ks.sweep_whole=all|N|0 (the whole pass: every function, a random
# N or none; default all full, 10000 short), ks.sweep_whole_only=1 (the
# whole pass alone).
#
# Each batch prints "# sweep: batch K/N start GLOB..." before it and
# "# sweep: batch K/N done ..." after: the host names the batch a guest
# stopped in from the last of these.
. /ks/lib.sh
set -f			# globs are data here, never file names

mode=short seed="" B=400 sample=2000 pass2="" wl_ms=1000 only="" hung=30 hotplug=1
whole="" whole_only=0
for a in $(cat /proc/cmdline); do
	case $a in
	ks.sweep=*)		mode=${a#*=} ;;
	ks.seed=*)		seed=${a#*=} ;;
	ks.sweep_batch=*)	B=${a#*=} ;;
	ks.sweep_sample=*)	sample=${a#*=} ;;
	ks.sweep_pass2=*)	pass2=${a#*=} ;;
	ks.sweep_ms=*)		wl_ms=${a#*=} ;;
	ks.sweep_only=*)	only=${a#*=} ;;
	ks.sweep_hung=*)	hung=${a#*=} ;;
	ks.sweep_hotplug=*)	hotplug=${a#*=} ;;
	ks.sweep_whole=*)	whole=${a#*=} ;;
	ks.sweep_whole_only=*)	whole_only=${a#*=} ;;
	esac
done
case $mode in
full)	pass2=${pass2:-5000} unit=$B whole=${whole:-all} ;;
short)	pass2=${pass2:-250} unit=$((B / 4)) whole=${whole:-10000} ;;
*)	fail "ks.sweep=$mode: full or short"; exit 0 ;;
esac
[ -n "$seed" ] || seed=$(awk 'BEGIN { srand(); print int(rand() * 1000000) }')
# vCPU 1 going offline and online leaves the kernel unable to finish an
# RCU Tasks grace period asked for from vCPU 1 afterwards: measured with
# no kstats loaded (a function-tracer instance's removal, pinned to vCPU 1
# after one offline and online, waited for ever on 6.12 and 7.3, x86-64
# and arm64, under TCG), and a direct node's removal waits for one.  So
# the commands and rmmod run on vCPU 0; the workload runs on both.
if [ "$hotplug" = 1 ]; then
	ctl() {
		taskset 1 sh -c 'echo "$1" > "$2"' ctl "$*" "$KS_CTL"
	}
	pin0="taskset 1"
else
	pin0=""
fi
S=/tmp/sweep
dt() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }
rm -rf $S
mkdir -p $S
t_start=$(cut -d' ' -f1 /proc/uptime)
diag "sweep: mode $mode seed $seed batch $B unit $unit sample $sample pass2 $pass2 whole $whole workload ${wl_ms}ms"

# The kernel log's state: bad lines so far, and a watch for what the
# harness' patterns miss (RCU stalls, soft lockups, hung tasks).
KS_DMESG_STALL='rcu.*(stall|detected stalls)|soft lockup|blocked for more than|hung_task'
[ -w /proc/sys/kernel/hung_task_timeout_secs ] &&
	echo "$hung" > /proc/sys/kernel/hung_task_timeout_secs
log_bad() {
	dmesg | grep -cE "$KS_DMESG_BAD|$KS_DMESG_STALL"
}

# The workload's places: the tmpfs /tmp and ext4 on the virtio disk.
E=/mnt/ext4
mkdir -p $E
if mount -t ext4 /dev/vda $E 2> $S/mount.err; then
	ok "ext4 on /dev/vda mounted"
	dirs="/tmp $E"
else
	fail "mount ext4 on /dev/vda (tests/vm/sweep.sh passes the disk)" "$(cat $S/mount.err)"
	dirs=/tmp
fi
ip link set lo up 2> /dev/null || ifconfig lo up
check "ksmix runs (untraced): $(ksmix -t 300 $dirs 2>&1)" ksmix -t 300 $dirs

# workload: ksmix, kstats_target in and out, vCPU 1 off and on, idle.
# Prints nothing when all went well, else what failed.
# In the whole pass kstats_target stays loaded (the ground truth).
gt=0
workload() {
	ksmix -t "$wl_ms" $dirs > $S/ksmix.out 2>&1 || cat $S/ksmix.out
	if [ $gt = 0 ]; then
		$pin0 insmod $KS_MODDIR/kstats_target.ko 2>&1 || echo "insmod kstats_target failed"
		echo 1 > /sys/kernel/debug/kstats_target/empty 2> /dev/null
		$pin0 rmmod kstats_target 2>&1 || echo "rmmod kstats_target failed"
	fi
	if [ "$hotplug" = 1 ] && [ -e /sys/devices/system/cpu/cpu1/online ]; then
		echo 0 > /sys/devices/system/cpu/cpu1/online || echo "cpu1 offline failed"
		echo 1 > /sys/devices/system/cpu/cpu1/online || echo "cpu1 online failed"
	fi
	sleep 0.2
}

echo 3 > /proc/sys/vm/drop_caches
slab0=$(awk '/^Slab:/ { print $2 }' /proc/meminfo)
sunr0=$(awk '/^SUnreclaim:/ { print $2 }' /proc/meminfo)
check "insmod kstats.ko" insmod $KS_MODDIR/kstats.ko || exit 0
glob_max=$(cat /sys/module/kstats/parameters/glob_max)
expect_range "batch $B under glob_max $glob_max" "$B" 1 $((glob_max - 1)) || exit 0

# ---- the plan ----
# Base names (clone suffix and [module] cut), one line "NAME WEIGHT",
# sorted bytewise: WEIGHT is the functions kstats counts for the name,
# one per module (vmlinux included) holding it.  kstats skips a symbol of
# KS_NAME_MAX (64) bytes or more, and ftrace lists the records it could
# not resolve as __ftrace_invalid_address___N.
mount -t tracefs nodev /sys/kernel/tracing 2> /dev/null
AFF=/sys/kernel/tracing/available_filter_functions
[ -r $AFF ] || AFF=/sys/kernel/debug/tracing/available_filter_functions
offered=$(wc -l < $AFF)
awk -v out=$S/odd '{
	full = $1; mod = ""
	if ($2 ~ /^\[/) { mod = $2; gsub(/[][]/, "", mod) }
	base = full; sub(/\..*/, "", base)
	if (length(full) >= 64 || base !~ /^[A-Za-z0-9_]+$/ ||
	    base ~ /^__ftrace_invalid_address__/) { print > out; next }
	if (!((base, mod) in seen)) { seen[base, mod] = 1; w[base]++ }
} END { for (b in w) print b, w[b] }' $AFF | LC_ALL=C sort > $S/names
nnames=$(wc -l < $S/names)
nfns=$(awk '{ n += $2 } END { print n + 0 }' $S/names)
nodd=$(cat $S/odd 2> /dev/null | wc -l)
diag "sweep: ftrace offers $offered functions: $nnames names, $nfns functions for kstats, $nodd left out (long, odd or invalid names: $(head -3 $S/odd 2> /dev/null | tr '\n' ' ')...)"

# Units: globs of at most U functions that match exactly a run of the
# sorted names, "GLOB WEIGHT FIRST LAST" (line numbers in $S/names).
# A prefix P of more than U functions splits by the next character; a
# name equal to P is a unit of its own (P with its last character in a
# class, so that it stays a glob), adjacent small groups merge into one
# class: sched_[a-f]*.
units() {
	awk -v U="$1" '
	{ name[NR] = $1; cw[NR] = cw[NR - 1] + $2 }
	function emit(g, lo, hi) { print g, cw[hi] - cw[lo - 1], lo, hi }
	function exact(p) { return substr(p, 1, length(p) - 1) "[" substr(p, length(p)) "]" }
	function flush(p) {
		if (rn == 1) emit(p rc1 "*", rlo, rhi)
		else if (rn == 2) emit(p "[" rc1 rck "]*", rlo, rhi)
		else if (rn > 2) emit(p "[" rc1 "-" rck "]*", rlo, rhi)
		rn = 0
	}
	function split_(lo, hi, p,    L, i, j, c, gw) {
		if (cw[hi] - cw[lo - 1] <= U) {
			if (lo == hi && name[lo] == p) emit(exact(p), lo, hi)
			else emit(p "*", lo, hi)
			return
		}
		if (name[lo] == p) { emit(exact(p), lo, lo); lo++ }
		L = length(p); rn = 0
		for (i = lo; i <= hi; i = j + 1) {
			c = substr(name[i], L + 1, 1)
			for (j = i; j < hi && substr(name[j + 1], L + 1, 1) == c; j++)
				;
			gw = cw[j] - cw[i - 1]
			if (gw > U) {
				flush(p)
				split_(i, j, p c)
				rn = 0
				continue
			}
			if (rn && rw + gw > U) flush(p)
			if (!rn) { rc1 = c; rlo = i; rw = 0 }
			rn++; rck = c; rhi = j; rw += gw
		}
		flush(p)
	}
	END { if (NR) split_(1, NR, "") }' $S/names
}

# batches SEED PICK [MAX]: units packed in order into batches of at most
# MAX functions (default B), "WEIGHT GLOB:W:FIRST:LAST...", one a line;
# with PICK, a seeded random choice of units adding up to PICK functions
# at least.
batches() {
	awk -v B="${3:-$B}" -v seed="$1" -v pick="$2" '
	{ g[NR] = $1 ":" $2 ":" $3 ":" $4; w[NR] = $2 }
	END {
		n = NR
		if (pick) {
			srand(seed)
			for (i = n; i > 1; i--) {
				j = int(rand() * i) + 1
				t = g[i]; g[i] = g[j]; g[j] = t
				t = w[i]; w[i] = w[j]; w[j] = t
			}
			for (k = 0; k < n && tot < pick; k++) tot += w[k + 1]
			n = k
		}
		for (i = 1; i <= n; i++) {
			if (bw && bw + w[i] > B) { print bw, line; bw = 0; line = "" }
			bw += w[i]; line = line " " g[i]
		}
		if (bw) print bw, line
	}'
}

units $unit > $S/units
if [ -n "$only" ]; then
	echo "0 $(echo "$only" | tr ',' '\n' | sed 's/$/:-:1:1/' | tr '\n' ' ')" > $S/plan
elif [ $mode = full ]; then
	batches 0 0 < $S/units > $S/plan
else
	batches "$seed" "$sample" < $S/units > $S/plan
fi
nb=$(wc -l < $S/plan)
planned=$(awk '{ n += $1 } END { print n + 0 }' $S/plan)
nglobs=$(awk '{ n += NF - 1 } END { print n + 0 }' $S/plan)
cover=$(awk '{ n += $2 } END { print n + 0 }' $S/units)
expect_eq "the units cover every name once ($(wc -l < $S/units) globs, $cover functions)" "$cover" "$nfns"
diag "sweep: plan: $nb batches, $nglobs globs, $planned functions"

# pass2 SEED: a seeded random choice of batches of the plan adding up
# to $pass2 functions at least, in their plan order.
pass2_plan() {
	awk -v seed="$1" -v want="$pass2" '
	{ l[NR] = $0; o[NR] = NR }
	END {
		srand(seed)
		for (i = NR; i > 1; i--) { j = int(rand() * i) + 1; t = o[i]; o[i] = o[j]; o[j] = t }
		for (k = 1; k <= NR && tot < want; k++) { split(l[o[k]], f, " "); tot += f[1]; pick[o[k]] = 1 }
		for (i = 1; i <= NR; i++) if (i in pick) print l[i]
	}' $S/plan
}

# ---- one batch ----
# run_batch TAG K N VIA LINE: trace each glob of LINE (VIA: "" or "via
# fprobe"...), check what _last says, run the workload, read and check
# every node, remove each glob, check that no node is left and that the
# kernel log is as clean as before.  Each _last goes to $S/lasts.TAG.
nfail=0
bfail() {
	nfail=$((nfail + 1))
	if [ $nfail -le 20 ]; then
		fail "$@"
	else
		diag "sweep: (failure not shown as a check) $1"
		echo x >> $S/failed.more
	fi
}
run_batch() {
	rb_tag=$1 rb_k=$2 rb_n=$3 rb_via=$4
	shift 4
	rb_bw=$1
	shift
	rb_globs=""
	for rb_u in "$@"; do rb_globs="$rb_globs ${rb_u%%:*}"; done
	diag "sweep: batch $rb_k/$rb_n start $rb_tag$rb_globs"
	rb_b0=$(cut -d' ' -f1 /proc/uptime)
	rb_bad0=$(log_bad)
	: > $S/lb
	for rb_u in "$@"; do
		rb_g=${rb_u%%:*} rb_r=${rb_u#*:}
		rb_w=${rb_r%%:*} rb_r=${rb_r#*:}
		rb_lo=${rb_r%%:*} rb_hi=${rb_r#*:}
		awk '!/^#/ { print $1 }' $KS_CTL > $S/before
		ctl "trace $rb_g $rb_via" 2> $S/ctl.err
		cp $KS_DIR/_last $S/last
		{ echo "# batch $rb_tag $rb_k"; cat $S/last; } >> $S/lasts.$rb_tag
		cat $S/last >> $S/lb
		rb_m=$(awk '$1 == "matched" { print $2 }' $S/last)
		if [ "$rb_m" != "$rb_w" ] && [ "$rb_w" != - ]; then
			awk '!/^#/ { print $1 }' $KS_CTL > $S/after
			sed -n "${rb_lo},${rb_hi}p" $S/names | awk '{ print $1 }' > $S/want
			{
				awk 'NR == FNR { b[$1] = 1; next } !($1 in b)' $S/before $S/after
				awk '$1 == "refused" { sub(/:$/, "", $2); sub(/^.*:/, "", $2); print $2 }' $S/last
			} | sort -u > $S/got
			bfail "$rb_tag batch $rb_k: $rb_g matched $rb_w functions" \
				"_last: $(grep -v '^refused' $S/last | tr '\n' ' ')" \
				"error: $(cat $S/ctl.err)" \
				"listed, not matched: $(awk 'NR == FNR { g[$1] = 1; next } !($1 in g)' $S/got $S/want | head -10 | tr '\n' ' ')" \
				"matched, not listed: $(awk 'NR == FNR { g[$1] = 1; next } !($1 in g)' $S/want $S/got | head -10 | tr '\n' ' ')"
		fi
	done
	[ $gt = 1 ] && gt_trace
	rb_t1=$(cut -d' ' -f1 /proc/uptime)
	rb_nodes=$(awk '!/^#/ { n++ } END { print n + 0 }' $KS_CTL)
	rb_out=$(workload)
	rb_t2=$(cut -d' ' -f1 /proc/uptime)
	[ -z "$rb_out" ] || bfail "$rb_tag batch $rb_k: workload" "$rb_out"
	# (find and xargs: the whole pass' 45,000 names pass ARG_MAX)
	find $KS_DIR/ -type f -exec cat {} + > /dev/null 2> $S/cat.err ||
		bfail "$rb_tag batch $rb_k: read every node file" "$(head -5 $S/cat.err)"
	awk '!/^#/ { print $1 }' $KS_CTL > $S/nodes
	if [ -s $S/nodes ] && ! xargs kstats check < $S/nodes > $S/check.out 2> $S/check.err; then
		bfail "$rb_tag batch $rb_k: kstats check of its $rb_nodes nodes" "$(head -10 $S/check.err)"
	fi
	rb_checked=$(grep -c '^ok ' $S/check.out 2> /dev/null)
	rb_t3=$(cut -d' ' -f1 /proc/uptime)
	rb_samples=$(awk '!/^#/ { s += $4 } END { print s + 0 }' $KS_CTL)
	[ $gt = 1 ] && gt_check
	rb_t4=$(cut -d' ' -f1 /proc/uptime)
	for rb_g in $rb_globs; do
		ctl "remove $rb_g" 2> /dev/null
	done
	rb_left=$(awk '!/^#/ { n++ } END { print n + 0 }' $KS_CTL)
	if [ "$rb_left" != 0 ]; then
		bfail "$rb_tag batch $rb_k: no node left after remove GLOB" "$rb_left left: $(awk '!/^#/' $KS_CTL | head -5)"
		ctl "remove all"
	fi
	rb_bad1=$(log_bad)
	if [ "$rb_bad1" != "$rb_bad0" ]; then
		bfail "$rb_tag batch $rb_k: kernel log clean ($rb_globs)" \
			"$(dmesg | grep -nE "$KS_DMESG_BAD|$KS_DMESG_STALL" | tail -n $((rb_bad1 - rb_bad0)) | head -5)" \
			"$(dmesg | tail -40)"
	fi
	rb_b1=$(cut -d' ' -f1 /proc/uptime)
	diag "sweep: batch $rb_k/$rb_n times: trace $(dt $rb_b0 $rb_t1), workload $(dt $rb_t1 $rb_t2), read $(dt $rb_t2 $rb_t3), truth $(dt $rb_t3 $rb_t4), remove $(dt $rb_t4 $rb_b1) s"
	diag "sweep: batch $rb_k/$rb_n done $rb_tag: $(stats_of $S/lb); $rb_nodes nodes, $rb_checked checked, $rb_samples samples, $(awk -v a=$rb_b0 -v b=$rb_b1 'BEGIN { printf "%.1f", b - a }') s"
}

# stats_of FILE: the totals of the _last copies in FILE; stats TAG: of
# one pass.
stats() {
	stats_of $S/lasts.$1
}
stats_of() {
	awk '
	$1 == "matched" { m += $2; a += $4; r += $6; for (i = 7; i < NF; i += 2) by[$i] += $(i + 1) }
	$1 == "refused" && NF > 2 { sub(/^refused [^ ]*: /, ""); why[$0]++ }
	END {
		printf "matched %d attached %d refused %d;", m, a, r
		printf " by backend:"
		for (b in by) printf " %s %d", b, by[b]
		printf "; refused:"
		for (x in why) { printf "%s %s (%d)", sep, x, why[x]; sep = "," }
		printf "%s\n", sep ? "" : " none"
	}' "$1"
}
pass_field() {	# TAG KEY: a number of the totals
	awk -v k="$2" '$1 == "matched" {
		for (i = 1; i < NF; i++) if ($i == k) s += $(i + 1)
	} END { print s + 0 }' $S/lasts.$1
}
# pass_totals TAG LABEL PLANNED [VIA]: a pass matched the PLANNED
# functions (unless --only), attached + refused = matched, and most
# attached (with VIA: every one on VIA)
pass_totals() {
	m=$(pass_field $1 matched)
	a=$(pass_field $1 attached)
	r=$(pass_field $1 refused)
	[ -n "$only" ] || expect_eq "$2: matched the $3 functions planned" "$m" "$3"
	expect_eq "$2: attached $a + refused $r = matched $m" $((a + r)) "$m"
	if [ -n "${4:-}" ]; then
		expect_eq "$2: every node attached on $4 ($(pass_field $1 $4) of $a)" "$(pass_field $1 $4)" "$a"
	else
		expect_range "$2: attached $a ($(pass_field $1 direct) direct, $(pass_field $1 fprobe) fprobe, $(pass_field $1 kretprobe) kretprobe)" \
			"$a" $((m * 9 / 10)) "$m"
	fi
	diag "sweep: ${2%%:*}: $(stats $1)"
}

# ---- the passes ----
if [ "$whole_only" != 1 ]; then
	: > $S/lasts.default
	k=0
	while read -r line; do
		k=$((k + 1))
		# shellcheck disable=SC2086
		run_batch default $k $nb "" $line
	done < $S/plan
	t_pass1=$(cut -d' ' -f1 /proc/uptime)

	pass_totals default "default backend: $nb batches, $nglobs globs" "$planned"

	fp=""
	grep -qw register_fprobe_syms /proc/kallsyms && fp=fprobe
	s2=$seed
	for via in $fp kretprobe; do
		s2=$((s2 + 1))
		pass2_plan $s2 > $S/plan.$via
		n2=$(wc -l < $S/plan.$via)
		w2=$(awk '{ n += $1 } END { print n + 0 }' $S/plan.$via)
		diag "sweep: via $via: $n2 batches, $w2 functions (seed $s2)"
		: > $S/lasts.$via
		k=0
		while read -r line; do
			k=$((k + 1))
			# shellcheck disable=SC2086
			run_batch $via $k $n2 "via $via" $line
		done < $S/plan.$via
		pass_totals $via "via $via: $n2 batches" "$w2" $via
	done
	[ -n "$fp" ] || skip "via fprobe: the second pass" "no fprobe in this kernel"
fi
t_pass1=${t_pass1:-$t_start}
t_pass2=$(cut -d' ' -f1 /proc/uptime)

# ---- the whole kernel ----
# gt_trace (run_batch, after the batch's globs): kstats_target loaded,
# ks_target_empty and the 256 kt_gen_0XX traced by name (the globs went
# on before it was loaded); gt_check (after the nodes were read):
# 1,000 calls of the first and I + 1 of each kt_gen_I, exactly, none
# missed, with everything else traced; then they go, and the module.
gt_trace() {
	$pin0 insmod $KS_MODDIR/kstats_target.ko 2> $S/gt.err ||
		bfail "whole: insmod kstats_target" "$(cat $S/gt.err)"
	for gt_g in ks_target_empty 'kt_gen_0*'; do
		ctl "trace kstats_target:$gt_g" 2> $S/gt.err ||
			bfail "whole: trace kstats_target:$gt_g" "$(cat $S/gt.err)"
	done
	# what ftrace offers of the 256 (254 on 7.3)
	gt_n=$(awk '$1 == "matched" { print $2 }' $KS_DIR/_last)
}
gt_check() {
	echo 1000 > /sys/kernel/debug/kstats_target/empty
	echo 1 > /sys/kernel/debug/kstats_target/gen
	gt_got=$(awk '{ n = $1; sub(/^kstats_target:/, "", n) }
		n == "ks_target_empty" { e = $4 " " $5 }
		n ~ /^kt_gen_0[0-9a-f][0-9a-f]$/ {
			g++; want = ("0x" substr(n, 8)) + 1
			if ($4 != want || $5 != 0) bad = bad " " n " " $4 "/" $5 " (want " want ")"
		}
		END { print "empty", e, "gen", g + 0, (bad == "" ? "exact" : bad) }' $KS_CTL)
	expect_eq "whole: ks_target_empty 1000 calls, each of the $gt_n kt_gen_0XX I + 1, none missed, among $rb_nodes nodes" \
		"$gt_got" "empty 1000 0 gen $gt_n exact"
	expect_range "whole: kt_gen_0*: most of the 256 traced" "${gt_n:-0}" 250 256
	for gt_g in ks_target_empty 'kt_gen_0*'; do
		ctl "remove kstats_target:$gt_g" 2> /dev/null
	done
	$pin0 rmmod kstats_target 2> $S/gt.err || bfail "whole: rmmod kstats_target" "$(cat $S/gt.err)"
}
if [ "$whole" != 0 ] && [ -z "$only" ]; then
	gm0=$(cat /sys/module/kstats/parameters/glob_max)
	echo $((nfns + 4096)) > /sys/module/kstats/parameters/glob_max
	if [ "$whole" = all ]; then
		echo "$nfns *:$nfns:1:$nnames" > $S/plan.whole
	else
		# units of up to 2,000: each write of a glob is a whole
		# ftrace update (0.7 s under TCG: 187 units of 100 took 130 s)
		ws=$((seed + 3))
		units 2000 > $S/units.whole
		batches "$ws" "$whole" "$nfns" < $S/units.whole > $S/plan.whole
		diag "sweep: whole: a random $whole at least (seed $ws): $(awk '{ print $1, "functions,", NF - 1, "globs" }' $S/plan.whole)"
	fi
	ww=$(awk '{ print $1 }' $S/plan.whole)
	echo 3 > /proc/sys/vm/drop_caches
	slabw0=$(awk '/^Slab:/ { print $2 }' /proc/meminfo)
	: > $S/lasts.whole
	gt=1
	# shellcheck disable=SC2046
	run_batch whole 1 1 "" $(cat $S/plan.whole)
	gt=0
	echo "$gm0" > /sys/module/kstats/parameters/glob_max
	echo 3 > /proc/sys/vm/drop_caches
	slabw1=$(awk '/^Slab:/ { print $2 }' /proc/meminfo)
	pass_totals whole "whole: at once" "$ww"
	expect_range "whole: Slab after the remove within 16 MiB of before (${slabw0} -> ${slabw1} kB)" \
		$((slabw1 - slabw0)) -1000000 16384
	# init (pid 1) enters wait4 again each time it reaps an orphan of
	# the workload: entered while traced, its call returns through
	# kstats when it next reaps, and rmmod waits for that (after the
	# other passes, the next batch's workload gave it one).  An orphan:
	(sleep 0.1 &)
	sleep 0.5
fi
t_pass3=$(cut -d' ' -f1 /proc/uptime)

expect_eq "every batch: globs matched, workload ran, nodes read and parsed, none left, log clean" \
	"$nfail failure(s)" "0 failure(s)"
# rmmod waits for every call still inside a traced function to return,
# and for grace periods: give it 300 s (a guest starved by a loaded host
# runs slowly), then say which calls it waits for (the module's log).
diag "sweep: rmmod kstats"
$pin0 rmmod kstats > $S/rmmod.out 2>&1 &
until_up=$(awk '{ print int($1) + 300 }' /proc/uptime)
while grep -q "^kstats " /proc/modules &&
	[ "$(cut -d. -f1 /proc/uptime)" -lt "$until_up" ]; do
	sleep 0.5
done
if ! grep -q "^kstats " /proc/modules; then
	wait
	ok "rmmod kstats"
	umount $E 2> /dev/null
	echo 3 > /proc/sys/vm/drop_caches
	slab1=$(awk '/^Slab:/ { print $2 }' /proc/meminfo)
	sunr1=$(awk '/^SUnreclaim:/ { print $2 }' /proc/meminfo)
	diag "sweep: slab before ${slab0} KiB (unreclaimable ${sunr0}), after rmmod ${slab1} KiB (${sunr1})"
	expect_range "unreclaimable slab after rmmod: ${sunr0} -> ${sunr1} KiB, grew less than 8 MiB" \
		$((sunr1 - sunr0)) -1000000 8192
else
	# the tasks whose kernel stack is inside kstats or the function it
	# waits for: where the calls that did not return sleep
	waits=$(dmesg | grep -E 'kstats: unloading waits' | tail -1)
	wfn=$(echo "$waits" | sed -n 's/.* still inside \([^ ]*\) .*/\1/p')
	for p in /proc/[0-9]*; do
		grep -qE "\[kstats\]|${wfn:-kstats_}" $p/stack 2> /dev/null || continue
		echo "$(cat $p/comm) (${p#/proc/}): $(tr '\n' ' ' < $p/stack | cut -c1-400)"
	done > $S/sleepers 2>&1
	fail "rmmod kstats returns within 300 s" "$(cat $S/rmmod.out)" \
		"$(dmesg | grep -E 'kstats: unloading waits' | tail -3)" \
		"$(head -8 $S/sleepers)"
	skip "unreclaimable slab after rmmod" "kstats still loaded"
fi
t_end=$(cut -d' ' -f1 /proc/uptime)
if [ "$whole_only" != 1 ]; then
	diag "sweep summary $KS_KVER $mode seed $seed: offered $offered, names $nnames, functions $nfns, swept $planned in $nb batches; $(stats default)"
	for via in $fp kretprobe; do
		diag "sweep summary $KS_KVER via $via: $(stats $via)"
	done
fi
[ -f $S/lasts.whole ] && diag "sweep summary $KS_KVER whole ($whole): $(stats whole)"
diag "sweep summary $KS_KVER time: $(dt $t_start $t_end) s ($(dt $t_start $t_pass1) default, $(dt $t_pass1 $t_pass2) forced backends, $(dt $t_pass2 $t_pass3) whole)"
ok "sweep: $offered offered, $nfns functions, $planned swept in $nb batches, $(dt $t_start $t_end) s"
