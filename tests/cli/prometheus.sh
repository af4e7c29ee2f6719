#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kstats compare --prometheus against a real Prometheus: tests/cli/promdata.py
# writes kstats' exported histograms of nine machines of known delays
# (OpenMetrics text), promtool imports them into a TSDB, Debian's
# prometheus serves it on 127.0.0.1 (a free port), and compare reads it
# through the HTTP API.  Prints "ok - ..." / "not ok - ..." lines
# (tests/cli/run.sh numbers them); skips, with one "ok", without
# prometheus and promtool.  About 5 s.
#
#   tests/cli/prometheus.sh [KSTATS]

set -u
here=$(cd "$(dirname "$0")" && pwd)
K=${1:-$here/../../tools/kstats}
# shellcheck source=vm/tap.sh
. "$here/../../vm/tap.sh"
for c in prometheus promtool curl; do
	if ! command -v $c >/dev/null 2>&1; then
		skip "compare --prometheus" "apt-get install prometheus curl"
		exit 0
	fi
done
tmp=$(mktemp -d)
pid=""
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM

# A port nothing listens on (the kernel's pick, released).
free_port() {
	/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

r() { "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }

# fails1 WHAT TEXT COMMAND...: status 1, exactly one line on stderr holding TEXT.
fails1() {
	what=$1 text=$2; shift 2
	r "$@"
	if [ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -qF -- "$text" "$tmp/err" &&
	   [ ! -s "$tmp/out" ]; then
		ok "$what: $(cat "$tmp/err")"
	else
		notok "$what (exit $rc, wanted 1 and one line with '$text')"; tap_diag "$tmp/err" "$tmp/out"
	fi
}

# The data ends now: Prometheus' head and the imported block side by side.
end=$(date +%s)
/usr/bin/python3 "$here/promdata.py" "$end" >"$tmp/data.om"
if promtool tsdb create-blocks-from openmetrics "$tmp/data.om" "$tmp/tsdb" >"$tmp/promtool.log" 2>&1; then
	ok "promtool imports 20 minutes of 9 machines' histograms"
else
	notok "promtool tsdb create-blocks-from openmetrics"; tap_diag "$tmp/promtool.log"
	exit 1
fi
printf 'global:\n  scrape_interval: 15s\n' >"$tmp/prometheus.yml"
port=$(free_port)
P=http://127.0.0.1:$port
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
	--storage.tsdb.retention.time=100y --web.listen-address=127.0.0.1:"$port" \
	>"$tmp/prometheus.log" 2>&1 &
pid=$!
n=0
until curl -sf "$P/-/ready" >/dev/null 2>&1; do
	n=$((n + 1))
	if [ $n -gt 150 ] || ! kill -0 "$pid" 2>/dev/null; then
		notok "prometheus ready on $P"; tap_diag "$tmp/prometheus.log"
		exit 1
	fi
	sleep 0.2
done
ok "prometheus ready on $P"

A='release="6.1.0-57-amd64"'
B='release="6.12.95+deb12-amd64"'
cmp() { r "$K" compare --prometheus "$P" --window 10m --at "$end" "$@"; }

# row FIGURE: the fields of that row of the last table
row() { awk -v f="$1" '$1 == f' "$tmp/out"; }
# bounds_hold FIGURE PCT: the row's 95% bounds [lo,hi] hold PCT
bounds_hold() {
	row "$1" | awk -v x="$2" '{ b = $7; gsub(/[][+]/, "", b); split(b, v, ",");
		exit !(v[1] + 0 <= x && x <= v[2] + 0) }'
}
wide() { awk 'length > 72 { bad = 1 } END { exit bad + 0 }' "$tmp/out"; }

# ---- A 10 us against B 12 us, three machines a side: the mean is worse ----
cmp "$A" "$B" --function find_vma
cp "$tmp/out" "$tmp/find_vma.txt"
sed 's/^/# /' "$tmp/out"
if [ $rc = 0 ] && [ "$(row mean | awk '{ print $8 }')" = worse ]; then
	ok "find_vma: mean $(row mean | awk '{ print $2, "->", $5, $4 }') worse"
else
	notok "find_vma: the mean is worse (exit $rc)"; tap_diag "$tmp/err"
fi
if bounds_hold mean 20; then
	ok "find_vma: the mean's 95% bounds $(row mean | awk '{ print $7 }') hold the true +20%"
else
	notok "find_vma: the mean's 95% bounds hold +20%: $(row mean)"
fi
chg=$(row mean | awk '{ c = $4; sub(/%/, "", c); print c }')
if awk -v c="$chg" 'BEGIN { exit !(c > 17 && c < 23) }'; then
	ok "find_vma: the mean's change $chg% is +20% within 3%"
else
	notok "find_vma: the mean's change $chg%, wanted 17..23"
fi
if [ "$(row mean | awk '{ print $2, $3, $5, $6 }')" = "10.1 3.0% 12.1 1.8%" ]; then
	ok "find_vma: means 10.1 and 12.1 us, run-to-run sd 3.0% and 1.8% (the machines' 1.00, 1.03, 0.97 and 1.00, 0.98, 1.02)"
else
	notok "find_vma: means and sd: $(row mean)"
fi
# p50: 10 us and 12 us lie in adjacent buckets (9.07..10.8..12.8 us): the
# figures are their middles, 9.89 and 11.8 us; the bounds span both, 0 to
# 2^(2/4) - 1 = +41.4%
if [ "$(row p50 | awk '{ print $2, $5, $7, $8, $9 }')" = "9.89 11.8 [+0.0,+41.4] not measurable" ]; then
	ok "find_vma: p50 $(row p50 | awk '{ print $2, "->", $5, $7 }'): one bucket apart, not measurable"
else
	notok "find_vma: p50 row: $(row p50)"
fi
if bounds_hold p50 20; then
	ok "find_vma: p50's bounds $(row p50 | awk '{ print $7 }') hold +20%"
else
	notok "find_vma: p50's bounds hold +20%: $(row p50)"
fi
if sed -n 's/^# //p' "$tmp/out" | tr '\n' ' ' | grep -qF '; percentiles: bucket middles, within 19% (Prometheus buckets, 4 per power of two) '; then
	ok "the precision line: within 19%, 4 buckets per power of two"
else
	notok "the precision line"
fi
if wide; then ok "the table fits 72 columns"; else notok "the table fits 72 columns"; fi
if grep -q '^# base: release="6.1.0-57-amd64", 3 runs;' "$tmp/out"; then
	ok "a machine is a run: 3 runs a side"
else
	notok "3 runs a side"
fi

# ---- the control pair: equal delays on both sides ----
cmp "$A" "$B" --function vma_merge
if [ $rc = 0 ] && [ "$(row mean | awk '{ print $8, $9 }')" = "not measurable" ] && bounds_hold mean 0 &&
   [ "$(grep -c 'not measurable$' "$tmp/out")" = 8 ]; then
	ok "vma_merge, the same 3 us on both: every row not measurable, mean $(row mean | awk '{ print $4, $7 }')"
else
	notok "vma_merge: not measurable (exit $rc)"; tap_diag "$tmp/out" "$tmp/err"
fi

# ---- every function: ranked by the change of the mean ----
cmp "$A" "$B"
if [ $rc = 0 ] && grep -q '^  +20\.[0-9]% worse ' "$tmp/out" &&
   grep -q '^  [-+]0\.[0-9]% not measurable ' "$tmp/out" &&
   [ "$(awk 'NR == 5 { print $1 }' "$tmp/out")" = find_vma ] && wide; then
	ok "both functions: find_vma first, +20% worse; vma_merge not measurable"
else
	notok "both functions ranked (exit $rc)"; tap_diag "$tmp/out" "$tmp/err"
fi
cmp "$A" "$B" --json --function find_vma
if [ $rc = 0 ] && grep -q '"precision_pct": 18.92,' "$tmp/out" &&
   grep -q '"base": { "runs": 3, ' "$tmp/out" && grep -q '"verdict": "worse",' "$tmp/out"; then
	ok "--json: precision_pct 18.92, 3 runs, worse"
else
	notok "--json"; tap_diag "$tmp/out" "$tmp/err"
fi
cmp "$A" "$B" --markdown --function find_vma
if [ $rc = 0 ] && grep -q '^| mean | 10.1 | 3.0% | +20.0% | 12.1 | 1.8% | \[+6.7,+35.5\] | worse |$' "$tmp/out" &&
   grep -q '; percentiles: bucket middles, within 19% (Prometheus buckets, 4 per power of two)\.$' "$tmp/out" &&
   awk '/^\|/ { t = NR } END { exit !(t && t < NR) }' "$tmp/out" &&
   [ -z "$(awk '/^\|/ { t = NR } t && NR == t + 1 && !/^\|/ { print }' "$tmp/out")" ]; then
	ok "--markdown: the mean's row, the precision line, a blank line after the table"
else
	notok "--markdown"; tap_diag "$tmp/out" "$tmp/err"
fi

# ---- errors: one line each, status 1 ----
fails1 "unreachable server" "Couldn't connect to server" \
	"$K" compare --prometheus "http://127.0.0.1:$(free_port)" "$A" "$B"
fails1 "a selector of no series" 'matches no series of kstats_latency_seconds_bucket' \
	"$K" compare --prometheus "$P" --at "$end" "$A" 'release="5.10.0-nope"'
fails1 "a window with no data" "no data in the 10m window" \
	"$K" compare --prometheus "$P" --at $((end - 7200)) "$A" "$B"
fails1 "a counter reset inside the window" "find_vma on r2:9100 was reset inside the 10m window" \
	"$K" compare --prometheus "$P" --at "$end" 'release="7.0.0-reset"' "$B"
fails1 "an API error (bad_data)" "bad_data: invalid parameter" \
	"$K" compare --prometheus "$P" --at "$end" 'release=~"("' "$B"
fails1 "an HTTP error" "HTTP 404 from /api/v1/query" \
	"$K" compare --prometheus "$P/nothing" --at "$end" "$A" "$B"
fails1 "no function matching a glob" "no function matching nothing*" \
	"$K" compare --prometheus "$P" --at "$end" --function 'nothing*' "$A" "$B"
# the reset lies 4 minutes before the end: a window that ends before it reads
r "$K" compare --prometheus "$P" --window 5m --at $((end - 300)) 'release="7.0.0-reset"' "$B" --function find_vma
if [ $rc = 0 ] && grep -q '^# base: release="7.0.0-reset", 3 runs;' "$tmp/out"; then
	ok "the window before the reset compares"
else
	notok "the window before the reset (exit $rc)"; tap_diag "$tmp/err"
fi
# KS_PROM_OUT=FILE: the find_vma command and its table (docs/prometheus.md)
if [ -n "${KS_PROM_OUT:-}" ]; then
	{ echo "\$ kstats compare --prometheus $P --window 10m --at $end \\"
	  echo "    '$A' '$B' --function find_vma"; cat "$tmp/find_vma.txt"; } >"$KS_PROM_OUT"
fi
