#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Why the VM tests run QEMU single-threaded, measured: the short sweep
# (tests/vm/sweep.sh) under parallel TCG (one host thread per vCPU), where
# a vCPU can run a stale translation of text another vCPU just patched
# (ftrace's and kprobes' text_poke: an int3 first, then the new bytes)
# and trap on an int3 the kernel already removed.  Real CPUs never do
# that.  This reports, it does not judge: for each boot, whether the guest
# died of such a trap (an "int3:" oops), where, and in which batch; and
# the same sweep's result under single-threaded TCG for comparison.
#
#   tests/vm/mttcg.sh [-k KVER]... [--rounds N] [--seed S]
#
# make test-mttcg.  Prints a summary line per kernel and exits 0 unless
# the single-threaded sweep itself failed (then kstats, not the emulator,
# is at fault).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/scripts/kernels.sh"
OUT=${KS_VM_OUT:-$top/vm/out}

kvers=() rounds=2 seed=""
while [ $# -gt 0 ]; do
	case $1 in
	-k)		kvers+=("$2"); shift ;;
	--rounds)	rounds=$2; shift ;;
	--seed)		seed=$2; shift ;;
	*)		echo "usage: $0 [-k KVER]... [--rounds N] [--seed S]" >&2; exit 2 ;;
	esac
	shift
done
[ -n "$seed" ] || seed=$((RANDOM * 32768 + RANDOM))
[ ${#kvers[@]} -gt 0 ] || mapfile -t kvers < <(ks_kernels)
echo "# mttcg: the short sweep, seed $seed, $rounds round(s) under parallel TCG and one single-threaded, per kernel"
bad=0
for kver in "${kvers[@]}"; do
	log=$OUT/sweep/$kver/console.log
	traps=0 ok=0 other=0 where=""
	r=0
	while [ $r -lt "$rounds" ]; do
		r=$((r + 1))
		KS_VM_TCG_THREAD=multi "$here/sweep.sh" --short --seed "$seed" -k "$kver" > "$OUT/mttcg-$kver-$r.out" 2>&1
		rc=$?
		if grep -aq '^\[ *[0-9.]*\] int3: ' "$log" 2> /dev/null; then
			traps=$((traps + 1))
			rip=$(grep -a -m1 'RIP: 0010:' "$log" | sed 's/.*RIP: 0010://; s/\r//')
			batch=$(grep -aE '^# sweep: batch [0-9]+/[0-9]+ start' "$log" | tail -n1 | tr -d '\r')
			where="$where; round $r: int3 at ${rip:-?} in ${batch#\# sweep: }"
		elif [ $rc = 0 ]; then
			ok=$((ok + 1))
		else
			other=$((other + 1))
			where="$where; round $r: failed without an int3 trap (see $OUT/mttcg-$kver-$r.out)"
		fi
	done
	"$here/sweep.sh" --short --seed "$seed" -k "$kver" > "$OUT/mttcg-$kver-single.out" 2>&1
	single=$?
	[ $single = 0 ] || bad=1
	echo "# mttcg: $kver: parallel TCG: $traps of $rounds boots trapped on a stale int3, $ok passed, $other failed otherwise${where}; single-threaded: $([ $single = 0 ] && echo passed || echo FAILED)"
done
exit $bad
