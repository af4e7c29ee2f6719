# SPDX-License-Identifier: GPL-2.0
# The harness checks itself: mounts, helpers, module load/unload.
. /ks/lib.sh

check "debugfs mounted" 'grep -q " /sys/kernel/debug debugfs " /proc/mounts'
check "tmpfs on /tmp" 'grep -q " /tmp tmpfs " /proc/mounts'
expect_eq "running kernel is the one booted" "$(uname -r)" "$KS_KVER"

# The helpers themselves.
expect_eq "expect_eq compares strings" "a b" "a b"
expect_range "expect_range is inclusive" 10 10 10
expect_errno "expect_errno sees ENOENT" ENOENT cat /nonexistent/file
expect_errno "expect_errno sees EINVAL" EINVAL 'echo x > /proc/sys/kernel/printk'
cat > /tmp/node <<'NODE'
# kstats find_vma attach=kretprobe:find_vma clock=local unit=ns bits=3 buckets=37 sample=1 state=active
# samples 2003411 missed 0 min 61 avg 140 max 18532 floor 0
# percentiles p10 89 p50 109 p90 214 p95 332 p98 605 p99 811 p99.9 2040 precision_ppm 125000 estimate slot-mean
slot 55   CPU  0    count      589  avg      480  p 0.027613  n      589
NODE
expect_eq "node_field samples" "$(node_field /tmp/node samples)" 2003411
expect_eq "node_field p99.9" "$(node_field /tmp/node p99.9)" 2040
expect_eq "node_field key=value" "$(node_field /tmp/node state)" active
check "node_field fails on a missing key" '! node_field /tmp/node count'

# A module of our own: insmod, debugfs file, rmmod.
ko=/ks/selftest/ks_hello.ko
if [ -f $ko ]; then
	check "insmod ks_hello" insmod $ko
	expect_eq "ks_hello debugfs value" "$(cat /sys/kernel/debug/ks_hello/value 2>&1)" 42
	check "rmmod ks_hello" rmmod ks_hello
	check "ks_hello debugfs dir removed" '! test -e /sys/kernel/debug/ks_hello'
else
	skip "ks_hello module" "not built (see vm/out/$KS_KVER/selftest/build.log)"
fi
