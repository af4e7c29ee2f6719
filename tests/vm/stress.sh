#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The SMP stress (tests/vm/stress, 4 vCPUs) on a loaded host: KS_HOGS
# (default 2) busy loops run beside the VM for as long as it does, so that
# its vCPUs are descheduled at any moment, as on a busy CI machine.  The
# exact counts of the stress must hold all the same.
#
#   tests/vm/stress.sh [tests/vm/run.sh options]
here=$(cd "$(dirname "$0")" && pwd)
hogs=""
stop_hogs() {
	# shellcheck disable=SC2086
	[ -n "$hogs" ] && kill $hogs 2> /dev/null
	hogs=""
}
trap stop_hogs EXIT INT TERM
i=0
while [ "$i" -lt "${KS_HOGS:-2}" ]; do
	yes > /dev/null &
	hogs="$hogs $!"
	i=$((i + 1))
done
echo "# stress: $i CPU hogs beside the VM (KS_HOGS)"
KS_VM_SCENARIOS="$here/stress" "$here/run.sh" --smp 4 "$@"
