#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kstats serve against a fake debugfs ($KSTATS_DEBUGFS: node files and a
# _control listing them), under valgrind when it is installed (every
# leak and error fails the last check): both formats with curl (the text
# through promtool, the protobuf read back by pbdump), content
# negotiation, paths and methods, bad requests, scrapers that leave, 100
# scrapes at once and nodes added and removed during scrapes
# (serve_load.py), bad --listen values, and nothing written to the fake
# debugfs.  Prints "ok - ..." / "not ok - ..." lines (tests/cli/run.sh
# numbers them).
#
#   tests/cli/serve.sh [KSTATS]

set -u
here=$(cd "$(dirname "$0")" && pwd)
K=${1:-$here/../../tools/kstats}
MK=$here/mkfixture
PB=$here/pbdump
# shellcheck source=vm/tap.sh
. "$here/../../vm/tap.sh"
tmp=$(mktemp -d)
serve_pid=""
trap '[ -z "$serve_pid" ] || kill "$serve_pid" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
dbg=$tmp/debugfs
mkdir "$dbg"
export KSTATS_DEBUGFS="$dbg" LC_ALL=C
if ! "$K" serve --help >/dev/null 2>&1 || "$K" serve --listen x 2>&1 | grep -q 'not in this build'; then
	skip "serve" "not in this build of kstats"
	exit 0
fi
VG=""
if command -v valgrind >/dev/null 2>&1; then
	VG="valgrind -q --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --error-exitcode=9 --log-file=$tmp/vg.log"
else
	echo "# valgrind not installed (apt-get install valgrind): serve runs without it"
fi
PB_ACCEPT='application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited,application/openmetrics-text;version=1.0.0;q=0.8,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'

# serve_start ARGS...: kstats serve on a free port of 127.0.0.1; $port.
serve_start() {
	: >"$tmp/serve.err"
	# shellcheck disable=SC2086
	$VG "$K" serve --listen 127.0.0.1:0 "$@" 2>"$tmp/serve.err" &
	serve_pid=$!
	port="" i=0
	while [ -z "$port" ] && [ $i -lt 300 ] && kill -0 "$serve_pid" 2>/dev/null; do
		port=$(sed -n 's|^kstats: serve: http://127\.0\.0\.1:\([0-9][0-9]*\)/metrics$|\1|p' "$tmp/serve.err")
		[ -n "$port" ] || sleep 0.1
		i=$((i + 1))
	done
}

# serve_stop: SIGTERM, then its exit status in $serve_rc.
serve_stop() {
	kill -TERM "$serve_pid"
	wait "$serve_pid"
	serve_rc=$?
	serve_pid=""
}

