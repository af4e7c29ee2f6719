#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kstats compare --prometheus on native histograms: two kstats serve, each
# on a fake debugfs ($KSTATS_DEBUGFS) whose find_vma grows by 4,000 calls
# a second (mkfixture: the same stream, B's values 10% longer), scraped
# every second by Debian's prometheus with --enable-feature=native-histograms;
# then compare --prometheus on the two instances over the last 10 s: the
# native series are read (the note says so, 16 buckets per power of two,
# within 4%), the mean's change is the nodes' own within 1.5 points (the
# window's calls against all of them), and the count of the last scrape
# is the node's; a reset of A inside the window is refused.  Prints
# "ok - ..." / "not ok - ..." lines (tests/cli/run.sh numbers them);
# skips without prometheus or serve.
#
#   tests/cli/prometheus-native.sh [KSTATS]

set -u
here=$(cd "$(dirname "$0")" && pwd)
K=${1:-$here/../../tools/kstats}
MK=$here/mkfixture
# shellcheck source=vm/tap.sh
. "$here/../../vm/tap.sh"
if ! command -v prometheus >/dev/null 2>&1 || ! command -v curl >/dev/null 2>&1; then
	skip "compare --prometheus on native histograms" "apt-get install prometheus curl"
	exit 0
fi
if "$K" serve --listen x 2>&1 | grep -q 'not in this build'; then
	skip "compare --prometheus on native histograms" "no serve in this build"
	exit 0
fi
tmp=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
export LC_ALL=C
port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

for s in a b; do
	mkdir "$tmp/$s"
	printf 'find_vma kretprobe active 0 0\n' >"$tmp/$s/_control"
done
# grow TO: both nodes' calls 0..TO of the same stream, B's at 110%
grow() {
	"$MK" find_vma 3 1 100 0 "$1" >"$tmp/a/f.new" && mv "$tmp/a/f.new" "$tmp/a/find_vma"
	"$MK" find_vma 3 1 110 0 "$1" >"$tmp/b/f.new" && mv "$tmp/b/f.new" "$tmp/b/find_vma"
}
grow 100
pa=$(port) pb=$(port) pp=$(port)
KSTATS_DEBUGFS=$tmp/a "$K" serve --listen 127.0.0.1:$pa 2>"$tmp/a.err" &
pids="$pids $!"
KSTATS_DEBUGFS=$tmp/b "$K" serve --listen 127.0.0.1:$pb 2>"$tmp/b.err" &
pids="$pids $!"
cat >"$tmp/prom.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: kstats
    static_configs:
      - targets: ['127.0.0.1:$pa', '127.0.0.1:$pb']
EOF
prometheus --config.file="$tmp/prom.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address=127.0.0.1:$pp --enable-feature=native-histograms >"$tmp/prom.log" 2>&1 &
pids="$pids $!"
i=0
until curl -sf "http://127.0.0.1:$pp/-/ready" >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -lt 100 ] || { notok "prometheus ready"; tap_diag "$tmp/prom.log"; exit 0; }
	sleep 0.2
done
i=1
while [ $i -le 14 ]; do
	grow $((100 + i * 4000))
	sleep 1
	i=$((i + 1))
done
sleep 2		# a scrape of the last growth
at=$(date +%s)
"$K" compare --prometheus "http://127.0.0.1:$pp" --window 10s --at "$at" \
	"instance=\"127.0.0.1:$pa\"" "instance=\"127.0.0.1:$pb\"" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && grep -q '^# percentiles: bucket middles, within 4% (Prometheus native histograms,$' "$tmp/out" &&
   grep -q '^# 16 per power of two)$' "$tmp/out"; then
	ok "compare --prometheus: the series are native, read as such, the note says so (within 4%, 16 per power of two: schema 4 for bits 3)"
else
	notok "compare --prometheus on native series (exit $rc)"; tap_diag "$tmp/out" "$tmp/err"
fi
own=$(awk '$2 == "samples" { print $7 }' "$tmp/a/find_vma" "$tmp/b/find_vma" | tr '\n' ' ' |
	awk '{ printf "%+.1f", ($2 / $1 - 1) * 100 }')
got=$(awk '$1 == "mean" { sub(/%/, "", $4); print $4, $NF }' "$tmp/out")
if awk -v o="$own" -v g="${got% *}" 'BEGIN { d = g - o; exit !(d <= 1.5 && d >= -1.5) }' &&
   [ "${got#* }" = "worse?" ]; then
	ok "compare --prometheus, native: mean ${got% *}% (the nodes' own $own%), worse? (one machine a side)"
else
	notok "compare --prometheus, native: mean '$got', the nodes' own $own%"; tap_diag "$tmp/out"
fi
# the last scrape: histogram_count() == the node's samples
want=$(awk '$2 == "samples" { print $3 }' "$tmp/a/find_vma")
cnt=$(curl -s -G --data-urlencode "query=histogram_count(kstats_latency_seconds{instance=\"127.0.0.1:$pa\"})" \
	--data-urlencode "time=$at" "http://127.0.0.1:$pp/api/v1/query" | sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p')
expect "Prometheus: histogram_count() of the last scrape == the node's samples ($want)" "$cnt" "$want"
# kstats reset on A: its native count falls; a window across it is refused
"$MK" find_vma 3 1 100 0 100 >"$tmp/a/f.new" && mv "$tmp/a/f.new" "$tmp/a/find_vma"
sleep 3
"$K" compare --prometheus "http://127.0.0.1:$pp" --window 10s \
	"instance=\"127.0.0.1:$pa\"" "instance=\"127.0.0.1:$pb\"" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && grep -q "find_vma on 127.0.0.1:$pa was reset inside the 10s window" "$tmp/err" &&
   [ "$(wc -l <"$tmp/err")" = 1 ]; then
	ok "compare --prometheus, native: a reset inside the window is refused, one line"
else
	notok "compare --prometheus, native: a reset inside the window (exit $rc)"; tap_diag "$tmp/err"
fi
