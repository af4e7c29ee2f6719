#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the README's example sessions, run for real in the VM on one
# kernel (default: the newest installed): scripts/readme-session.sh [KVER]
# (docs/session: the first session, then find_vma's call sites and
# slowest calls)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
kver=${1:-$(scripts/kernels.sh newest)}
make -s "vm-stage-$kver" vm-tools >&2
KS_VM_SCENARIOS=$top/docs/session tests/vm/run.sh -k "$kver" >&2
for part in SESSION CALLERS; do
	sed -n "/^=== $part BEGIN/,/^=== $part END/p" "vm/out/$kver/console.log" |
		sed '1d;$d' | tr -d '\r'
	echo
done
