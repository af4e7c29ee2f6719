#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kstats overhead benchmark (see bench/README.md).  For each installed
# Debian kernel: one boot under QEMU -icount (guest clock = instruction
# count) that measures kstats' backends and the alternatives, then one
# boot with 16 vCPUs (icount too if it boots, else without) that times
# reading a node file.  Prints the table and writes bench-out/bench.json.
#
#   bench/run.sh [-k KVER]...        (make bench; make -j2 vm-stage first)
#
# The kernels: those of scripts/kernels.sh list (KSTATS_ARCH=arm64: the
# arm64 ones, under qemu-system-aarch64; make bench-arm64).  An arm64
# kernel's guest runs the bpftrace of Debian's bpftrace:arm64, installed
# in the Debian 13 root (scripts/deps.sh arm64), which it mounts over 9p
# in place of this machine's root; it has no read boot unless BENCH_READ=1.
#
# Environment: BENCH_SHORT=1 (fewer iterations, one kernel, no read boot),
# BENCH_OUT (default bench-out), BENCH_SMP (vCPUs of the read boot,
# default 16), BENCH_READ=0|1 (skip or force the read boot),
# BENCH_FUNCS, BENCH_CANDIDATES, BENCH_BACKENDS (see params below),
# BENCH_SCENARIOS (the icount boot's scenarios, default '[0-4]*'; e.g.
# '0*,47*' for the glob rows alone), BENCH_GLOB_ALT=0 (47-glob: kstats
# alone, not the other tools).

set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/scripts/kernels.sh"
OUT=${BENCH_OUT:-$ROOT/bench-out}
VMOUT=$OUT/vm
SHORT=${BENCH_SHORT:-0}
SMP=${BENCH_SMP:-16}
PYTHON=/usr/bin/python3

die() { echo "bench: $*" >&2; exit 2; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }

kvers=()
while [ $# -gt 0 ]; do
	case $1 in
	-k)	[ $# -ge 2 ] || die "-k needs a kernel release"; kvers+=("$2"); shift ;;
	*)	die "usage: bench/run.sh [-k KVER]..." ;;
	esac
	shift
