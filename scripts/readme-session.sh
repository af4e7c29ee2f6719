#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the README's example session, run for real in the VM on one
# kernel (default: the newest installed): scripts/readme-session.sh [KVER]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
kver=${1:-$(scripts/kernels.sh newest)}
make -s "vm-stage-$kver" >&2
KS_VM_SCENARIOS=$top/docs/session tests/vm/run.sh -k "$kver" >&2
sed -n '/^=== SESSION BEGIN/,/^=== SESSION END/p' "vm/out/$kver/console.log" |
	sed '1d;$d' | tr -d '\r'
