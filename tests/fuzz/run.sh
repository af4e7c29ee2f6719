#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run libFuzzer targets on their seed corpora (corpus/NAME, dictionary
# NAME.dict) and print one TAP line each (vm/tap.sh):
#   ok N - fuzz_cmd: 1234567 inputs in 20 s, no finding (corpus 812)
# FUZZ_TIME seconds each (default 20); with FUZZ_RUNS, that many inputs
# each unless FUZZ_TIME runs out first.  The
# grown corpus and any crash file go to FUZZ_OUT (default
# ${TMPDIR:-/tmp}/kstats-fuzz); a finding prints the sanitizer report.
#
#   tests/fuzz/run.sh fuzz_cmd fuzz_parse fuzz_snap fuzz_prom
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${FUZZ_OUT:-${TMPDIR:-/tmp}/kstats-fuzz}
time=${FUZZ_TIME:-20}
# shellcheck source=vm/tap.sh
. "$here/../../vm/tap.sh"
for t in "$@"; do
	name=${t#fuzz_}
	mkdir -p "$out/$name/corpus" "$out/$name/crash"
	limit="-max_total_time=$time${FUZZ_RUNS:+ -runs=$FUZZ_RUNS}"
	dict="" maxlen=""
	case $name in cmd) maxlen="-max_len=1024" ;; prom) maxlen="-max_len=4096" ;; *) maxlen="-max_len=2048" ;; esac
	[ -f "$here/$name.dict" ] && dict="-dict=$here/$name.dict"
	start=$(date +%s)
	"$here/$t" $limit $dict $maxlen -print_final_stats=1 \
		-artifact_prefix="$out/$name/crash/" \
		"$out/$name/corpus" "$here/corpus/$name" > "$out/$name/log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$name/log" | tail -n 1)
	size=$(ls "$out/$name/corpus" | wc -l)
	if [ "$rc" -eq 0 ] && [ -n "$runs" ]; then
		ok "$t: $runs inputs in $secs s, no finding (corpus $size)"
	else
		notok "$t: exit $rc after ${runs:-?} inputs (log $out/$name/log)"
		grep -E 'ERROR|SUMMARY|runtime error|#[0-9]+ 0x' "$out/$name/log" |
			head -n 30 | sed 's/^/# /'
		ls "$out/$name/crash" | sed 's/^/# crash file: /'
	fi
done
tap_end
