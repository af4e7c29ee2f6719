#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make demo's three answers, checked by demo/check.py (each part's
# figures and the kernel it ran on, the report within 72 columns), twice:
#
#   tests/demo/run.sh [--quick]
#
# 1. demo/report.py, with this tree's CLI, on a real run kept in
#    tests/demo/data (make demo: find_vma and fork on 7.3.4, the hooks on
#    6.1, the plain-TCG boot; facts and snapshots only): a few seconds, no
#    VM.  A CLI line grown past 72 columns, or a part gone from the
#    report, fails here.
# 2. demo/demo.sh itself with small workloads (DEMO_* below) and without
#    its plain-TCG boot, into a temporary folder: the kernels it picks
#    (the newest, and one with should_failslab for part 2 when the newest
#    has none), both boots at once, what they bring back, the report.
#    About a minute on 2 cores once the modules are staged.
# --quick: 1 alone.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=vm/tap.sh
. "$top/vm/tap.sh"
PY=/usr/bin/python3
quick=0
[ "${1:-}" = --quick ] && quick=1
work=$(mktemp -d /tmp/kstats-demo-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

# 1. The kept run, reported again.
cp -r "$top/tests/demo/data" "$work/kept"
if flock "$top/tools" make -s -C "$top/tools" static > "$work/build.log" 2>&1; then
	ok "tools/kstats.static builds"
else
	notok "tools/kstats.static builds" "$(tail -n 20 "$work/build.log")"
fi
if "$PY" "$top/demo/report.py" "$work/kept" --no-plots \
		--kstats "$top/tools/kstats.static" > "$work/kept.out" 2>&1; then
	ok "report.py on the kept run"
else
	notok "report.py on the kept run" "$(tail -n 20 "$work/kept.out")"
fi
"$PY" "$top/demo/check.py" --need-hooks "$work/kept" > "$work/check-kept.tap"
TAP_PREFIX="kept run: " tap_relay failures < "$work/check-kept.tap"

# 2. A short demo.
if [ $quick = 0 ]; then
	export DEMO_PF_N=1000 DEMO_OPEN_N=2000 DEMO_ALLOC_N=1000 \
		DEMO_FORK_N=3 DEMO_FORK_MIB=8 DEMO_TCG=0 KS_DEMO_VMOUT="$work/vm"
	if "$top/demo/demo.sh" --build -o "$work/short" > "$work/short.log" 2>&1; then
		ok "demo.sh with small workloads"
	else
		notok "demo.sh with small workloads" "$(grep -v '^ok ' "$work/short.log" | tail -n 40)"
	fi
	# the kernels it ran on, from its progress lines
	grep -E '^\[ *[0-9.]+s\] [0-9.]+: booting ' "$work/short.log" | sed 's/^/# /'
	# its own check (demo/check.py, --need-hooks where a kernel here
	# has the hooks)
	if [ -f "$work/short/check.tap" ]; then
		TAP_PREFIX="short run: " tap_relay failures < "$work/short/check.tap"
	else
		notok "short run: demo/check.py ran"
	fi
fi
tap_end
