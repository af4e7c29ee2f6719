#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The whole kernel at once (tests/vm/whole/44-whole.sh): every function
# ftrace offers traced in one write on the direct backend, the ground
# truth counted exactly meanwhile, removed in one write, then rmmod; one
# VM session (vm/session.sh) per kernel, its own boot so that its minute
# or two does not press on the VM suite's.
#
#   tests/vm/whole.sh [KVER]...     default: every x86-64 kernel and the
#                                   newest arm64 one (scripts/kernels.sh)
#
# The modules come from vm/out (make vm-stage-KVER, vm-stage-arm64).
# About 45 s a kernel on 2 cores (x86-64), a minute on arm64; 6.1 skips
# (8,192 direct call sites at most before 6.6, kmod/ks_direct.h).

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
rc=0
if [ $# -gt 0 ]; then
	for kver in "$@"; do
		KS_VM_SCENARIO_TIMEOUT=${KS_VM_SCENARIO_TIMEOUT:-400} \
			"$top/vm/session.sh" -k "$kver" --scenarios "$here/whole" || rc=1
	done
	exit $rc
fi
for kver in $("$top/scripts/kernels.sh" list); do
	KS_VM_SCENARIO_TIMEOUT=${KS_VM_SCENARIO_TIMEOUT:-400} \
		"$top/vm/session.sh" -k "$kver" --scenarios "$here/whole" || rc=1
done
a=$(KSTATS_ARCH=arm64 "$top/scripts/kernels.sh" newest 2>/dev/null)
if [ -n "$a" ]; then
	KSTATS_ARCH=arm64 KS_VM_SCENARIO_TIMEOUT=${KS_VM_SCENARIO_TIMEOUT:-400} \
		"$top/vm/session.sh" -k "$a" --scenarios "$here/whole" || rc=1
fi
exit $rc
