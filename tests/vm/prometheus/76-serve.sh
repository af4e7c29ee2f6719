# SPDX-License-Identifier: GPL-2.0
# kstats serve -> Prometheus with native histograms, beside the classic
# path (export -> node_exporter), with Debian's prometheus (2.42 on Debian
# 12: --enable-feature=native-histograms; it then asks for protobuf and
# keeps the native histogram of a series that has one) and
# prometheus-node-exporter run from the host's root (9p,
# tests/vm/prometheus.sh shares it and names the source tree with
# ks.repo=DIR).  kstats serve is the source tree's tools/kstats (the
# guest's static kstats has no serve), run from the host root too.
#
# ks_target_delay is traced (bits 3) and called with known delays, 300 ns,
# 5 us, 70 us and a mix of 5 us (70%) and 70 us (30%), after a reset each;
# Prometheus scrapes serve (job serve, native) and node_exporter (job node,
# classic) every second.  Per delay: histogram_count() of the native series
# == kstats' samples; histogram_quantile() p50, p90 and p99 of the native
# series within 12.5% of kstats' own percentiles (a slot mean and the
# bucket that holds it: within 2^(1/8) - 1 = 9.05%), with the classic
# series' figure printed beside it; one native series per node.
. /ks/lib.sh

HOST=/host
TF=/tmp/textfile-serve
PROM=http://127.0.0.1:9091
NODE=ks_target_delay

