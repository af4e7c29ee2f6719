#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make test-debug: the VM suite on a kernel that finds a tracer's bugs.
# Builds (or finds cached) the "debug" kernel from Debian's
# linux-source-6.12 with scripts/build-kernel.sh: the VM base config plus
# kernels/debug.config (KASAN, PROVE_LOCKING, DEBUG_ATOMIC_SLEEP,
# DEBUG_KMEMLEAK, FAILSLAB, FAIL_PAGE_ALLOC, FAIL_FUNCTION, FPROBE).  Then
# boots it with every scenario of tests/vm/scenarios plus those of
# tests/debug/scenarios: a kmemleak baseline first (01), the sweep of every
# fault-injection point of "trace" (90-faults), a kmemleak scan last (99).
# Any BUG, WARNING, KASAN or lockdep report, or a leak, fails the run.
#
#   tests/debug/run.sh            (KS_DEBUG_KERNEL=NAME: another variant)
#   tests/debug/run.sh --build    the kernel and its modules only (for
#                                 make test-sweep-debug)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
name=${KS_DEBUG_KERNEL:-debug}
out=$top/tests/debug/out
T0=$(date +%s)
step() { printf '# [%4ds] %s\n' $(($(date +%s) - T0)) "$*"; }

if [ ! -f "${KSTATS_CACHE:-/var/cache/kstats}/kernels/$name/bzImage" ]; then
	step "building the debug kernel: about 30 minutes on 2 cores the first time (docs/reliability.md)"
fi
"$top/scripts/build-kernel.sh" -c "$top/kernels/debug.config" "$name" | sed 's/^/# /'
step "modules for $name"
"$top/vm/stage.sh" build "$name" | sed 's/^/# /'
[ "${1:-}" != --build ] || exit 0
rm -rf "$out/scenarios"
mkdir -p "$out/scenarios"
cp "$top"/tests/vm/scenarios/*.sh "$top"/tests/debug/scenarios/*.sh "$out/scenarios/"
step "booting $name: $(ls "$out/scenarios" | tr '\n' ' ')"
# 90-faults alone, one scenario, runs about 50 minutes here, most of it
# the clone sweep (the guest's limit per scenario: 90 minutes).  KASAN and
# lockdep make everything several times slower under TCG; on a loaded
# host the boot-time check of the timer interrupt can fail
# (no_timer_check).
KS_VM_SCENARIOS=$out/scenarios KS_VM_SCENARIO_TIMEOUT=${KS_VM_SCENARIO_TIMEOUT:-5400} \
	KS_VM_TIMEOUT=${KS_VM_TIMEOUT:-9000} KS_VM_APPEND="log_buf_len=8M no_timer_check ks.slack=${KS_DEBUG_SLACK:-2000000} ${KS_VM_APPEND:-}" \
	"$top/tests/vm/run.sh" -k "$name"
