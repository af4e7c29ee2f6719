#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kstats beside a real BPF fentry program (tests/vm/bpf/53-bpftrace.sh):
# one VM session (vm/session.sh) per kernel with the host root shared
# read-only over 9p, so that the guest runs Debian's bpftrace from this
# machine (chroot), as bench/ does.
#
#   tests/vm/bpf.sh [KVER]...       default: every kernel (scripts/kernels.sh)
#
# The modules and the guest's kstats come from vm/out (make
# vm-stage-KVER vm-tools).  bpftrace's start-up under TCG makes it slower
# than a scenario of the VM suite: about a minute a kernel on 2 cores.
# The scenario's own limit stays below the boot's (KS_VM_TIMEOUT, 600 s):
# a scenario that hangs is then reported by the guest, with the dmesg
# check, rather than a boot that did not finish.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
[ $# -gt 0 ] || set -- $("$top/scripts/kernels.sh" list)
rc=0
for kver in "$@"; do
	KS_VM_SCENARIO_TIMEOUT=${KS_VM_SCENARIO_TIMEOUT:-420} \
		"$top/vm/session.sh" -k "$kver" --scenarios "$here/bpf" --9p-host-root || rc=1
done
exit $rc
