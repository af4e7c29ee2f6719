#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The VM scenarios that depend on the clock, on QEMU's default x86-64 CPU
# model: no constant or nonstop TSC flag, as in many KVM and cloud
# guests, while the kernel keeps its time on the TSC.  kstats takes the
# counter there too from 6.12 on (49-clock: clock_by=tsc_clocksource), and
# its counts and known latencies hold either way.  One boot, of the newest
# 6.12 kernel, unless -k says otherwise.
#
#   tests/vm/cpu-default.sh [tests/vm/run.sh options]
here=$(cd "$(dirname "$0")" && pwd)
case " $* " in
*" -k "*)	;;
*)	k=$("$here/../../scripts/kernels.sh" list | tr ' ' '\n' | grep '^6\.12\.' | tail -n 1)
	[ -n "$k" ] && set -- -k "$k" "$@" ;;
esac
KS_VM_CPU=default exec "$here/run.sh" -s "${KS_CPU_DEFAULT_SCENARIOS:-10-trace,47-slots,49-clock,50-direct}" "$@"
