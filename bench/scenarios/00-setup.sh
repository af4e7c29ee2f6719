# SPDX-License-Identifier: GPL-2.0
# Benchmark set-up: modules, the host root for bpftrace and
# perf, and what this kernel offers (functions, tools).
. /ks/lib.sh

. /scenarios/bench-lib.sh
: > $KSB_RES

# ks-bench runs SCHED_FIFO (bench-lib.sh): no RT throttling in its way.
check "RT throttling off" 'echo -1 > /proc/sys/kernel/sched_rt_runtime_us'
grep -qw rcu_nocbs=0 /proc/cmdline || diag "no rcu_nocbs=0: RCU callbacks may run inside timed operations"

load_modules || exit 1
if [ -f /modules/ks_bench.ko ]; then
	check "insmod ks_bench.ko" insmod /modules/ks_bench.ko
else
	skip "insmod ks_bench.ko" "not staged (make vm-stage-$KS_KVER)"
fi
mkdir -p $KSB_TMP

res info kver=$KS_KVER cpus=$(nproc) icount=${KS_ICOUNT:-0} short=${SHORT:-0}

# Functions for the open("non_existent") workload that this kernel has.
for f in getname_flags path_init lookup_fast should_failslab kmem_cache_alloc; do
	if grep -q " $f\$" /proc/kallsyms; then
		res func name=$f present=1
	else
		res func name=$f present=0
	fi
done

# The host root (bpftrace, perf and their libraries) over 9p.
if check "host root mounted" mount_host_root $KSB_HOST; then
	mount -o rbind /proc $KSB_HOST/proc &&
	mount -o rbind /sys $KSB_HOST/sys &&
	mount -o rbind /dev $KSB_HOST/dev &&
	mount -o bind /tmp $KSB_HOST/tmp
	check "host root prepared" test -e $KSB_HOST/sys/kernel/debug/kstats/_control
	cp /usr/bin/ks-bench /tmp/ks-bench
	res tool name=bpftrace version="$(enc "$(in_host bpftrace --version 2>&1 | head -n1)")"
	res tool name=perf version="$(enc "$(in_host perf version 2>&1 | head -n1)")"
fi
