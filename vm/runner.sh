#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side: run VM scenarios, then the dmesg check.  Installed in the
# initramfs as /usr/bin/ks-run; /init calls it, and from the -i shell you
# can run it by hand:  ks-run [NAME[,NAME...]]   (names or globs, no .sh;
# default: every /scenarios/*.sh).  Prints TAP lines and a final
#   KSTATS-VM-END pass=P fail=F skip=S
# marker that vm/session.sh checks for.  With KS_COLLECT_ON=1 (ks.collect=1)
# the files under $KS_COLLECT go to the host after each scenario.

. /ks/lib.sh

list=${1:-*}
timeout=${KS_TIMEOUT:-120}

count() { grep -c "^$1\$" "$KS_STATE/results"; }	# vm/tap.sh's words
: > "$KS_STATE/results"		# a fresh count for each ks-run
rm -f "$KS_STATE/n"

names=""
for pat in $(echo "$list" | tr ',' ' '); do
	found=""
	for f in /scenarios/$pat.sh; do
		[ -f "$f" ] || continue
		n=${f##*/}
		names="$names ${n%.sh}"
		found=1
	done
	[ -n "$found" ] || { TAP_PREFIX="$KS_KVER: $pat: "; fail "no such scenario"; }
done

echo
echo "KSTATS-VM-BEGIN kver=$KS_KVER cpus=$(nproc) uptime=$(cut -d' ' -f1 /proc/uptime)"

for name in $names; do
	export KS_SCENARIO=$name
	TAP_PREFIX="$KS_KVER: $name: "
	before=$(($(count ok) + $(count notok) + $(count skip)))
	fails=$(count notok)
	t0=$(cut -d' ' -f1 /proc/uptime)
	echo "# scenario $name (uptime $t0)"
	timeout "$timeout" sh "/scenarios/$name.sh" < /dev/null
	rc=$?
	after=$(($(count ok) + $(count notok) + $(count skip)))
	if [ $rc -eq 124 ] || [ $rc -eq 137 ] || [ $rc -eq 143 ]; then
		fail "timed out after ${timeout}s (status $rc)"
	elif [ "$after" -eq "$before" ]; then
		fail "reported no results (exit status $rc)"
	elif [ $rc -ne 0 ] && [ "$(count notok)" -eq "$fails" ]; then
		fail "exited with status $rc"
	fi
	echo "# scenario $name done (status $rc, uptime $(cut -d' ' -f1 /proc/uptime))"
	[ "${KS_COLLECT_ON:-0}" = 1 ] && ks_publish
done

TAP_PREFIX="$KS_KVER: "
if bad=$(dmesg_bad); then
	notok "dmesg clean" "$(printf '%s\n' "$bad" | head -n 80)"
else
	ok "dmesg clean"
fi

echo "KSTATS-VM-END pass=$(count ok) fail=$(count notok) skip=$(count skip) uptime=$(cut -d' ' -f1 /proc/uptime)"
