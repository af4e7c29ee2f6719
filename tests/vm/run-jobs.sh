#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The VM suite on several kernels, JOBS boots at a time (make vm: 2).  A
# boot is one host thread (QEMU's TCG runs single-threaded), so one boot
# at a time leaves a core idle; each kernel's lines are printed after the
# boots ended, kernel after kernel, renumbered as one run, then
# N passed, N failed, N skipped.
#
#   tests/vm/run-jobs.sh JOBS KVER... [-- tests/vm/run.sh options]
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=vm/tap.sh
. "$here/../../vm/tap.sh"

[ $# -ge 2 ] && [ "$1" -ge 1 ] 2>/dev/null || {
	echo "usage: $0 JOBS KVER... [-- run.sh options]" >&2
	exit 2
}
jobs=$1
shift
kvers=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	kvers+=("$1")
	shift
done
[ "${1:-}" = -- ] && shift
logs=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$logs"' EXIT
trap 'exit 130' INT TERM

for i in "${!kvers[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	{ "$here/run.sh" -k "${kvers[$i]}" "$@" > "$logs/$i" 2>&1; echo $? > "$logs/$i.rc"; } &
done
wait
for i in "${!kvers[@]}"; do
	tap_relay all < "$logs/$i"
	rc=$(cat "$logs/$i.rc" 2>/dev/null || echo 255)
	# a run that failed without a failed check (a usage error, a crash)
	if [ "$rc" -ne 0 ] && ! grep -q '^not ok ' "$logs/$i"; then
		notok "${kvers[$i]}: tests/vm/run.sh exited with status $rc"
	fi
done
tap_end
