#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A fleet of two: kstats on two machines with different kernels, each
# exporting through Debian's node_exporter, and one Prometheus on this
# machine's loopback scraping both, then kstats compare --prometheus on
# the two releases.  Two guests boot at once (vm/session.sh, the host root
# shared over 9p, scenario tests/vm/fleet/76-fleet.sh); QEMU's user
# network forwards a port of the host's loopback to each guest's
# node_exporter (hostfwd), and a second 9p share carries this script's
# commands to each guest and its answers back (kstats' own figures and
# the exported file, read on the guest).  ks_target_delay runs:
#   1. 200 calls of 500 us on both: _count, histogram_quantile() p50, p90,
#      p99 and sum by (le) against each node's own figures; compare: the
#      mean not measurable
#   2. kstats reset, then 200 calls of 500 us on the first, 750 us on the
#      second: the same checks; compare: the mean worse?, its 95% bounds
#      holding the ratio of the nodes' own means; the review's PromQL (the
#      mean, p50 and p99 by release) against the nodes' own figures
#   3. kstats reset, then 200 calls of 500 us against 550 us (+10%),
#      compared both ways: the classic series (export, node_exporter;
#      job node) and the native ones (kstats serve in each guest, job
#      serve; Prometheus with native histograms on): the p50 worse? with
#      native histograms, not measurable with the classic buckets
# Phases 1 and 2 compare the classic series (job="node").
#
#   tests/vm/fleet.sh [KVER_A KVER_B]   default: the newest 6.1 and 6.12
#                                       kernels (scripts/kernels.sh list)
#
# The modules and the guest's kstats come from KS_VM_OUT (make
# vm-stage-KVER vm-tools), compare from tools/kstats (make tools).  About
# a minute on 2 cores.  KS_FLEET_OUT=FILE keeps the two compare tables.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=vm/tap.sh
. "$top/vm/tap.sh"
TAP_PREFIX="fleet: "
ka=${1:-$("$top/scripts/kernels.sh" list | grep '^6\.1\.' | tail -n 1)}
kb=${2:-$("$top/scripts/kernels.sh" list | grep '^6\.12\.' | tail -n 1)}
OUT=${KS_VM_OUT:-$top/vm/out}
work=$OUT/fleet
NODE=ks_target_delay
KSTATS=$top/tools/kstats

for b in /usr/bin/prometheus /usr/bin/prometheus-node-exporter /usr/bin/curl /usr/bin/python3; do
	if [ ! -x $b ]; then
		skip "fleet" "$b missing (make deps)"
		tap_end
		exit 0
	fi
done
if [ -z "$ka" ] || [ -z "$kb" ] || [ ! -x "$KSTATS" ]; then
	notok "fleet: kernels '$ka' and '$kb', $KSTATS (make deps tools)"
	tap_end
	exit 1
fi