# get ACCEPT [PATH] [CURL ARGS...]: the body in $tmp/body, the head in $tmp/head.
get() {
	_a=$1 _p=${2:-/metrics}
	shift; [ $# = 0 ] || shift
	curl -s -o "$tmp/body" -D "$tmp/head" ${_a:+-H "Accept: $_a"} "$@" "http://127.0.0.1:$port$_p"
}
code() { sed -n '1s/^HTTP\/1\.[01] \([0-9]*\).*/\1/p' "$tmp/head"; }
ctype() { sed -n 's/^Content-Type: \(.*\)\r$/\1/Ip' "$tmp/head"; }

"$MK" find_vma 3 1 100 0 1000 500 >"$dbg/find_vma"
"$MK" gen_b5 5 2 100 4 4000 2500 >"$dbg/gen_b5"
printf 'find_vma kretprobe active 1500 0\ngen_b5 kretprobe active 6500 4\n' >"$dbg/_control"
(cd "$dbg" && md5sum _control find_vma gen_b5) >"$tmp/before.md5"

serve_start
if [ -n "$port" ]; then ok "serve --listen 127.0.0.1:0: says where it listens (port $port)"; else notok "serve did not start"; tap_diag "$tmp/serve.err"; exit 0; fi

# ---- text: what export --prometheus writes ----
"$K" export --prometheus all >"$tmp/export.prom"
get ""
if [ "$(code)" = 200 ] && [ "$(ctype)" = "text/plain; version=0.0.4; charset=utf-8" ] &&
   cmp -s "$tmp/body" "$tmp/export.prom"; then
	ok "serve, no Accept: text/plain 0.0.4, byte for byte export --prometheus all ($(wc -l <"$tmp/body") lines)"
else
	notok "serve, no Accept: not the export's text (HTTP $(code), $(ctype))"; diff "$tmp/export.prom" "$tmp/body" | head -5 | tap_diag
fi
if command -v promtool >/dev/null 2>&1; then
	if promtool check metrics <"$tmp/body" >"$tmp/prom.err" 2>&1; then ok "serve, text: promtool check metrics"; else notok "serve, text: promtool check metrics"; tap_diag "$tmp/prom.err"; fi
else
	skip "serve, text: promtool check metrics" "apt-get install prometheus"
fi
get 'text/plain;version=0.0.4;q=0.5,*/*;q=0.1'
if [ "$(ctype)" = "text/plain; version=0.0.4; charset=utf-8" ]; then ok "serve: Prometheus without native histograms (text/plain, */*) gets text"; else notok "serve: text/plain Accept got $(ctype)"; fi

# ---- protobuf: native histograms ----
get "$PB_ACCEPT"
"$PB" <"$tmp/body" >"$tmp/pb.txt" 2>&1
pbrc=$?
if [ "$(code)" = 200 ] && [ $pbrc = 0 ] &&
   [ "$(ctype)" = "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited" ]; then
	ok "serve, Prometheus 2.42's Accept with native histograms: protobuf, delimited, $(wc -c <"$tmp/body") bytes that decode"
else
	notok "serve, protobuf: HTTP $(code), $(ctype), pbdump $pbrc"; tap_diag "$tmp/pb.txt"
fi
# per node: schema = bits, _count = samples, buckets + zero = _count, _sum = the text's
for nb in find_vma:4:1500 gen_b5:6:6500; do
	n=${nb%%:*} b=${nb#*:}; s=${b#*:}; b=${b%%:*}
	tsum=$(sed -n "s/^kstats_latency_seconds_sum{node=\"$n\"[^}]*} //p" "$tmp/export.prom")
	line=$(grep "^kstats_latency_seconds{node=\"$n\"" "$tmp/pb.txt")
	got=$(echo "$line" | awk -v tsum="$tsum" '{
		for (i = 2; i < NF; i += 2) f[$i] = $(i + 1)
		n = split(f["buckets"], b, ","); t = f["zero"]
		for (i = 1; i <= n; i++) { split(b[i], kv, ":"); t += kv[2] }
		d = f["sum"] - tsum; if (d < 0) d = -d
		printf "schema %s count %s buckets+zero %d sum %s", f["schema"], f["count"], t,
			(d <= 1e-12 * tsum ? "same" : f["sum"] " vs " tsum)
	}')
	expect "serve, protobuf: $n native, schema = bits + 1 ($b), _count = samples, buckets + zero = _count, _sum = the text's" \
		"$got" "schema $b count $s buckets+zero $s sum same"
done
if [ "$(grep -c '^kstats_latency_seconds{' "$tmp/pb.txt")" = 2 ] && ! grep -q 'cpu=' "$tmp/pb.txt" &&
   grep -q '^kstats_missed_events_total{node="gen_b5".*} value 4$' "$tmp/pb.txt"; then
	ok "serve, protobuf: one series per node, no cpu label, the missed counter (4)"
else
	notok "serve, protobuf: series"; tap_diag "$tmp/pb.txt"
fi
for a in 'application/vnd.google.protobuf' \
	 'application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=text' \
	 'application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.3,text/plain;q=0.5' \
	 'application/openmetrics-text;version=1.0.0'; do
	get "$a"
	expect "serve, Accept '$a': text" "$(ctype)" "text/plain; version=0.0.4; charset=utf-8"
done
get 'text/plain;q=0.2, application/vnd.google.protobuf; proto="io.prometheus.client.MetricFamily"; encoding=delimited; q=0.9'
expect "serve: protobuf at the higher q, quoted parameters" "$(ctype)" \
	"application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited"

# ---- paths and methods ----
get "" /metrics -I
if [ "$(code)" = 200 ] && cmp -s "$tmp/head" "$tmp/body"; then ok "serve: HEAD /metrics: 200, the head only"; else notok "serve: HEAD /metrics: HTTP $(code)"; tap_diag "$tmp/body"; fi
get "" /
expect "serve: GET /: 200, a pointer to /metrics" "$(code) $(cat "$tmp/body")" "200 kstats serve: the histograms are at /metrics"
get "" /nope
expect "serve: GET /nope: 404" "$(code)" 404
get "" /metrics/
expect "serve: GET /metrics/: 404" "$(code)" 404
get "" '/metrics?debug=1'
expect "serve: GET /metrics?debug=1: 200, the query ignored" "$(code)" 200
get "" /metrics -X POST -d reset
expect "serve: POST /metrics: 405, Allow: GET, HEAD" "$(code) $(sed -n 's/^Allow: \(.*\)\r$/\1/p' "$tmp/head")" "405 GET, HEAD"
get "" /metrics -X DELETE
expect "serve: DELETE /metrics: 405" "$(code)" 405

# ---- bad requests and load ----
python3 "$here/serve_load.py" "$port" malformed >"$tmp/load" 2>&1
python3 "$here/serve_load.py" "$port" disconnect 60 >>"$tmp/load" 2>&1
python3 "$here/serve_load.py" "$port" concurrent 100 >>"$tmp/load" 2>&1
(cd "$dbg" && md5sum -c --quiet "$tmp/before.md5") >"$tmp/md5.out" 2>&1 && echo "PASS serve: after every request, _control and the node files as they were: nothing written" >>"$tmp/load" ||
	echo "FAIL serve: the fake debugfs changed: $(cat "$tmp/md5.out")" >>"$tmp/load"
# nodes come and go while scrapes run: a listed node may be gone when read
(
	i=0
	while [ ! -e "$tmp/churn.stop" ] && [ $i -lt 2000 ]; do
		"$MK" gen_x 3 3 100 0 300 >"$dbg/gen_x"
		printf 'find_vma kretprobe active 1500 0\ngen_x kretprobe active 300 0\ngen_b5 kretprobe active 6500 4\n' >"$dbg/_control.new"
		mv "$dbg/_control.new" "$dbg/_control"
		rm -f "$dbg/gen_x"
		printf 'find_vma kretprobe active 1500 0\ngen_b5 kretprobe active 6500 4\n' >"$dbg/_control.new"
		mv "$dbg/_control.new" "$dbg/_control"
		[ $((i % 3)) = 0 ] && rm -f "$dbg/gen_b5" && "$MK" gen_b5 5 2 100 4 4000 2500 >"$dbg/gen_b5.new" && mv "$dbg/gen_b5.new" "$dbg/gen_b5"
		i=$((i + 1))
	done
) &
churn=$!
python3 "$here/serve_load.py" "$port" churn 200 "$PB" find_vma=1500 gen_b5=6500 gen_x=300 >>"$tmp/load" 2>&1
touch "$tmp/churn.stop"
wait "$churn"
while IFS= read -r l; do
	case $l in
	"PASS "*) ok "${l#PASS }" ;;
	"FAIL "*) notok "${l#FAIL }" ;;
	*) notok "serve_load.py: $l" ;;
	esac
