#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The sweep: kstats attached to every function ftrace offers, in batches,
# under a mixed workload, one boot per kernel (tests/vm/sweep/90-sweep.sh
# says what each batch does).  --short (the default, make test's sweep
# suite) sweeps a seeded random sample of about 2,000 functions; --full
# (make test-sweep) every function: 40 minutes or so a kernel.
#
#   tests/vm/sweep.sh [-k KVER]... [--full|--short] [--seed N] [--batch B]
#                     [--workload MS] [--stall S] [--only GLOB,GLOB...]
#                     [--no-hotplug] [--timeout S] [--whole all|N|0] [--whole-only]
#
# Each kernel boots with 2 vCPUs, an ext4 image on virtio-blk (made here
# with mkfs.ext4), and oops=panic panic=-1 softlockup_panic=1
# hung_task_panic=1 with RCU stall warnings on; the guest sets a 30 s
# hung-task timeout.  A guest that stops (the host timeout, or a console
# silent for --stall seconds, default 600) fails with the batch it was
# in.  --only replays one batch: these globs (counts unchecked).
# --no-hotplug leaves the vCPUs online in the workload (make test's short
# form; make test-sweep takes vCPU 1 offline and online in each batch,
# with the guest's commands on vCPU 0: sweep/90-sweep.sh says why).
# --timeout S: the guest's limit (default 600 s short, 9000 s full; the
# debug kernel, KASAN and lockdep under TCG, needs more: make
# test-sweep-debug).
# --whole: the whole-kernel pass (sweep/90-sweep.sh): every function at
# once (all: --full's default), a seeded random N at once (--short's: 10000)
# or none (0); --whole-only: that pass alone.
# KSTATS_ARCH=arm64 sweeps the arm64 kernels.  The last line is
# "N passed, N failed, N skipped".
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/scripts/kernels.sh"
OUT=${KS_VM_OUT:-$top/vm/out}

kvers=() mode=short seed="" batch="" wl="" stall=600 only="" hotplug=1 timeout="" whole="" wonly=0
usage() {
	sed -n '/^#   tests.vm.sweep.sh/,/^#$/p' "$0" | sed 's/^#//; 1s/^ */usage: /' >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	-k)		[ $# -ge 2 ] || usage; kvers+=("$2"); shift ;;
	--full)		mode=full ;;
	--short)	mode=short ;;
	--seed)		[ $# -ge 2 ] || usage; seed=$2; shift ;;
	--batch)	[ $# -ge 2 ] || usage; batch=$2; shift ;;
	--workload)	[ $# -ge 2 ] || usage; wl=$2; shift ;;
	--stall)	[ $# -ge 2 ] || usage; stall=$2; shift ;;
	--only)		[ $# -ge 2 ] || usage; only=$2; shift ;;
	--no-hotplug)	hotplug=0 ;;
	--timeout)	[ $# -ge 2 ] || usage; timeout=$2; shift ;;
	--whole)	[ $# -ge 2 ] || usage; whole=$2; shift ;;
	--whole-only)	wonly=1 ;;
	*)		usage ;;
	esac
	shift
done
case $seed in '') seed=$((RANDOM * 32768 + RANDOM)) ;; *[!0-9]*) usage ;; esac
[ ${#kvers[@]} -gt 0 ] || mapfile -t kvers < <(ks_kernels)
[ ${#kvers[@]} -gt 0 ] || { echo "sweep: no kernel (scripts/kernels.sh list)" >&2; exit 2; }
command -v mkfs.ext4 > /dev/null || { echo "sweep: mkfs.ext4 missing (e2fsprogs)" >&2; exit 2; }

# Limits: measured here (2 cores, TCG) a short sweep takes 2-3 minutes a
# kernel; a full one on 6.12: 13 minutes for the 43,595 functions on the
# default backend, then about 50 s per 300 functions via fprobe and 20 s
# via kretprobe (40 minutes or so); the guest's limit comes first.
if [ $mode = full ]; then
	scen_timeout=9000 host_timeout=9600
else
	scen_timeout=600 host_timeout=900
fi
case $timeout in
'') ;;
*[!0-9]*) usage ;;
*) scen_timeout=$timeout host_timeout=$((timeout + 300)) ;;
esac
append="ks.sweep=$mode ks.seed=$seed softlockup_panic=1 hung_task_panic=1"
append="$append rcupdate.rcu_cpu_stall_suppress=0"
# An RCU Tasks grace period held up for 30 s (7500 jiffies at Debian's
# HZ=250) names its holdout tasks, with their stacks, in the log
append="$append rcupdate.rcu_task_stall_timeout=7500"
[ -n "$batch" ] && append="$append ks.sweep_batch=$batch"
[ -n "$wl" ] && append="$append ks.sweep_ms=$wl"
[ -n "$only" ] && append="$append ks.sweep_only=$only"
[ $hotplug = 0 ] && append="$append ks.sweep_hotplug=0"
case $whole in '') ;; all|[0-9]*) append="$append ks.sweep_whole=$whole" ;; *) usage ;; esac
[ $wonly = 1 ] && append="$append ks.sweep_whole_only=1"

