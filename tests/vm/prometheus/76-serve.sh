# SPDX-License-Identifier: GPL-2.0
# kstats serve -> Prometheus with native histograms, beside the classic
# path (export -> node_exporter), with Debian's prometheus
# (--enable-feature=native-histograms: it then asks for protobuf and keeps
# the native histogram of a series that has one) and
# prometheus-node-exporter run from the root shared over 9p
# (tests/vm/prometheus.sh: this machine's, Debian 12 with Prometheus 2.42,
# or the Debian 13 root, 2.53, amd64 or arm64), the export unit from the
# source tree there (ks.repo=DIR).  kstats serve (the guest's static
# kstats has no serve) is ks.serve=PATH in that root, by default
# DIR/tools/kstats.
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

TF=/tmp/textfile-serve
KS_PROM=http://127.0.0.1:9091
NODE=ks_target_delay

host_root_prepare "kstats serve end to end" prometheus prometheus-node-exporter || exit 0
# ks.serve=PATH: the kstats with serve in the host root (default: the
# source tree's tools/kstats)
serve=$(ks_arg ks.serve) || serve=$(ks_arg ks.repo)/tools/kstats
if ! host_run "$serve" serve --help > /dev/null 2>&1; then
	skip "kstats serve end to end" "no $serve with serve in the host root (make -C tools)"
	exit 0
fi
prom_version=$(host_run prometheus --version 2>&1 | sed -n '1s/^prometheus, version \([^ ]*\).*/\1/p')
timer_export_setup /tmp/kstats.kstats-export.service /tmp/kstats-export.default "$TF/kstats.prom"

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
host_start /tmp/node-exporter-serve.log prometheus-node-exporter \
	--web.listen-address=127.0.0.1:9101 --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory=$TF
ne_pid=$KS_HOST_PID
host_start /tmp/serve.log "$serve" serve --listen 127.0.0.1:9477
serve_pid=$KS_HOST_PID
prom_pid=
stop_servers() {
	kill $prom_pid $ne_pid $serve_pid 2>/dev/null
	wait $prom_pid $ne_pid 2>/dev/null
	wait $serve_pid
	serve_rc=$?
}
# Prometheus once both answer: every scrape of serve must then succeed
if http_wait 240 http://127.0.0.1:9101/metrics http://127.0.0.1:9477/metrics; then
	host_start /tmp/prometheus-serve.log prometheus --config.file=/tmp/prom-serve.yml \
		--storage.tsdb.path=/tmp/prom-serve --web.listen-address=127.0.0.1:9091 \
		--enable-feature=native-histograms
	prom_pid=$KS_HOST_PID
fi
if [ -z "$prom_pid" ] || ! http_wait 240 $KS_PROM/-/ready; then
	fail "kstats serve, node_exporter and prometheus ready" \
		"$(tail -n 20 /tmp/serve.log /tmp/node-exporter-serve.log /tmp/prometheus-serve.log)"
	stop_servers
	exit 1
fi
ok "kstats serve, node_exporter and prometheus $prom_version ($(host_which prometheus), native histograms on) ready"

check "trace $NODE (bits 3)" kstats trace $NODE

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
	prom_wait "$desc: native histogram_count() == kstats' samples ($samples)" \
		"histogram_count(kstats_latency_seconds{job=\"serve\",node=\"$NODE\"})" "$samples"
	prom_wait "$desc: classic _count == kstats' samples ($samples)" \
		"kstats_latency_seconds_count{job=\"node\",node=\"$NODE\"}" "$samples"
	for p in 50 90 99; do
		kp=$(node_field $NODE p$p)
		qn=$(prom_query "histogram_quantile(0.$p, kstats_latency_seconds{job=\"serve\",node=\"$NODE\"})")
		qc=$(prom_query "histogram_quantile(0.$p, kstats_latency_seconds_bucket{job=\"node\",node=\"$NODE\"})")
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
	"$(prom_query "count(kstats_latency_seconds{job=\"serve\"})") $(prom_query "count(kstats_latency_seconds{cpu!=\"\"})") $(prom_query "count(kstats_latency_seconds_bucket{job=\"node\",node=\"$NODE\"})")" "1  86"
expect_eq "serve's series has no _bucket series (native only)" \
	"$(prom_query "count(kstats_latency_seconds_bucket{job=\"serve\"})")" ""
run "5 us" "2000 5000"
run "70 us" "500 70000"
run "bimodal 5 us (70%) and 70 us (30%)" "700 5000" "300 70000"
diag "quantiles: kstats' own, native (serve) and classic (export) in ns:"
while read -r l; do diag "  $l"; done < /tmp/serve-quantiles
expect_eq "every scrape of serve succeeded ($(prom_query "count_over_time(up{job=\"serve\"}[10m])") scrapes, none with up == 0)" \
	"$(prom_query "count_over_time(up{job=\"serve\"}[10m]) - sum_over_time(up{job=\"serve\"}[10m])")" 0

stop_servers
expect_eq "kstats serve ends on SIGTERM with status 0" "$serve_rc" 0
check "remove $NODE at the end" kstats remove $NODE
umount -l $KS_HOST 2>/dev/null
unload_modules
