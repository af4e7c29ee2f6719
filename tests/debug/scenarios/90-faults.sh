# SPDX-License-Identifier: GPL-2.0
# Fault injection into kstats' own error paths (make test-debug: a kernel
# with FAULT_INJECTION, FAILSLAB, FAIL_PAGE_ALLOC, FAIL_FUNCTION, KASAN,
# lockdep and kmemleak).  Each "trace" command is swept with the kernel's
# systematic fault injection: kswrite -f N arms /proc/thread-self/fail-nth
# for the write alone, so its N-th fault-injection point fails: an
# allocation (failslab, fail_page_alloc, those that may sleep counted too)
# or one of kstats' own steps that fail without allocating
# (fail_function on its ALLOW_ERROR_INJECTION points: node and histogram
# allocation, symbol resolution, each backend's attach, each section
# point, the GAP- node, the node's file).  The write's points are counted
# first (fail-nth armed far beyond them); then each is failed in turn.  A
# write with more than MAXN points (the first trace reads the kernel's BTF
# from sysfs one page per read(): 1,800 points, most of them that one
# loop) has its first and last MAXN/2 failed, and every STRIDE-th between.
# Order-0 and highmem page allocations are left out (fail_page_alloc's
# defaults): vmalloc takes one per page, the same code path for each.
# After each failure: the write was refused (or absorbed), no node and no
# GAP- node is left, the other nodes are untouched, and the identical
# trace then succeeds, counts exactly and attaches as one with no fault
# does (a failed BTF read is tried again).  The first trace after insmod,
# which also reads the kernel's BTF, is swept with a reload per point.  A
# kmemleak scan ends it.
. /ks/lib.sh

FI=/sys/kernel/debug
T=/sys/kernel/debug/kstats_target
MAXN=${KS_FAULT_MAXN:-100}
STRIDE=${KS_FAULT_STRIDE:-100}
if [ ! -d $FI/failslab ] || [ ! -d $FI/fail_function ] || [ ! -e /proc/self/fail-nth ]; then
	skip "fault injection" "this kernel has no FAILSLAB/FAIL_FUNCTION/fail-nth"
	exit 0
fi
load_modules || exit 0
# The kernel reports some failed allocations itself, with a stack dump
# ("page allocation failure", "vmalloc error", "percpu: allocation
# failed"): those are what was asked for.  Anything else the sweep makes
# the kernel say (a WARNING, a BUG, KASAN, lockdep) fails it.  The log
# before it must be clean; it is then cleared, and checked after.
if bad=$(dmesg_bad); then
	fail "dmesg clean before the fault injection" "$bad"
	clean_before=0
else
	dmesg -c > /dev/null
	clean_before=1
fi

# Allocations that may sleep count too; no stack dump per injected fault.
for a in failslab fail_page_alloc; do
	echo N > $FI/$a/ignore-gfp-wait
	echo 0 > $FI/$a/verbose
done
# kstats' own points; probability 0: they fail only when fail-nth says so.
POINTS="ks_node_alloc ks_resolve_syms ks_gap_alloc ks_node_publish ks_krp_attach
	ks_fp_attach ks_direct_attach ks_sec_attach ks_point_attach ks_api_attach"
npoints=0
for p in $POINTS; do
	grep -q "^$p[[:space:]]" $FI/fail_function/injectable && npoints=$((npoints + 1))
done
expect_eq "fail_function lists kstats' 10 injection points" $npoints 10
# Each fails with -ENOMEM (fail_function's default for an errno is
# -EINVAL), so every refusal below can be held to an allocation error.
set_points() {
	echo > $FI/fail_function/inject
	for p in $POINTS; do
		echo "$p" > $FI/fail_function/inject
		echo 0xfffffffffffffff4 > $FI/fail_function/$p/retval
	done
	echo 0 > $FI/fail_function/probability
	echo 0 > $FI/fail_function/verbose
}
set_points

# Exercise NODE after CMD: a known number of calls, exact samples.
exercise() { # NODE KIND -> prints the samples seen
	case $2 in
	fn)	echo 1000 > $T/empty; want=1000 ;;
	sec)	taskset 1 sh -c "echo '100 1000' > $T/section"; want=100 ;;
	tp)	want=any ;;
	esac
	got=$(node_field "$1" samples)
	if [ "$want" = any ]; then
		[ -n "$got" ]
	else
		[ "$got" = "$want" ]
	fi
}

listing() { grep -v '^#' $KS_CTL | awk '{ print $1 }' | sort | tr '\n' ' '; }

# reload_maybe: with a reload sweep, a fresh kstats (its BTF not read yet).
reload_maybe() {
	[ -n "$_reload" ] || return 0
	rmmod kstats 2>/dev/null
	insmod $KS_MODDIR/kstats.ko
}