work=$OUT/sweep
mkdir -p "$work"
img=$(mktemp "$work/ext4.XXXXXX")
trap 'rm -f "$img"' EXIT
# shellcheck source=vm/tap.sh
. "$top/vm/tap.sh"		# the lines of every boot, renumbered and counted

echo "# sweep: $mode, seed $seed (--seed $seed replays it), kernels: ${kvers[*]}"
for kver in "${kvers[@]}"; do
	truncate -s 0 "$img" && truncate -s 96M "$img" && mkfs.ext4 -F -q "$img" ||
		{ echo "sweep: mkfs.ext4 $img failed" >&2; exit 2; }
	log=$work/$kver/console.log
	out=$work/$kver.out
	mkdir -p "$work/$kver"
	rm -f "$log"
	t0=$(date +%s)
	"$top/vm/session.sh" -k "$kver" --scenarios "$here/sweep" --smp 2 --work "$work" \
		--kmods "virtio_pci virtio_blk ext4" \
		--qemu-args "-drive file=$img,if=virtio,format=raw" \
		--append "$append" --timeout $host_timeout --scenario-timeout $scen_timeout \
		> "$out" 2>&1 &
	spid=$!
	# The watchdog: a console silent for $stall seconds ends the boot.
	stalled=0 last=-1 still=0
	while kill -0 $spid 2> /dev/null; do
		sleep 5
		[ -f "$log" ] || continue	# waiting for the kernel's lock
		size=$(stat -c %s "$log")
		if [ "$size" = "$last" ]; then
			still=$((still + 5))
		else
			still=0 last=$size
		fi
		if [ $still -ge "$stall" ]; then
			stalled=1
			kill -TERM $spid 2> /dev/null
			break
		fi
	done
	wait $spid
	rc=$?
	# Killed, session.sh reports nothing: the guest's own lines then.
	src=$out
	grep -qE '^(not )?ok [0-9]' "$out" || src=$log
	if [ "$src" = "$out" ]; then
		tap_relay all < <(tr -d '\r' < "$src")
	else
		tap_relay failures < <(tr -d '\r' < "$src")
	fi
	grep -a '^# sweep summary' "$log" | tr -d '\r'
	# The batch the guest was in: the last "sweep: batch K/N start",
	# unless its "done" came after.
	last=$(grep -aE '^# sweep: batch [0-9]+/[0-9]+ (start|done)' "$log" | tr -d '\r' | tail -n1)
	case $last in
	*" done "*)	last="none: after ${last#\# sweep: }" ;;
	?*)		last="batch ${last#\# sweep: batch }" ;;
	esac
	said=$(grep -a '^# sweep: ' "$log" | tr -d '\r' | tail -n1)
	if [ $stalled = 1 ] || ! grep -aq '^KSTATS-VM-END' "$log"; then
		why="the guest stopped"
		[ $stalled = 1 ] && why="the console stayed silent for ${stall}s"
		notok "$kver: sweep: $why, in ${last:-none: before the first batch}" \
			"its last word: ${said:-none}" "its last console lines:" \
			"$(tail -n 30 "$log" | tr -d '\r' | sed 's/^/| /')"
	elif [ $rc -ne 0 ]; then
		echo "# $kver: the last batch: ${last:-none}; the last word: ${said:-none}"
	fi
	echo "# $kver: sweep took $(($(date +%s) - t0)) s (console: $log)"
done
tap_end