# Five free TCP ports on the loopback: the four forwards (node_exporter,
# kstats serve) and Prometheus
set -- $(/usr/bin/python3 -c '
import socket
s = [socket.socket() for i in range(5)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
pa=$1 pb=$2 pp=$3 sa=$4 sb=$5
PROM=http://127.0.0.1:$pp

rm -rf "$work"
mkdir -p "$work/a" "$work/b" "$work/prom-data"
cat > "$work/prom.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$pa', '127.0.0.1:$pb']
  - job_name: serve
    static_configs:
      - targets: ['127.0.0.1:$sa', '127.0.0.1:$sb']
EOF
prometheus --config.file="$work/prom.yml" --storage.tsdb.path="$work/prom-data" \
	--web.listen-address=127.0.0.1:$pp --enable-feature=native-histograms \
	> "$work/prometheus.log" 2>&1 &
prom_pid=$!

# boot SIDE KVER PORT SPORT: one guest in the background (its pid in $!), its
# TAP in work/SIDE.tap.  Under -icount, the guest's clock counts
# instructions, so that the delays measure the same on both kernels, to
# the instruction, whatever else this machine runs (and the guest's
# timeouts say nothing of the host's: the host's limit is the one).
boot() {
	KS_VM_SCENARIO_TIMEOUT=1000000 KS_VM_TIMEOUT=900 "$top/vm/session.sh" -k "$2" \
		--scenarios "$here/fleet" --9p-host-root --kmods virtio_net --icount \
		--append "ks.repo=$top" --work "$work/$1-vm" \
		--qemu-args "-netdev user,id=n0,hostfwd=tcp:127.0.0.1:$3-:9100,hostfwd=tcp:127.0.0.1:$4-:9477 -device virtio-net-pci,netdev=n0 -virtfs local,path=$work/$1,mount_tag=fleet,security_model=none" \
		> "$work/$1.tap" 2>&1 &
}
t_start=$(date +%s)
boot a "$ka" "$pa" "$sa"
pid_a=$!
boot b "$kb" "$pb" "$sb"
pid_b=$!

trap 'kill -TERM "$pid_a" "$pid_b" "$prom_pid" 2>/dev/null; exit 130' INT TERM

stop_all() {
	for s in a b; do
		[ -f "$work/$s/ready" ] && echo stop > "$work/$s/cmd.$n"
	done
	wait "$pid_a" "$pid_b"
	kill "$prom_pid" 2>/dev/null
	wait "$prom_pid" 2>/dev/null
}

# query EXPR [TIME [LABEL]]: Prometheus' instant answer (at TIME, default
# now), one "L VALUE" line per series (L: the label LABEL, default le, or
# -), "" when empty
query() {
	curl -s -G --max-time 10 --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"} \
		"$PROM/api/v1/query" |
	/usr/bin/python3 -c '
import json, sys
try:
    for r in json.load(sys.stdin)["data"]["result"]:
        print(r["metric"].get(sys.argv[1], "-"), r["value"][1])
except Exception:
    pass' "${3:-le}"
}
# value EXPR: the value of a one-series answer
value() { query "$1" | awk 'NR == 1 { print $2 }'; }

# wait_for DESC SECONDS CMD...: poll CMD every half second
wait_for() {
	_d=$1 _s=$2 _n=$(($2 * 2))
	shift 2
	while [ $_n -gt 0 ]; do
		"$@" && { ok "$_d"; return 0; }
		_n=$((_n - 1))
		sleep 0.5
	done
	notok "$_d" "not after $_s s"
	return 1
}

guests_ready() { [ -f "$work/a/ready" ] && [ -f "$work/b/ready" ]; }
# both ready, or a session gone (no use waiting for it)
ready_or_gone() { guests_ready || ! kill -0 "$pid_a" 2>/dev/null || ! kill -0 "$pid_b" 2>/dev/null; }
up_both() { [ "$(value 'sum(up{job="node"})')" = 2 ]; }

n=1
# send SIDE WORDS...: the next command to one guest
send() {
	_s=$1
	shift
	echo "$*" > "$work/$_s/cmd.$n.tmp" && mv "$work/$_s/cmd.$n.tmp" "$work/$_s/cmd.$n"
}
answered() { [ -f "$work/a/out.$n" ] && [ -f "$work/b/out.$n" ]; }
# field SIDE NAME: kstats' figure NAME in the guest's last answer
field() { awk -v k="$2" '{ for (i = 1; i < NF; i += 2) if ($i == k) print $(i + 1) }' "$work/$1/out.$n"; }
inst() { [ "$1" = a ] && echo "127.0.0.1:$pa" || echo "127.0.0.1:$pb"; }
release() { [ "$1" = a ] && echo "$ka" || echo "$kb"; }
count_is() { [ "$(value "kstats_latency_seconds_count{node=\"$NODE\",instance=\"$(inst "$1")\"}")" = "$2" ]; }
counts_are() { count_is a "$(field a samples)" && count_is b "$(field b samples)"; }

# near_by PCT QNS KS: is QNS within PCT% of KS?
near_by() { awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN { d = a / b - 1; exit !(b > 0 && d <= p / 100 && d >= -p / 100) }'; }

# le_norm: "LE COUNT" lines with LE to 12 digits, in order
le_norm() {
	awk '{ printf "%s %s\n", $1 == "+Inf" ? $1 : sprintf("%.12g", $1), $2 }' | sort -g
}

# node_checks PHASE: what each guest's node holds against what
# Prometheus scraped, after command n
node_checks() {
	wait_for "$1: Prometheus' _count per machine == each node's samples ($(field a samples), $(field b samples))" 60 counts_are
	for s in a b; do
		for p in 50 90 99; do
			kp=$(field $s p$p)
			q=$(value "histogram_quantile(0.$p, kstats_latency_seconds_bucket{node=\"$NODE\",instance=\"$(inst $s)\"})")
			qns=$(awk -v q="$q" 'BEGIN { printf "%.0f", q * 1e9 }')
			err=$(awk -v a="$qns" -v b="$kp" 'BEGIN { printf "%+.1f%%", (a / b - 1) * 100 }')
			pct=19
			[ $p = 50 ] && pct=12.5
			if near_by $pct "$qns" "$kp"; then
				ok "$1: $(release $s): histogram_quantile(0.$p) $qns ns, kstats' p$p $kp ns: $err, within $pct%"
			else
				notok "$1: $(release $s): histogram_quantile(0.$p) $qns ns within $pct% of kstats' p$p $kp ns ($err)"
			fi
		done
	done
	# the two exported files' buckets, summed le by le, against sum by
	# (le) (Prometheus writes an le in its own float format: matched by
	# value)
	awk -v node="$NODE" '
		/^kstats_latency_seconds_bucket\{/ && index($0, "node=\"" node "\"") {
			le = $0; sub(/.*le="/, "", le); sub(/".*/, "", le); c[le] += $NF
		}
		END { for (le in c) print le, c[le] }' "$work/a/prom.$n" "$work/b/prom.$n" |
		le_norm > "$work/sum.files.$n"
	query "sum by (le) (kstats_latency_seconds_bucket{node=\"$NODE\"})" | le_norm > "$work/sum.prom.$n"
	nb=$(wc -l < "$work/sum.files.$n")
	if [ "$nb" -gt 80 ] && cmp -s "$work/sum.files.$n" "$work/sum.prom.$n"; then
		ok "$1: sum by (le) over the two machines == the two nodes' exported buckets added, in all $nb buckets"
	else
		notok "$1: sum by (le) == the two nodes' buckets added ($nb buckets)" \
			"$(diff "$work/sum.files.$n" "$work/sum.prom.$n" | head -n 10)"
	fi
}

# compare PHASE AT WINDOW [JOB]: kstats compare --prometheus of the two
# releases (of job JOB, default node: the classic series), the table in
# work/compare.PHASE
cmp_rc=0
compare() {
	_j=${4:-node}
	echo "$ kstats compare --prometheus $PROM --window ${3}s --at $2 'job=\"$_j\",release=\"$ka\"' 'job=\"$_j\",release=\"$kb\"' --function $NODE" \
		> "$work/compare.$1"
	"$KSTATS" compare --prometheus "$PROM" --window "${3}s" --at "$2" \
		"job=\"$_j\",release=\"$ka\"" "job=\"$_j\",release=\"$kb\"" --function $NODE >> "$work/compare.$1" 2> "$work/compare.$1.err"
	cmp_rc=$?
	sed 's/^/# /' "$work/compare.$1"
	[ -s "$work/compare.$1.err" ] && sed 's/^/# stderr: /' "$work/compare.$1.err"
}
mean_row() { awk '$1 == "mean"' "$work/compare.$1"; }
# bounds_hold PHASE PCT: the mean's 95% bounds [lo,hi] hold PCT
bounds_hold() {
	mean_row "$1" | awk -v x="$2" '{ b = $7; gsub(/[][+]/, "", b); split(b, v, ",");
		exit !(v[1] + 0 <= x && x <= v[2] + 0) }'
}
# true_change: the nodes' own means, B against A, in %
true_change() { awk -v a="$(field a avg)" -v b="$(field b avg)" 'BEGIN { printf "%.1f", (b / a - 1) * 100 }'; }

# now_after S: the Unix time, S seconds from now, once it has passed
now_after() { sleep "$1"; date +%s; }

echo "# fleet: $ka on 127.0.0.1:$pa, $kb on 127.0.0.1:$pb, Prometheus on 127.0.0.1:$pp"
sleep 1
while ! ready_or_gone && [ $(($(date +%s) - t_start)) -lt 600 ]; do
	sleep 0.5
done
if ! wait_for "both guests booted, node_exporter up, $NODE traced" 1 guests_ready ||
   ! wait_for "Prometheus scrapes both machines" 60 up_both; then
	tail -n 20 "$work/prometheus.log" | sed 's/^/# /'
	# a guest not up: its session and QEMU stop now
	[ -f "$work/a/ready" ] || kill -TERM "$pid_a" 2>/dev/null
	[ -f "$work/b/ready" ] || kill -TERM "$pid_b" 2>/dev/null
	stop_all
	for s in a b; do tap_relay < "$work/$s.tap"; done
	tap_end
	exit 1
fi
echo "# both up $(($(date +%s) - t_start)) s after the boots began"

# ---- 1. the same delay on both: 200 calls of 500 us ----
sleep 2
send a run 200 500000
send b run 200 500000
wait_for "equal: both guests ran 200 calls of 500 us and exported" 120 answered
node_checks "equal"
t1=$(now_after 3)
compare equal "$t1" $((t1 - t_start + 5))
tc=$(true_change)
if [ $cmp_rc = 0 ] && [ "$(mean_row equal | awk '{ print $8, $9 }')" = "not measurable" ] && bounds_hold equal "$tc"; then
	ok "equal: compare --prometheus: mean $(mean_row equal | awk '{ print $4, $7 }') not measurable, holding the nodes' own $tc%"
else
	notok "equal: compare --prometheus: the mean not measurable, bounds holding $tc% (exit $cmp_rc)" "$(mean_row equal)"
fi

# the exports' timing="qemu-icount" label: the table's heading says what
# its unit is ("us = 1,000 instructions, QEMU -icount", over two lines)
if [ "$(sed -n '2,3p' "$work/compare.equal" | tr '\n' ' ')" = '# ks_target_delay: latency per call in us = 1,000 instructions, QEMU # -icount; lower is better ' ]; then
	ok "equal: compare --prometheus: the heading's unit is QEMU -icount instructions (the exports' timing label)"
else
	notok "equal: compare --prometheus: the -icount note (the exports' timing label)"
fi

# ---- 2. kstats reset, then 500 us against 750 us ----
n=$((n + 1))
send a reset
send b reset
wait_for "reset on both guests" 60 answered
wait_for "Prometheus: _count 0 on both after the reset" 60 counts_are
t2=$(now_after 2)
sleep 2
n=$((n + 1))
send a run 200 500000
send b run 200 750000
wait_for "worse: 200 calls of 500 us on $ka, 750 us on $kb, exported" 120 answered
node_checks "worse"
t3=$(now_after 3)
compare worse "$t3" $((t3 - t2))

# The review's PromQL: each release's machines together, over the window
# compare read, against the nodes' own figures (one machine a release
# here, so the same figures)
w=$((t3 - t2))s
sel="function=\"$NODE\""
review() {	# DESC EXPR: print the query and its answer by release
	echo "$2" >> "$work/review"
	query "$2" "$t3" release | sort | tee -a "$work/review" > "$work/review.last"
	echo >> "$work/review"
}
# by_release SIDE: the answer's value for SIDE's release
by_release() { awk -v r="$(release "$1")" '$1 == r { print $2 }' "$work/review.last"; }
: > "$work/review"
review mean "sum by (release) (increase(kstats_latency_seconds_sum{$sel}[$w])) / sum by (release) (increase(kstats_latency_seconds_count{$sel}[$w]))"
for s in a b; do
	m=$(awk -v v="$(by_release $s)" 'BEGIN { printf "%.0f", v * 1e9 }')
	if near_by 0.1 "$m" "$(field $s avg)"; then
		ok "review: $(release $s): mean by release $m ns, the node's own $(field $s avg) ns"
	else
		notok "review: $(release $s): mean by release $m ns within 0.1% of the node's own $(field $s avg) ns"
	fi
done
for p in 50 99; do
	review p$p "histogram_quantile(0.$p, sum by (release, le) (increase(kstats_latency_seconds_bucket{$sel}[$w])))"
	pct=19
	[ $p = 50 ] && pct=12.5
	for s in a b; do
		qns=$(awk -v v="$(by_release $s)" 'BEGIN { printf "%.0f", v * 1e9 }')
		if near_by $pct "$qns" "$(field $s p$p)"; then
			ok "review: $(release $s): p$p by release $qns ns, the node's own $(field $s p$p) ns, within $pct%"
		else
			notok "review: $(release $s): p$p by release $qns ns within $pct% of the node's own $(field $s p$p) ns"
		fi
	done
done
sed 's/^/# /' "$work/review"
tc=$(true_change)
if [ $cmp_rc = 0 ] && [ "$(mean_row worse | awk '{ print $8 }')" = "worse?" ] && bounds_hold worse "$tc"; then
	ok "worse: compare --prometheus: mean $(mean_row worse | awk '{ print $4, $7 }') worse? (one machine a side), holding the nodes' own $tc%"
else
	notok "worse: compare --prometheus: the mean worse?, bounds holding $tc% (exit $cmp_rc)" "$(mean_row worse)"
fi

# ---- 3. kstats reset, then 500 us against 550 us, classic and native ----
n=$((n + 1))
send a reset
send b reset
wait_for "reset on both guests (for +10%)" 60 answered
wait_for "Prometheus: _count 0 on both after the reset (for +10%)" 60 counts_are
t4=$(now_after 2)
sleep 2
n=$((n + 1))
send a run 200 500000
send b run 200 550000
wait_for "+10%: 200 calls of 500 us on $ka, 550 us on $kb, exported" 120 answered
ncount_is() { [ "$(value "histogram_count(kstats_latency_seconds{job=\"serve\",node=\"$NODE\",instance=\"127.0.0.1:$2\"})")" = "$3" ]; }
ncounts_are() { ncount_is a "$sa" "$(field a samples)" && ncount_is b "$sb" "$(field b samples)"; }
wait_for "+10%: native histogram_count() per machine == each node's samples ($(field a samples), $(field b samples))" 60 ncounts_are
wait_for "+10%: classic _count per machine == each node's samples" 60 counts_are
t5=$(now_after 3)
compare classic10 "$t5" $((t5 - t4)) node
cmp_classic=$cmp_rc
compare native10 "$t5" $((t5 - t4)) serve
cmp_native=$cmp_rc
row() { awk -v f="$2" '$1 == f' "$work/compare.$1"; }
verdict() { row "$1" "$2" | awk '{ v = $8; if ($9 != "") v = v " " $9; print v }'; }
tp50=$(awk -v a="$(field a p50)" -v b="$(field b p50)" 'BEGIN { printf "%.1f", (b / a - 1) * 100 }')
if [ $cmp_native = 0 ] && grep -q 'Prometheus native histograms' "$work/compare.native10" &&
   [ "$(verdict native10 p50)" = "worse?" ] && [ "$(verdict native10 mean)" = "worse?" ]; then
	ok "+10%: compare --prometheus, native (job serve): p50 $(row native10 p50 | awk '{ print $4, $7 }') worse?, mean worse? (the nodes' own p50 +$tp50%)"
else
	notok "+10%: compare --prometheus, native: p50 worse? (exit $cmp_native)" "$(row native10 p50)" "$(tail -n 3 "$work/compare.native10")"
fi
if [ $cmp_classic = 0 ] && grep -q 'Prometheus buckets' "$work/compare.classic10" &&
   [ "$(verdict classic10 p50)" = "not measurable" ] && [ "$(verdict classic10 mean)" = "worse?" ]; then
	ok "+10%: compare --prometheus, classic (job node): p50 $(row classic10 p50 | awk '{ print $4, $7 }') not measurable, mean worse?"
else
	notok "+10%: compare --prometheus, classic: p50 not measurable (exit $cmp_classic)" "$(row classic10 p50)"
fi
if [ -n "${KS_FLEET_OUT:-}" ]; then
	cat "$work/compare.equal" "$work/compare.worse" "$work/review" "$work/compare.classic10" \
		"$work/compare.native10" > "$KS_FLEET_OUT"
fi

n=$((n + 1))
stop_all
for s in a b; do
	tap_relay < "$work/$s.tap"
done
tap_end