repo=""
for arg in $(cat /proc/cmdline); do
	case $arg in ks.repo=*) repo=${arg#*=} ;; esac
done
if ! mount_host_root $HOST; then
	skip "kstats serve end to end" "host root not shared (run tests/vm/prometheus.sh)"
	exit 0
fi
for b in /usr/bin/prometheus /usr/bin/prometheus-node-exporter /usr/bin/curl "$repo/tools/kstats"; do
	if [ ! -x $HOST$b ]; then
		skip "kstats serve end to end" "$b not on the host (apt-get install prometheus prometheus-node-exporter curl; make -C tools)"
		exit 0
	fi
done
if ! chroot $HOST "$repo/tools/kstats" serve --help >/dev/null 2>&1; then
	skip "kstats serve end to end" "$repo/tools/kstats has no serve"
	exit 0
fi
unit=/tmp/kstats.kstats-export.service
conf=/tmp/kstats-export.default
check "the export unit and its settings from the source tree" \
	cp "$HOST$repo/debian/kstats.kstats-export.service" "$HOST$repo/debian/kstats-export.default" /tmp/ || exit 1
mount -o rbind /proc $HOST/proc && mount -o rbind /sys $HOST/sys &&
	mount -o rbind /dev $HOST/dev && mount -o bind /tmp $HOST/tmp
check "host root prepared" test -d $HOST/proc/self -a -e $HOST/dev/null

in_host() {
	chroot $HOST /usr/bin/env -i HOME=/tmp TMPDIR=/tmp PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

# query EXPR: the value of Prometheus' instant query EXPR ("" when empty).
query() {
	in_host curl -s -G --max-time 10 --data-urlencode "query=$1" $PROM/api/v1/query |
		sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p'
}

# wait_value DESC EXPR WANT: poll EXPR until it equals WANT (60 s).
wait_value() {
	_i=0
	while [ $_i -lt 120 ]; do
		_v=$(query "$2")
		[ "$_v" = "$3" ] && break
		_i=$((_i + 1))
		sleep 0.5
	done
	expect_eq "$1" "$_v" "$3"
}

timer_export_setup "$unit" "$conf" "$TF/kstats.prom"

load_modules || exit 0
mkdir -p $TF /tmp/prom-serve
cat > /tmp/prom-serve.yml <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: serve
    static_configs:
      - targets: ['127.0.0.1:9477']
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:9101']
EOF
# chroot and env exec the servers: $! is each one's pid
chroot $HOST /usr/bin/env -i HOME=/tmp prometheus-node-exporter \
	--web.listen-address=127.0.0.1:9101 --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory=$TF > /tmp/node-exporter-serve.log 2>&1 &
ne_pid=$!
chroot $HOST /usr/bin/env -i HOME=/tmp "$repo/tools/kstats" serve --listen 127.0.0.1:9477 \
	> /tmp/serve.log 2>&1 &
serve_pid=$!
chroot $HOST /usr/bin/env -i HOME=/tmp prometheus --config.file=/tmp/prom-serve.yml \
	--storage.tsdb.path=/tmp/prom-serve --web.listen-address=127.0.0.1:9091 \
	--enable-feature=native-histograms > /tmp/prometheus-serve.log 2>&1 &
prom_pid=$!
stop_servers() {
	kill $prom_pid $ne_pid $serve_pid 2>/dev/null
	wait $prom_pid $ne_pid 2>/dev/null
	wait $serve_pid
	serve_rc=$?
}
ready=0
i=0
while [ $i -lt 240 ]; do
	if in_host curl -sf --max-time 2 $PROM/-/ready >/dev/null 2>&1 &&
	   in_host curl -sf --max-time 2 http://127.0.0.1:9101/metrics >/dev/null 2>&1 &&
	   in_host curl -sf --max-time 2 http://127.0.0.1:9477/metrics >/dev/null 2>&1; then
		ready=1
		break
	fi
	i=$((i + 1))
	sleep 0.5
done
if [ $ready = 0 ]; then
	fail "kstats serve, node_exporter and prometheus ready" \
		"$(tail -n 20 /tmp/serve.log /tmp/node-exporter-serve.log /tmp/prometheus-serve.log)"
	stop_servers
	exit 1
fi
ok "kstats serve, node_exporter and prometheus (native histograms on) ready"

check "trace $NODE (bits 3)" kstats trace $NODE
# near_by PCT A B: is A within PCT% of B?
near_by() { awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN { d = a / b - 1; exit !(b > 0 && d <= p / 100 && d >= -p / 100) }'; }
pct_of() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%+.1f%%", (a / b - 1) * 100; else print "-" }'; }

# run DESC "N DELAY"...: reset, the calls, export; then the checks
run() {
	desc=$1
	shift
	kstats reset $NODE
	for nd in "$@"; do
		echo "$nd" > /sys/kernel/debug/kstats_target/delay
	done
	check "$desc: the timer's command exports (classic)" timer_export
	samples=$(node_field $NODE samples)
	wait_value "$desc: native histogram_count() == kstats' samples ($samples)" \
		"histogram_count(kstats_latency_seconds{job=\"serve\",node=\"$NODE\"})" "$samples"
	wait_value "$desc: classic _count == kstats' samples ($samples)" \
		"kstats_latency_seconds_count{job=\"node\",node=\"$NODE\"}" "$samples"
	for p in 50 90 99; do
		kp=$(node_field $NODE p$p)
		qn=$(query "histogram_quantile(0.$p, kstats_latency_seconds{job=\"serve\",node=\"$NODE\"})")
		qc=$(query "histogram_quantile(0.$p, kstats_latency_seconds_bucket{job=\"node\",node=\"$NODE\"})")
		nns=$(awk -v q="$qn" 'BEGIN { printf "%.0f", q * 1e9 }')
		cns=$(awk -v q="$qc" 'BEGIN { printf "%.0f", q * 1e9 }')
		echo "$desc p$p kstats $kp native $nns $(pct_of "$nns" "$kp") classic $cns $(pct_of "$cns" "$kp")" >> /tmp/serve-quantiles
		check "$desc: native histogram_quantile(0.$p) $nns ns ($(pct_of "$nns" "$kp")) within 12.5% of kstats' p$p $kp ns; classic $cns ns ($(pct_of "$cns" "$kp"))" \
			near_by 12.5 "$nns" "$kp"
	done
}
: > /tmp/serve-quantiles
run "300 ns" "3000 300"
expect_eq "one native series for the node (job serve), no cpu label; the classic one has 86 buckets" \
	"$(query "count(kstats_latency_seconds{job=\"serve\"})") $(query "count(kstats_latency_seconds{cpu!=\"\"})") $(query "count(kstats_latency_seconds_bucket{job=\"node\",node=\"$NODE\"})")" "1  86"
expect_eq "serve's series has no _bucket series (native only)" \
	"$(query "count(kstats_latency_seconds_bucket{job=\"serve\"})")" ""
run "5 us" "2000 5000"
run "70 us" "500 70000"
run "bimodal 5 us (70%) and 70 us (30%)" "700 5000" "300 70000"
diag "quantiles: kstats' own, native (serve) and classic (export) in ns:"
while read -r l; do diag "  $l"; done < /tmp/serve-quantiles
expect_eq "every scrape of serve succeeded ($(query "count_over_time(up{job=\"serve\"}[10m])") scrapes, up == 1 throughout)" \
	"$(query "min_over_time(up{job=\"serve\"}[10m])")" 1

stop_servers
expect_eq "kstats serve ends on SIGTERM with status 0" "$serve_rc" 0
check "remove $NODE at the end" kstats remove $NODE
umount -l $HOST 2>/dev/null
unload_modules
