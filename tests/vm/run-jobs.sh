#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The VM suite on several kernels, JOBS boots at a time (make vm: 2).  A
# boot is one host thread (QEMU's TCG runs single-threaded), so one boot
# at a time leaves a core idle; each job's lines are printed after the
# boots ended, job after job, renumbered as one run, then
# N passed, N failed, N skipped.
#
#   tests/vm/run-jobs.sh JOBS JOB... [-- tests/vm/run.sh options]
#
# A JOB is a KVER (tests/vm/run.sh -k KVER and the options), or make:TARGET
# (make -s TARGET: its boots one after another, in one of the JOBS; make
# test's vm suite runs the arm64 kernels' part so, beside the x86-64
# kernels, on the core the last of them leaves idle).  The jobs start in
# the order given: the longest first.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=vm/tap.sh
. "$here/../../vm/tap.sh"

[ $# -ge 2 ] && [ "$1" -ge 1 ] 2>/dev/null || {
	echo "usage: $0 JOBS JOB... [-- run.sh options]" >&2
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
	case ${kvers[$i]} in
	make:*)	{ MAKEFLAGS= make -s -C "$here/../.." "${kvers[$i]#make:}" > "$logs/$i" 2>&1; echo $? > "$logs/$i.rc"; } & ;;
	*)	{ "$here/run.sh" -k "${kvers[$i]}" "$@" > "$logs/$i" 2>&1; echo $? > "$logs/$i.rc"; } & ;;
	esac
done
wait
for i in "${!kvers[@]}"; do
	tap_relay all < "$logs/$i"
	rc=$(cat "$logs/$i.rc" 2>/dev/null || echo 255)
	# a run that failed without a failed check (a usage error, a crash)
	if [ "$rc" -ne 0 ] && ! grep -q '^not ok ' "$logs/$i"; then
		case ${kvers[$i]} in
		make:*) notok "${kvers[$i]#make:}: make exited with status $rc" ;;
		*)	notok "${kvers[$i]}: tests/vm/run.sh exited with status $rc" ;;
		esac
	fi
done
tap_end
