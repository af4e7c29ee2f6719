# SPDX-License-Identifier: GPL-2.0
#
# find_vma() under ks-pagefault (mmap, fault each page in, munmap, in a
# loop), the function of the mmap_assert_locked() review thread: p10 p50
# p90 p95 p98 as in its table, with a small and a large VMA tree
# (ks-pagefault -m: one-page VMAs kept mapped meanwhile).  The pages are
# faulted in by the kernel (read(2) into them), which takes mmap_lock and
# find_vma() on every kernel; a last run counts find_vma() calls when user
# space touches the pages (one per page, none on kernels with per-VMA
# locks, 6.4+: KS_DEMO_CONFIG_PER_VMA_LOCK from demo/demo.sh says which).
# Two runs of each configuration: the first counts the calls of the
# workload's loop alone (comm ks-wl-loop, the name the loop runs under,
# tools/workloads/ks_wl.h), the second times them with no filter: kstats
# tests the filter inside the window it times (some 45 instructions a call
# on 6.1 and 7.3 under -icount), which the floor, an empty function's
# figure, leaves out.
# shellcheck source=vm/measure.sh
. "${KS_LIB:-/ks}/measure.sh"

n=${DEMO_PF_N:-20000}
pages=${DEMO_PF_PAGES:-4}
maps=${DEMO_PF_MAPS:-"16 2048"}

# calls ID ARGS...: find_vma calls of one ks-pagefault run of $n
# operations, counted exactly: the node counts the calls of its loop
# alone (comm ks-wl-loop), not those of its start-up (exec, the -m
# mappings) nor any other task's.  Prints nothing; facts ID.*, and
# ID.p50_comm, the p50 with the filter's test inside.
calls() {
	_c_id=$1
	shift
	ctl "reset find_vma"
	wl "$_c_id" ks-pagefault -n "$n" "$@" || return 1
	CALLS=$(samples find_vma)
	fact "$_c_id.samples" "$CALLS"
	fact "$_c_id.p50_comm" "$(node_field find_vma p50)"
}

demo_up || exit 0
say "[1/3] find_vma on $(uname -r), ks-pagefault: $n x mmap $pages pages, fault each in, munmap"
fact pf.maps "$maps"
# The seed's question is what CONFIG_DEBUG_VM (mmap_assert_locked() and
# the rest) adds to find_vma(): this kernel's side of it.
fact find_vma.debug_vm "${KS_DEMO_CONFIG_DEBUG_VM:-unknown}"
fact pf.n "$n"
fact pf.pages "$pages"
demo_trace find_vma bits 3 comm ks-wl-loop
case $? in
0)	;;
2)	fail "find_vma exists" "trace find_vma: no such function" ;;
esac
if [ -n "$DEMO_NODES" ]; then
	fact find_vma.attach "$(node_field find_vma attach)"
	for m in $maps; do
		calls "pf$m" -p "$pages" -m "$m" -t kernel || break
		expect_range "find_vma called once per page or more (-m $m)" \
			"$CALLS" "$((n * pages))" 1000000000
		say "  find_vma: $CALLS calls in $n operations"
	done
	m=${maps##* }
	if calls pfuser -p "$pages" -m "$m" -t user; then
		say "  find_vma: $CALLS calls in $n operations when user space touches the pages"
		# A user fault takes find_vma() once per page, unless the
		# kernel has per-VMA locks (6.4+): then it does not call it.
		case ${KS_DEMO_CONFIG_PER_VMA_LOCK:-} in
		y)	expect_range "user-mode faults: under one find_vma per op (per-VMA locks)" \
				"$CALLS" 0 "$((n / 2))" ;;
		n)	expect_range "user-mode faults: find_vma once per page (no per-VMA locks)" \
				"$CALLS" "$((n * pages))" 1000000000 ;;
		*)	skip "user-mode faults: find_vma calls ($CALLS)" "CONFIG_PER_VMA_LOCK unknown" ;;
		esac
	fi
	# The same runs again, timed without the filter.
	demo_untrace find_vma
	if demo_trace find_vma bits 3; then
		for m in $maps; do
			ctl "reset find_vma"
			wl "pf$m.timed" ks-pagefault -n "$n" -p "$pages" -m "$m" -t kernel || break
			snap find_vma "find_vma-m$m.json" "$(wl_get vmas) VMAs"
			fact "pf$m.snap" "find_vma-m$m.json"
			say "  find_vma: p50 $(node_field find_vma p50) ns ($(sed -n "s/^pf$m.p50_comm=//p" "$DEMO_FACTS") with the filter), floor $(node_field find_vma floor) ns"
		done
	fi
fi
# Who calls find_vma and what its slowest calls were: a node of its own
# (callers and slowest take the C path, so the figures above come
# without them), every task's calls, under the page faults and a fork.
if [ -n "$DEMO_NODES" ]; then
	demo_untrace find_vma
	if demo_trace find_vma bits 3 callers 8 slowest 2; then
		wl pfcallers ks-pagefault -n "$((n / 10))" -p "$pages" -m 16 -t kernel &&
			wl forkcallers ks-fork -n 10 -s 16 &&
			snap find_vma find_vma-callers.json "find_vma callers" &&
			fact find_vma.callers find_vma-callers.json
		say "  find_vma's callers and slowest calls: $(samples find_vma) calls"
	fi
fi
demo_down
# shellcheck disable=SC2086 # one word per file