# sweep DESC NODE KIND CMD [reload]: fail each point of CMD in turn.
sweep() {
	_desc=$1 _node=$2 _kind=$3 _cmd=$4 _reload=${5:-}
	# ks.faults=REGEX on the kernel command line: only the sweeps it names
	if [ -n "${KS_FAULT_SWEEPS:-}" ] && ! echo "$_desc" | grep -qE "$KS_FAULT_SWEEPS"; then
		return 0
	fi
	_before=$(listing)
	[ -n "$_reload" ] && _before=""	# a fresh kstats has no node
	# what the trace attaches to with no fault: every retrace must match
	ctl "$_cmd" && _want=$(node_field "$_node" attach)
	ctl "remove $_node" 2>/dev/null
	_n=1 _inj=0 _refused=0 _absorbed=0 _errs="" _recount=0 _done=""
	_bad=$KS_STATE/sweep.bad
	: > "$_bad"
	# how many points the write passes
	reload_maybe
	_r=$(kswrite -f 1000000 $KS_CTL "$_cmd")
	ctl "remove $_node" 2>/dev/null
	case $_r in
	"OK not-injected "[0-9]*)
		_pts=$((1000000 - ${_r##* })) ;;
	*)	echo "counting the points: kswrite: $_r" >> "$_bad"; _pts=0 ;;
	esac
	while [ $_n -le $_pts ]; do
		case "$_done " in *" $_n "*) _n=$((_n + 1)); continue ;; esac
		if [ $_pts -gt $MAXN ] && [ $_n -gt $((MAXN / 2)) ] && [ $_n -le $((_pts - MAXN / 2)) ] &&
		   [ $((_n % STRIDE)) != 0 ]; then
			_n=$((_n + 1))
			continue
		fi
		reload_maybe || { echo "insmod failed before point $_n" >> "$_bad"; break; }
		_r=$(kswrite -f $_n $KS_CTL "$_cmd")
		case $_r in
		*" injected")
			;;
		*" not-injected "*)
			# Fewer points this time (a page allocation a slab with
			# room did not need): this write's count is the new end,
			# and its last MAXN/2 points are still to be failed.
			_left=${_r##* }
			ctl "remove $_node" 2>/dev/null
			_recount=$((_recount + 1))
			[ $_recount -le 5 ] || break
			_pts=$((_n - _left))
			_n=1
			[ $_pts -gt $MAXN ] && _n=$((_pts - MAXN / 2 + 1))
			continue ;;
		*)	echo "point $_n of $_pts: kswrite: $_r" >> "$_bad"; break ;;
		esac
		_inj=$((_inj + 1))
		_done="$_done $_n"
		_res=${_r%% *}
		[ $((_inj % 25)) = 0 ] && diag "$_desc: point $_n of $_pts: $_res"
		if [ "$_res" = OK ]; then
			_absorbed=$((_absorbed + 1))
			exercise "$_node" "$_kind" ||
				echo "point $_n absorbed, but $_node counts wrong: $(node_field "$_node" samples)" >> "$_bad"
			# absorbed by a fallback (no BTF: not direct) must not last
			ctl "remove $_node" 2>/dev/null
			ctl "$_cmd" 2>/dev/null
			[ "$(node_field "$_node" attach)" = "$_want" ] ||
				echo "point $_n absorbed; the next trace attaches $(node_field "$_node" attach), not $_want" >> "$_bad"
		else
			_refused=$((_refused + 1))
			case " $_errs " in *" $_res "*) ;; *) _errs="$_errs $_res" ;; esac
			# An allocation failed, so the error says so: ENOMEM, or
			# EINVAL where ftrace, its filter hash not allocated,
			# registers an empty filter and refuses it.  Never ENOENT
			# ("no such function"): that would send a user looking
			# for an inlined function.
			case $_res in
			ENOMEM|EINVAL) ;;
			*) echo "point $_n: refused with $_res, not an allocation error" >> "$_bad" ;;
			esac
			[ -e "$KS_DIR/$_node" ] && echo "point $_n ($_res): $_node left behind" >> "$_bad"
			[ -e "$KS_DIR/GAP-$_node" ] && echo "point $_n ($_res): GAP-$_node left behind" >> "$_bad"
			[ "$(listing)" = "$_before" ] || echo "point $_n ($_res): nodes now: $(listing)" >> "$_bad"
			if ! ctl "$_cmd" 2>/dev/null; then
				echo "point $_n ($_res): the next identical trace failed" >> "$_bad"
			elif ! exercise "$_node" "$_kind"; then
				echo "point $_n ($_res): the next trace counts $(node_field "$_node" samples)" >> "$_bad"
			elif [ "$(node_field "$_node" attach)" != "$_want" ]; then
				echo "point $_n ($_res): the next trace attaches $(node_field "$_node" attach), not $_want" >> "$_bad"
			fi
		fi
		ctl "remove $_node" 2>/dev/null
		_n=$((_n + 1))
	done
	# the write with no fault: the node must be whole
	reload_maybe
	ctl "$_cmd" 2>/dev/null
	if [ ! -s "$_bad" ] && [ $_inj -gt 0 ]; then
		ok "$_desc: $_inj of its $_pts points failed one by one ($_refused refused:$_errs; $_absorbed absorbed): no node left, next trace exact"
		echo "$_inj" >> "$KS_STATE/fault-points"
		echo "$_pts" >> "$KS_STATE/fault-points-all"
	else
		fail "$_desc: $_inj points, each failure cleaned up" "$(head -n 20 "$_bad")"
	fi
	# the uninjected write succeeded: that node must be whole
	if exercise "$_node" "$_kind"; then
		ok "$_desc: with no fault, the trace counts exactly"
	else
		fail "$_desc: with no fault, the trace counts exactly" "samples: $(node_field "$_node" samples 2>&1)"
	fi
	ctl "remove $_node" 2>/dev/null
}