done <"$tmp/load"

serve_stop
if [ "$serve_rc" = 0 ] && [ ! -s "$tmp/vg.log" ]; then
	ok "serve: SIGTERM ends it with status 0${VG:+; valgrind: no error, no leak}"
else
	notok "serve: exit $serve_rc after SIGTERM${VG:+ (valgrind: 9 = errors or leaks)}"; tap_diag "$tmp/serve.err" "$tmp/vg.log" 2>/dev/null
fi

# ---- which nodes, per CPU ----
printf 'find_vma kretprobe active 1500 0\ngen_b5 kretprobe active 6500 4\n' >"$dbg/_control"
VG="" serve_start 'gen_*' --per-cpu
get "$PB_ACCEPT"
"$PB" <"$tmp/body" >"$tmp/pb.txt"
expect "serve 'gen_*' --per-cpu: gen_b5 only, one native histogram per CPU (2)" \
	"$(grep '^kstats_latency_seconds{' "$tmp/pb.txt" | sed 's/.*node="\([^"]*\)".*cpu="\([0-9]*\)".* count \([0-9]*\) .*/\1 cpu\2 \3/' | tr '\n' ' ')" \
	"gen_b5 cpu0 4000 gen_b5 cpu1 2500 "
get ""
expect "serve 'gen_*' --per-cpu, text: export --prometheus --per-cpu gen_b5" \
	"$(md5sum <"$tmp/body")" "$("$K" export --prometheus --per-cpu gen_b5 | md5sum)"
# the module gone: 503 and why, until it is back
mv "$dbg" "$dbg.away"
get ""
if [ "$(code)" = 503 ] && grep -q "^kstats: " "$tmp/body"; then ok "serve, no module: 503 and why ($(head -c 60 "$tmp/body")...)"; else notok "serve, no module: HTTP $(code)"; tap_diag "$tmp/body"; fi
mv "$dbg.away" "$dbg"
get ""
expect "serve: the module back, 200" "$(code)" 200
serve_stop

# ---- IPv6: only the address given ----
if python3 -c 'import socket; s = socket.socket(socket.AF_INET6); s.bind(("::1", 0))' 2>/dev/null; then
	"$K" serve --listen '[::1]:0' 2>"$tmp/serve6.err" &
	p6=$!
	port6="" i=0
	while [ -z "$port6" ] && [ $i -lt 100 ]; do
		port6=$(sed -n 's|^kstats: serve: http://\[::1\]:\([0-9][0-9]*\)/metrics$|\1|p' "$tmp/serve6.err")
		[ -n "$port6" ] || sleep 0.1
		i=$((i + 1))
	done
	c6=$(curl -s -g -o /dev/null -w '%{http_code}' "http://[::1]:$port6/metrics")
	c4=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port6/metrics")
	kill "$p6"
	wait "$p6"
	expect "serve --listen [::1]:0: 200 on ::1, nothing on 127.0.0.1 (port $port6)" "$c6 $c4" "200 000"
else
	skip "serve --listen [::1]:0" "no IPv6 loopback"
fi

# ---- bad --listen ----
r() { "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
fails() { # WHAT CODE TEXT COMMAND...
	_w=$1 _c=$2 _t=$3; shift 3
	r "$@"
	if [ "$rc" = "$_c" ] && grep -qF -- "$_t" "$tmp/err"; then ok "$_w"; else notok "$_w (exit $rc)"; tap_diag "$tmp/err"; fi
}
fails "serve --listen without a port" 1 "kstats: serve: --listen 127.0.0.1: ADDR:PORT expected" "$K" serve --listen 127.0.0.1
fails "serve --listen of a bad port" 1 "kstats: serve: --listen 127.0.0.1:99999: " "$K" serve --listen 127.0.0.1:99999
fails "serve --listen of a bad address" 1 "kstats: serve: --listen 300.1.2.3:80: " "$K" serve --listen 300.1.2.3:80
serve_start
fails "serve --listen of a port in use" 1 "kstats: serve: cannot listen on 127.0.0.1:$port" "$K" serve --listen "127.0.0.1:$port"
serve_stop
fails "serve: an unknown option" 2 "kstats: serve: unknown option '--bogus'" "$K" serve --bogus
