# SPDX-License-Identifier: GPL-2.0
#
# should_failslab() and should_fail_alloc_page(), the empty fault-injection
# hooks of the slab and page allocator fast paths (the 2024 revert thread),
# under ks-openmiss (open() of a missing name in a tmpfs directory, the
# thread's own benchmark) and ks-alloc (pipe create/write/close).  For
# the report: calls per operation, the time per call with the floor, and
# the time per operation without tracing (for the CPU share), and the
# names ftrace offers for each hook, compiler clones included (the
# thread's gcc made should_failslab.constprop.0, and callers called the
# clone): kstats attaches the clones with the function, its default.
# Kernels that no longer have the hooks (CONFIG_FAILSLAB /
# CONFIG_FAIL_PAGE_ALLOC off after the revert) are reported as such, and
# no workload runs there: the names are not in available_filter_functions
# (or the trace write fails with ENOENT).
# shellcheck source=vm/measure.sh
. "${KS_LIB:-/ks}/measure.sh"

n_open=${DEMO_OPEN_N:-200000}
n_alloc=${DEMO_ALLOC_N:-50000}
mode=${DEMO_ALLOC_MODE:-pipe}
funcs="should_failslab should_fail_alloc_page"

# config_of FUNC: the option that compiles FUNC in since the revert.
config_of() {
	case $1 in
	should_failslab)	echo FAILSLAB ;;
	*)			echo FAIL_PAGE_ALLOC ;;
	esac
}

# absent FUNC OPTION CONFIG HOW: FUNC is not in this kernel (HOW says how
# that was seen): the facts, and a check that it is right only where
# CONFIG (y, n or "") compiles it out.
absent() {
	case $3 in
	n)	why="compiled out: CONFIG_$2 is off" ;;
	y)	why="although CONFIG_$2=y: inlined or renamed?" ;;
	*)	why="CONFIG_$2 unknown: compiled out if it is off" ;;
	esac
	fact "$1.present" 0
	fact "$1.why" "$why"
	say "  $1: not present in this kernel ($why)"
	case $3 in
	n)	ok "$1: absent, $4 ($why)" ;;
	y)	fail "$1: present with CONFIG_$2=y" "$4 ($why)" ;;
	*)	skip "$1: absent, $4" "$why" ;;
	esac
}

# syms_of FUNC: FUNC and its compiler clones (FUNC.constprop.0 ...) among
# the functions ftrace can trace, on one line; status 2 when that list
# cannot be read here.
AFF=/sys/kernel/tracing/available_filter_functions
[ -r "$AFF" ] || AFF=/sys/kernel/debug/tracing/available_filter_functions
syms_of() {
	[ -r "$AFF" ] || return 2
	grep -E "^$1(\.(constprop|isra|part)\.[0-9]+)*( |\$)" "$AFF" |
		cut -d' ' -f1 | sort -u | tr '\n' ' ' | sed 's/ $//'
}

demo_up || exit 0
say "[2/3] should_failslab, should_fail_alloc_page on $(uname -r)"

# Which hooks this kernel has: the names ftrace offers (the revert of 2024
# compiled both out unless CONFIG_FAILSLAB / CONFIG_FAIL_PAGE_ALLOC), so a
# kernel without them costs no workload run.
present=""
for fn in $funcs; do
	opt=$(config_of "$fn")
	eval "cfg=\${KS_DEMO_CONFIG_$opt:-}"
	fact "$fn.config" "CONFIG_$opt=${cfg:-unknown}"
	syms=$(syms_of "$fn")
	if [ $? = 2 ] || [ -n "$syms" ]; then
		fact "$fn.symbols" "$syms"
		[ -n "$syms" ] && say "  $fn: traceable as $syms"
		present="$present $fn"
		continue
	fi
	absent "$fn" "$opt" "$cfg" "not in available_filter_functions"
done
if [ -z "$present" ]; then
	demo_down
	exit 0
fi

dir=$(tmpfs_dir) || { fail "tmpfs directory"; demo_down; exit 0; }
fstype=$(stat -f -c %T "$dir" 2>/dev/null)
fact open.fs "$fstype"
fact alloc.mode "$mode"
say "  under ks-openmiss and ks-alloc ($fstype directory)"

say "  untraced: time per operation"
wl open.base ks-openmiss -n "$n_open" -d "$dir" || { demo_down; exit 0; }
wl alloc.base ks-alloc -n "$n_alloc" -m "$mode" || { demo_down; exit 0; }

traced=""
for fn in $present; do
	opt=$(config_of "$fn")
	eval "cfg=\${KS_DEMO_CONFIG_$opt:-}"
	demo_trace "$fn" bits 5 comm ks-wl-loop
	case $? in
	0)
		traced="$traced $fn"
		fact "$fn.present" 1
		fact "$fn.attach" "$(node_field "$fn" attach)"
		ok "trace $fn"
		;;
	2)
		absent "$fn" "$opt" "$cfg" "trace: no such function"
		;;
	*)
		fact "$fn.present" error
		;;
	esac
done
present=$traced

# run_wl W ID: the workload W (open, alloc) once, after "reset all";
# facts ID.*, and $n its operations.
run_wl() {
	case $1 in
	open)	n=$n_open; set -- "$2" ks-openmiss -d "$dir" -n "$n_open" ;;
	alloc)	n=$n_alloc; set -- "$2" ks-alloc -m "$mode" -n "$n_alloc" ;;
	esac
	ctl "reset all"
	wl "$@"
}

# Each workload twice: the nodes first count the calls of its loop alone
# (comm ks-wl-loop, tools/workloads/ks_wl.h), then time them with no
# filter: kstats tests the filter inside the window it times (some 45
# instructions a call under -icount), which the floor leaves out: more
# than an empty hook's body.
if [ -n "$present" ]; then
	for w in open alloc; do
		run_wl $w $w || continue
		for fn in $present; do
			s1=$(samples "$fn")
			fact "$w.$fn.samples" "$s1"
			fact "$w.$fn.p50_comm" "$(node_field "$fn" p50)"
			say "  $fn: $s1 calls in $n operations"
		done
	done
	for fn in $present; do
		demo_untrace "$fn"
		demo_trace "$fn" bits 5 || present=$(echo $present | tr ' ' '\n' | grep -vx "$fn")
	done
	for w in open alloc; do
		run_wl $w $w.timed || continue
		for fn in $present; do
			snap "$fn" "$fn-$w.json" "$fn $w"
			say "  $fn: p50 $(node_field "$fn" p50) ns ($(sed -n "s/^$w.$fn.p50_comm=//p" "$DEMO_FACTS") with the filter), floor $(node_field "$fn" floor) ns"
		done
	done
	# The open() loop must hit the slab hook on every call (the thread
	# measured 3-4 per open of a missing name).
	case $present in
	*should_failslab*)
		s1=$(sed -n 's/^open.should_failslab.samples=//p' "$DEMO_FACTS")
		expect_range "should_failslab calls per open() >= 1" \
			"$(( s1 / n_open ))" 1 100
		;;
	esac
fi
rmdir "$dir"
demo_down
# shellcheck disable=SC2086 # one word per file