W=ks_target_recurse	# a witness node, never called here
: > "$KS_STATE/fault-points"	# each sweep adds its counts (none: 0)
: > "$KS_STATE/fault-points-all"
# With a reload per point, allocations only: fail_function's probes on
# kstats go with each rmmod, and the sweeps below fail kstats' own steps.
echo > $FI/fail_function/inject
sweep "first trace after insmod (reads BTF)" ks_target_empty fn "trace ks_target_empty" reload
set_points
check "a witness node" ctl "trace $W via kretprobe"
sweep "default (direct)" ks_target_empty fn "trace ks_target_empty bits 4"
sweep "via direct, gap yes" ks_target_empty fn "trace ks_target_empty via direct gap yes"
sweep "via kretprobe, gap yes" ks_target_empty fn "trace ks_target_empty via kretprobe gap yes"
sweep "via fprobe, filters" ks_target_empty fn "trace ks_target_empty via fprobe cpus 0-1 sample 1"
sweep "section, two kprobes" sec sec "trace sec start ks_target_mark_a end ks_target_mark_b bits 5"
sweep "section, kprobe to tracepoint" seckm tp "trace seckm start ks_target_mark_a end tp:kmem:kmalloc"
sweep "clone glob" ks_target_clone tp "trace ks_target_clone"
expect_eq "the witness node is still there, untouched" "$(node_field $W samples)" 0
ctl "remove $W"
echo > $FI/fail_function/inject
total=$(awk '{ s += $1 } END { print s + 0 }' "$KS_STATE/fault-points")
all=$(awk '{ s += $1 } END { print s + 0 }' "$KS_STATE/fault-points-all")
diag "fault points failed in all: $total of $all"

# Scan with the modules loaded, so their frames resolve in the report
# (01-kmemleak-baseline cleared what boot left; 99-kmemleak scans again).
ctl "remove all"
if kmemleak_scan; then
	if [ "$KS_LEAKS_OURS" = 0 ]; then
		ok "kmemleak: nothing of kstats leaked after $total injected failures ($KS_LEAKS_ALL other objects)"
	else
		fail "kmemleak: nothing of kstats leaked after $total injected failures" \
			"$(head -n 40 "$KS_STATE/kmemleak")"
	fi
else
	skip "kmemleak scan" "kernel without DEBUG_KMEMLEAK"
fi
unload_modules
if [ $clean_before = 1 ]; then
	dmesg > "$KS_STATE/dmesg.faults"
	hard=$(grep -cE "$KS_DMESG_BAD" "$KS_STATE/dmesg.faults")
	traces=$(grep -ci 'call trace' "$KS_STATE/dmesg.faults")
	asked=$(grep -cE 'page allocation failure|vmalloc error|percpu: allocation failed' "$KS_STATE/dmesg.faults")
	diag "fault injection: $(wc -l < "$KS_STATE/dmesg.faults") log lines, $asked reports of injected allocation failures"
	if [ "$hard" = 0 ] && [ "$traces" -le "$asked" ]; then
		ok "the kernel logged no warning, only the allocation failures asked for ($asked)"
		dmesg -c > /dev/null
	else
		fail "the kernel logged no warning, only the allocation failures asked for" \
			"$hard warning/bug lines, $traces stack dumps, $asked allocation-failure reports" \
			"$(grep -nE -B2 -A12 "$KS_DMESG_BAD" "$KS_STATE/dmesg.faults" | head -n 60)"
	fi
fi
