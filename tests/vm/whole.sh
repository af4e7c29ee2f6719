#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The whole kernel at once (tests/vm/whole/44-whole.sh): every function
# ftrace offers traced in one write on the direct backend, the ground
# truth counted exactly meanwhile, removed in one write, then rmmod; one
# VM session (vm/session.sh) per kernel, its own boot so that its minute
# or two does not press on the VM suite's.  Then the nested calls'
# correction (tests/vm/nested/45-nested.sh) in a boot under -icount, on
# the same kernels.
#
#   tests/vm/whole.sh [KVER]...     default: every x86-64 kernel and the
#                                   newest arm64 one (scripts/kernels.sh)
#
# The modules come from vm/out (make vm-stage-KVER, vm-stage-arm64).
# About 45 s a kernel on 2 cores (x86-64), a minute on arm64, and 20 s
# for the nested boot; 6.1 skips the whole kernel (8,192 direct call
# sites at most before 6.6, kmod/ks_direct.h).

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
rc=0
# both boots of one kernel
both() {
	KS_VM_SCENARIO_TIMEOUT=${KS_VM_SCENARIO_TIMEOUT:-400} \
		"$top/vm/session.sh" -k "$1" --scenarios "$here/whole" || rc=1
	"$top/vm/session.sh" -k "$1" --scenarios "$here/nested" --icount || rc=1
}
if [ $# -gt 0 ]; then
	for kver in "$@"; do
		both "$kver"
	done
	exit $rc
fi
for kver in $("$top/scripts/kernels.sh" list); do
	both "$kver"
done
a=$(KSTATS_ARCH=arm64 "$top/scripts/kernels.sh" newest 2>/dev/null)
if [ -n "$a" ]; then
	export KSTATS_ARCH=arm64	# the last kernel
	both "$a"
fi
exit $rc