done
if [ ${#kvers[@]} -eq 0 ]; then
	mapfile -t kvers < <(ks_kernels)
	[ ${#kvers[@]} -gt 0 ] || die "no kernel with an image and a build tree (make deps)"
	# Short mode: one kernel, the newest (it has every backend).
	[ "$SHORT" = 1 ] && kvers=("${kvers[-1]}")
fi

# Iterations.  N: calls of the empty function per write(); NOPEN: open()s
# per operation; REPS: timed operations (odd: the median is one of them).
# FUNCS: real kernel functions timed under the open() loop (those the
# kernel has); CANDIDATES: functions whose calls per open() are counted;
# BACKENDS: what is tried after "via" (unknown ones are skipped);
# GPASSES: attach/remove passes per glob (47-glob).
if [ "$SHORT" = 1 ]; then
	iters="N=20000 NOPEN=2000 REPS=3 GPASSES=1"
	cands=""
else
	iters="N=100000 NOPEN=10000 REPS=5 GPASSES=3"
	cands="getname_flags path_init lookup_fast should_failslab kmem_cache_alloc"
fi
params() {
	echo "SHORT=$SHORT $iters" | tr ' ' '\n'
	echo "FUNCS='${BENCH_FUNCS:-path_init should_failslab}'"
	echo "CANDIDATES='${BENCH_CANDIDATES-$cands}'"
	echo "BACKENDS='${BENCH_BACKENDS:-kretprobe fprobe direct}'"
	echo "GLOB_ALT=${BENCH_GLOB_ALT:-1}"
}

# bench-out/ keeps itself out of git.
mkdir -p "$OUT"
[ -f "$OUT/.gitignore" ] || echo '*' > "$OUT/.gitignore"

t_start=$(now)
# ks-bench, static, for each architecture of the kernels: in $VMOUT/bin
# for this machine's, $VMOUT/bin-ARCH for another (vm/session.sh).
declare -A karch
for k in "${kvers[@]}"; do
	karch[$k]=$(ks_karch "$k") || die "$k: no kernel config"
done
for a in $(printf '%s\n' "${karch[@]}" | sort -u); do
	bin=$VMOUT/bin cc=gcc
	if [ "$a" != "$(ks_host_arch)" ]; then
		bin=$VMOUT/bin-$a
		[ "$a" = arm64 ] && cc=aarch64-linux-gnu-gcc
	fi
	mkdir -p "$bin"
	$cc -O2 -static -Wall -Wextra -I"$ROOT/include" -o "$bin/ks-bench" "$ROOT/bench/ks-bench.c" ||
		die "cannot build ks-bench for $a with $cc (static glibc: libc6-dev, libc6-dev-arm64-cross)"
done

# Guest modules: kstats.ko, kstats_target.ko, ks_bench.ko and
# kstats_api_sample.ko (the section pair), built for each kernel from the
# same copy of the sources by 'make vm-stage' (vm/stage.sh).
MODULES="kstats.ko kstats_target.ko ks_bench.ko kstats_api_sample.ko"

# boot KVER TAG [-q QEMU_ARGS] SESSION_ARGS...: one VM session
# (vm/session.sh), results collected in $VMOUT/KVER/res-TAG, the session's
# output in $VMOUT/KVER/run-TAG.log.
boot() {
	local k=$1 tag=$2 res=$VMOUT/$1/res-$2 log=$VMOUT/$1/run-$2.log rc qargs="" host=/ bin=$VMOUT/bin
	shift 2
	if [ "$1" = -q ]; then
		qargs=$2
		shift 2
	fi
	rm -rf "$res"
	mkdir -p "$res"
	params > "$res/params"
	echo "READ_ICOUNT=${READ_ICOUNT:-0}" >> "$res/params"
	# The guest chroots into a root of its own architecture for bpftrace
	# and perf: this machine's, or the Debian 13 root (its arm64 packages).
	if [ "${karch[$k]}" != "$(ks_host_arch)" ]; then
		host=$KSTATS_ROOTS/trixie bin=$VMOUT/bin-${karch[$k]}
		echo "HOST_ROOT=$host" >> "$res/params"
	fi
	if [ "${karch[$k]}" = arm64 ]; then
		# 47-glob: one pass, and bpftrace on the one-function glob only
		# (one kprobe per function there, too slow under TCG for 256)
		echo "BPF_GLOB_SETS='kt_gen_3ff*' GPASSES=1" >> "$res/params"
	elif [ "$SHORT" = 1 ] && [ -z "${BPF_GLOB_SETS:-}" ]; then
		# short: bpftrace on the globs of 1 and 256 functions (its
		# 1,026 took 80 of the short run's 380 guest seconds)
		echo "BPF_GLOB_SETS='kt_gen_3ff* kt_gen_3*'" >> "$res/params"
	fi
	"$ROOT/vm/session.sh" -k "$k" --scenarios "$ROOT/bench/scenarios" \
		--work "$VMOUT" --modules $MODULES --stage "$bin/ks-bench" "$res/params" \
		--collect "$res" --9p-host-root="$host" ${qargs:+--qemu-args "$qargs"} \
		--scenario-timeout 1200 --timeout "${KS_VM_TIMEOUT:-900}" "$@" >"$log" 2>&1
	rc=$?
	# the module the figures are of, for the paths walked in its
	# disassembly (bench/insns.py, bench/report.py)
	cp "${KS_VM_OUT:-$ROOT/vm/out}/$k/modules/kstats.ko" "$res/" 2>/dev/null
	grep -E '^# [^ ]+: (boot|QEMU)' "$log"
	if [ $rc -ne 0 ]; then
		echo "# $k: $tag boot had failures ($log):"
		grep -E '^(not ok|#)' "$log" | tail -n 40
	fi
	return $rc
}

status=0
for k in "${kvers[@]}"; do
	mkdir -p "$VMOUT/$k"
	t0=$(now)
	# rcu_nocbs=0: RCU callbacks (a dentry freed per open() in tmpfs) run
	# in a kthread, which SCHED_FIFO ks-bench keeps out of timed runs.
	KS_VM_APPEND=rcu_nocbs=0 boot "$k" icount --icount -s "${BENCH_SCENARIOS:-[0-4]*}" || status=1
	t1=$(now)
	echo "# $k: icount boot $(elapsed "$t0" "$t1")s"
	# Short mode and arm64 skip the read boot unless BENCH_READ=1.
	read_boot=$((1 - SHORT))
	[ "${karch[$k]}" = arm64 ] && read_boot=0
	if [ "${BENCH_READ:-$read_boot}" = 1 ]; then
		# Under icount, 6.1 hangs bringing up secondary CPUs at boot but
		# not when they are brought online later: boot with maxcpus=1,
		# the scenario onlines the others.  Should that fail, time the
		# read in emulated wall time instead.
		if ! READ_ICOUNT=1 KS_VM_APPEND=maxcpus=1 KS_VM_TIMEOUT=300 boot "$k" read \
			-q "-icount shift=0,sleep=off" --smp "$SMP" -s '6*' ||
		   ! grep -q '^read ' "$VMOUT/$k/res-read/results"; then
			echo "# $k: read boot under icount failed, again without icount"
			READ_ICOUNT=0 boot "$k" read --smp "$SMP" -s '6*' || status=1
		fi
		echo "# $k: read boot ($SMP vCPUs) $(elapsed "$t1" "$(now)")s"
	else
		rm -rf "$VMOUT/$k/res-read"	# no stale figures in the report
	fi
done

# Beside this run's kernels in the summary: an earlier run's figures of
# the kernels of the other architecture (make bench-arm64 after make bench).
beside=()
for d in "$VMOUT"/*/res-icount/results; do
	[ -f "$d" ] || continue
	d=${d%/res-icount/results}
	a=$(ks_karch "${d##*/}" 2>/dev/null) || continue
	printf '%s\n' "${karch[@]}" | grep -qx "$a" || beside+=(--beside "$d")
done

$PYTHON "$ROOT/bench/report.py" --check --out "$OUT/bench.json" \
	--runtime "$(elapsed "$t_start" "$(now)")" --short "$SHORT" \
	"${beside[@]}" "${kvers[@]/#/$VMOUT/}" || status=1
exit $status
