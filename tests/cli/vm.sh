#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run tests/vm/scenarios/60-cli.sh (tools/kstats against the live module)
# in a VM session (vm/session.sh), with tools/kstats.static as the guest's
# kstats, and keep the node text the scenarios print in vm-out/captures/
# (in fixtures/, where the parser tests pick them up, with
# KS_CLI_SAVE_FIXTURES=1).
#
#   tests/cli/vm.sh [vm/session.sh options, e.g. -k 6.1.0-57-amd64]
#
# The modules come from vm/out/KVER/modules/ (make vm-stage).

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$here/../..
out=${KS_CLI_VM_OUT:-$here/vm-out}

make -s -C "$top/tools" static
mkdir -p "$out"

set +e
"$top/vm/session.sh" --scenarios "$top/tests/vm/scenarios" -s 60-cli \
	--stage "$top/tools/kstats.static:/usr/bin/kstats" \
	--stage "$top/tools/kstats-test.static:/usr/bin/kstats-test" --work "$out" "$@"
rc=$?
cap=$out/captures
[ "${KS_CLI_SAVE_FIXTURES:-0}" = 1 ] && cap=$here/fixtures
mkdir -p "$cap"
for log in "$out"/*/console.log; do
	[ -f "$log" ] || continue
	tr -d '\r' <"$log" | awk -v dir="$cap" '
		/^=== node BEGIN / { f = dir "/" $4; print "# SPDX-License-Identifier: GPL-2.0" > f; next }
		/^=== node END/ { if (f) close(f); f = ""; next }
		f && !/^\[ *[0-9]+\.[0-9]+\]/ { print >> f }'
done
echo "# node captures in $cap"
exit $rc
