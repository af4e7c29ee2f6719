# SPDX-License-Identifier: GPL-2.0
#
# vm_normal_page() under ks-fork (fork of a process with a large resident
# set, the child exits at once), the function of the "improve the
# performance during fork" thread: calls per fork, time per call, and the
# time of the whole fork path (kernel_clone, or copy_process / _do_fork
# on kernels without it) traced alone for context.
# shellcheck source=vm/measure.sh
. "${KS_LIB:-/ks}/measure.sh"

n=${DEMO_FORK_N:-30}
mib=${DEMO_FORK_MIB:-64}

demo_up || exit 0
say "[3/3] vm_normal_page on $(uname -r), ks-fork: $n forks of a ${mib} MiB process"
fact fork.n "$n"
fact fork.mib "$mib"

say "  untraced: time per fork"
wl fork.base ks-fork -n "$n" -s "$mib" || { demo_down; exit 0; }

# The fork path alone (vm_normal_page untraced, so its probe does not
# inflate it).
path=""
for f in kernel_clone copy_process _do_fork; do
	demo_trace "$f" bits 3
	case $? in
	0)	path=$f; break ;;
	2)	continue ;;
	*)	break ;;
	esac
done
if [ -n "$path" ]; then
	fact fork.path "$path"
	wl fork.path ks-fork -n "$n" -s "$mib"
	snap "$path" "$path-fork.json" "$path"
	say "  $path: p50 $(node_field "$path" p50) ns over $(samples "$path") calls"
	demo_untrace "$path"
else
	fail "a fork path function (kernel_clone, copy_process, _do_fork) exists"
fi

# vm_normal_page of the forks alone: the loop and its children run as
# comm ks-wl-loop (tools/workloads/ks_wl.h), the set-up before it not.
# Then the same forks again, timed with no filter: kstats tests the
# filter inside the window it times, which the floor leaves out.
if demo_trace vm_normal_page bits 3 comm ks-wl-loop; then
	fact vm_normal_page.attach "$(node_field vm_normal_page attach)"
	wl fork ks-fork -n "$n" -s "$mib"
	s1=$(samples vm_normal_page)
	p50_comm=$(node_field vm_normal_page p50)
	fact fork.samples "$s1"
	fact fork.p50_comm "$p50_comm"
	rss=$(wl_get rss_pages)
	# Each fork copies one PTE per resident page; the child's exit zaps it.
	expect_range "vm_normal_page calls per fork >= resident pages" \
		"$(( s1 / (n > 0 ? n : 1) ))" "$((rss * 9 / 10))" "$((rss * 4))"
	say "  vm_normal_page: $(( s1 / (n > 0 ? n : 1) )) calls per fork ($rss resident pages)"
	demo_untrace vm_normal_page
	if demo_trace vm_normal_page bits 3; then
		wl fork.timed ks-fork -n "$n" -s "$mib" &&
			snap vm_normal_page vm_normal_page-fork.json "vm_normal_page"
		say "  vm_normal_page: p50 $(node_field vm_normal_page p50) ns ($p50_comm with the filter), floor $(node_field vm_normal_page floor) ns"
		demo_untrace vm_normal_page
	fi
	# its slowest calls, with their stacks: a node of its own (the C path)
	if demo_trace vm_normal_page bits 3 comm ks-wl-loop slowest 3; then
		wl forkslow ks-fork -n "$n" -s "$mib" &&
			snap vm_normal_page vm_normal_page-slowest.json "vm_normal_page slowest" &&
			fact vm_normal_page.slowest vm_normal_page-slowest.json
		demo_untrace vm_normal_page
	fi
else
	[ $? = 2 ] && fail "vm_normal_page exists" "trace vm_normal_page: ENOENT"
fi
demo_down
# shellcheck disable=SC2086 # one word per file
