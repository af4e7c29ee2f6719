# SPDX-License-Identifier: GPL-2.0
# Time to read a node file with every CPU holding samples (its own boot
# with many vCPUs; under icount when that boots, READ_ICOUNT=1: guest ns
# are instructions; else guest ns of emulated wall time).
. /ks/lib.sh

. /scenarios/bench-lib.sh
mkdir -p $KSB_OUT/raw

load_modules || exit 1
[ -f /modules/ks_bench.ko ] && insmod /modules/ks_bench.ko
# Booted with maxcpus=1 (see bench/run.sh): the other CPUs come up now.
for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
	[ -f "$f" ] && [ "$(cat "$f")" = 0 ] && echo 1 > "$f"
done
ncpu=$(nproc)
res info kver=$KS_KVER cpus=$ncpu possible=$(cat /sys/devices/system/cpu/possible) icount=${READ_ICOUNT:-0}
[ -r /sys/kernel/debug/ks_bench/sizes ] &&
	cp /sys/kernel/debug/ks_bench/sizes $KSB_OUT/raw/sizes.txt

node=$KS_DIR/ks_target_delay
delay=/sys/kernel/debug/kstats_target/delay
for bits in 3 5; do
	check "trace, bits $bits" ctl "trace ks_target_delay bits $bits" || continue
	# Samples on every CPU, a spread of slots on each.
	c=0
	while [ $c -lt "$ncpu" ]; do
		taskset "$(printf %x $((1 << c)))" sh -c "for d in 0 100 300 1000 3000 10000 30000; do echo \"50 \$d\" > $delay; done"
		c=$((c + 1))
	done
	cpus=$(grep -c '^slot.* CPU ' $node)
	rows=$(grep -c '^slot' $node)
	ncpus_seen=$(awk '$3 == "CPU" { print $4 }' $node | sort -u | wc -l)
	expect_eq "bits $bits: every CPU has samples" "$ncpus_seen" "$ncpu"
	cp $node $KSB_OUT/raw/node-bits$bits-smp$ncpu.txt
	copt=-c		# CLOCK_MONOTONIC; the TSC under icount
	[ "${READ_ICOUNT:-0}" = 1 ] && copt=""
	l=$(KSB_OPTS="-w 2"; ksb $copt -r 21 read $node) || { fail "ks-bench read"; continue; }
	res read icount=${READ_ICOUNT:-0} bits=$bits cpus=$ncpu rows=$rows cpu_rows=$cpus bytes=$(wc -c < $node) \
		min=$(ksb_field "$l" min) median=$(ksb_field "$l" median) t=$(ksb_field "$l" t)
	ctl "remove ks_target_delay"
done
grep -q "^ks_bench " /proc/modules && rmmod ks_bench
unload_modules
