# SPDX-License-Identifier: GPL-2.0
#
# should_failslab() and should_fail_alloc_page(), the empty fault-injection
# hooks of the slab and page allocator fast paths (the 2024 revert thread),
# under ks-openmiss (open() of a missing name in a tmpfs directory, the
# thread's own benchmark) and ks-alloc (pipe create/write/close).  For
# the report: calls per operation, the time per call with the floor, and
# the time per operation without tracing (for the CPU share).  Kernels
# that no longer have the hooks (CONFIG_FAILSLAB / CONFIG_FAIL_PAGE_ALLOC
# off after the revert) are reported as such: the trace write fails with
# ENOENT.
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

demo_up || exit 0
dir=$(tmpfs_dir) || { fail "tmpfs directory"; demo_down; exit 0; }
fstype=$(stat -f -c %T "$dir" 2>/dev/null)
fact open.fs "$fstype"
fact alloc.mode "$mode"
say "[2/3] should_failslab, should_fail_alloc_page under ks-openmiss and ks-alloc ($fstype directory)"

say "  untraced: time per operation"
wl open.base ks-openmiss -n "$n_open" -d "$dir" || { demo_down; exit 0; }
wl alloc.base ks-alloc -n "$n_alloc" -m "$mode" || { demo_down; exit 0; }

present=""
for fn in $funcs; do
	opt=$(config_of "$fn")
	eval "cfg=\${KS_DEMO_CONFIG_$opt:-}"
	fact "$fn.config" "CONFIG_$opt=${cfg:-unknown}"
	demo_trace "$fn" bits 5 comm ks-wl-loop
	case $? in
	0)
		present="$present $fn"
		fact "$fn.present" 1
		fact "$fn.attach" "$(node_field "$fn" attach)"
		ok "trace $fn"
		;;
	2)
		fact "$fn.present" 0
		case $cfg in
		n)	why="compiled out: CONFIG_$opt is off" ;;
		y)	why="although CONFIG_$opt=y: inlined or renamed?" ;;
		*)	why="CONFIG_$opt unknown: compiled out if it is off" ;;
		esac
		fact "$fn.why" "$why"
		say "  $fn: not present in this kernel ($why)"
		# Absent is right only where the option compiles it out.
		case $cfg in
		n)	ok "$fn: absent, trace fails with ENOENT ($why)" ;;
		y)	fail "$fn: present with CONFIG_$opt=y" \
				"trace $fn: no such function ($why)" ;;
		*)	skip "$fn: absent, trace fails with ENOENT" "$why" ;;
		esac
		;;
	*)
		fact "$fn.present" error
		;;
	esac
done

if [ -n "$present" ]; then
	for w in open alloc; do
		case $w in
		open)	set -- ks-openmiss -d "$dir" -n; n=$n_open ;;
		alloc)	set -- ks-alloc -m "$mode" -n; n=$n_alloc ;;
		esac
		# Calls per operation: the nodes count the workload's loop
		# alone (comm ks-wl-loop, tools/workloads/ks_wl.h).
		ctl "reset all"
		wl "$w" "$@" "$n" || continue
		for fn in $present; do
			s1=$(samples "$fn")
			fact "$w.$fn.samples" "$s1"
			snap "$fn" "$fn-$w.json" "$fn $w"
			say "  $fn: $s1 calls in $n operations, p50 $(node_field "$fn" p50) ns, floor $(node_field "$fn" floor) ns"
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
