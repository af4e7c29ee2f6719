#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo-ab: the seeds' three comparisons on kernels built from Debian's
# linux-source-6.12 (scripts/build-kernel.sh, cached in /var/cache/kstats),
# each run with tools/ab/kstats-ab under QEMU -icount:
#   find_vma        no-debug / debug (CONFIG_DEBUG_VM) / debug without
#                   mmap_assert_locked() in find_vma()
#   mm              no-debug / debug: every mm function of a set of globs
#                   (MM_GLOBS) under page faults and mmap/munmap, ranked by
#                   the change CONFIG_DEBUG_VM makes
#   whole           no-debug / debug: every function ftrace offers ('*'),
#                   the same workload, ranked by the change of total time
#                   per run (calls x mean): where the debug option's cost
#                   went, in the whole kernel
#   fork            vm_normal_page() out of line / __always_inline
#   fault hooks     should_failslab()/should_fail_alloc_page() behind their
#                   CONFIG_ options (6.12 as shipped) / called on every
#                   allocation (the state the 2024 revert undid)
# Output: demo-out/ab/{find_vma,mm,whole,fork,hooks}/ (report.md, tables, plots,
# snapshots) and demo-out/ab/summary.md.
#
#   demo/demo-ab.sh [-o DIR] [--only find_vma|mm|whole|fork|hooks]
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
out=$REPO/demo-out/ab only=""
while [ $# -gt 0 ]; do
	case $1 in
	-o)	out=$2; shift ;;
	--only)	only=$2; shift ;;
	*)	echo "usage: $0 [-o DIR] [--only find_vma|mm|whole|fork|hooks]" >&2; exit 2 ;;
	esac
	shift
done
case $only in
''|find_vma|mm|whole|fork|hooks) ;;
*)	echo "$0: --only find_vma, mm, whole, fork or hooks, not '$only'" >&2; exit 2 ;;
esac
mkdir -p "$out"
[ -f "$REPO/demo-out/.gitignore" ] || echo '*' > "$REPO/demo-out/.gitignore"
CACHE=${KSTATS_CACHE:-/var/cache/kstats}
K=$REPO/kernels

T0=$(date +%s)
step() { printf '[%4ds] %s\n' $(($(date +%s) - T0)) "$*"; }

want() { [ -z "$only" ] || [ "$only" = "$1" ]; }

# variant NAME ARGS...: build (or find cached) one kernel variant.
variant() {
	local name=$1
	shift
	if [ -f "$CACHE/kernels/$name/bzImage" ]; then
		step "kernel $name: building if its inputs changed (cached: $(cat "$CACHE/kernels/$name/kver"))"
	else
		step "kernel $name: not cached, building"
	fi
	"$REPO/scripts/build-kernel.sh" "$@" "$name" | sed 's/^/    /'
}

if ! ls "$CACHE"/obj/*/vmlinux > /dev/null 2>&1; then
	step "no kernel built yet: the first build of the VM configuration takes about" \
	     "${KS_AB_FIRST_MIN:-25} minutes on 2 cores (measured: README), each variant after it 1-15"
fi
variant ab-base
if want find_vma || want mm || want whole; then
	step "a CONFIG_DEBUG_VM kernel recompiles most of the tree (about 15 minutes on 2 cores)"
	variant ab-debug -c "$K/debug-vm.config"
fi
want find_vma && variant ab-debug-noassert -c "$K/debug-vm.config" -p "$K/patches/find_vma-no-assert.patch"
want fork && variant ab-inline -p "$K/patches/vm_normal_page-inline.patch"
want hooks && variant ab-hooks -p "$K/patches/fault-hooks-unconditional.patch"

ab() { # NAME kstats-ab ARGS...
	local name=$1
	shift
	step "comparison: $name"
	"$REPO/tools/ab/kstats-ab" -o "$out/$name" "$@" 2>&1 | sed 's/^/    /'
}
status=0
if want find_vma; then
	ab find_vma -t "find_vma bits 3" -w "ks-pagefault -n ${DEMO_PF_N:-20000} -p 4 -m 2048 -t kernel" \
		no-debug=ab-base debug=ab-debug debug-no-assert=ab-debug-noassert || status=1
fi
# The mm functions a page-fault and mmap/munmap workload calls: the fault
# path (user faults, under the per-VMA lock), the VMA tree, mmap and
# munmap.  On Debian's 6.12 these match 160 functions (the largest glob,
# vma_*, 43), of which ks-pagefault calls 69; a function two globs match
# is traced once (the second says "already traced" in the log), and what
# the module refuses (its deny list) is skipped and listed there too.
MM_GLOBS=('find_vma*' 'vma_*' '*_vma' '*handle_mm_fault' 'do_*page' 'do_*fault'
	  mmap_region do_mmap 'do_vmi_*munmap' 'unmap_*' 'zap_*' 'vm_area_*'
	  '*get_unmapped_area*' free_pgtables '*anon_vma*' lock_vma_under_rcu)
if want mm; then
	mm=()
	for g in "${MM_GLOBS[@]}"; do
		mm+=(-t "$g bits 3")
	done
	ab mm "${mm[@]}" --top "${DEMO_MM_TOP:-5}" \
		-w "ks-pagefault -n ${DEMO_MM_N:-5000} -p 4 -m 256 -t user" \
		no-debug=ab-base debug=ab-debug || status=1
fi
# The whole kernel: every function ftrace offers, one node each, the
# snapshots keeping those each run called (save all --called).
if want whole; then
	ab whole -t "* via direct bits 3" --called --rank total --top "${DEMO_WHOLE_TOP:-5}" \
		-w "ks-pagefault -n ${DEMO_MM_N:-5000} -p 4 -m 256 -t user" \
		no-debug=ab-base debug=ab-debug || status=1
fi
if want fork; then
	ab fork -t "kernel_clone bits 3" -t "copy_page_range bits 3" \
		-w "ks-fork -n ${DEMO_FORK_N:-30} -s ${DEMO_FORK_MIB:-64}" \
		out-of-line=ab-base inline=ab-inline || status=1
fi
if want hooks; then
	ab hooks -t "kmem_cache_alloc_noprof bits 5" -t "__alloc_pages_noprof bits 5" \
		-w "ks-alloc -n ${DEMO_ALLOC_N:-20000} -m pipe" \
		behind-config=ab-base unconditional=ab-hooks || status=1
fi

step "summary: $out/summary.md"
/usr/bin/python3 "$REPO/demo/ab_summary.py" "$out" | tee "$out/summary.md"
exit $status
