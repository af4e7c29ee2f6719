# SPDX-License-Identifier: GPL-2.0
# One machine of the fleet of tests/vm/fleet.sh: Debian's
# prometheus-node-exporter, run from the host's root (9p), serves what the
# command of debian/kstats.kstats-export.service writes, on the guest's
# port 9100, and kstats serve (the source tree's tools/kstats) the node's
# native histogram on port 9477; QEMU forwards both to ports on the host's
# loopback, where the host's Prometheus scrapes them.  The host drives the guest through a
# second 9p share (mount tag "fleet", writable): it writes cmd.N, one of
#   run CALLS NS     CALLS calls of ks_target_delay taking NS each
#   reset            kstats reset ks_target_delay
#   stop             the end
# and the guest answers each with out.N ("samples S avg A p50 ... p90 ...
# p99 ...", kstats' own figures of the node) and prom.N (the file the
# export wrote), both after the export.
. /ks/lib.sh

X=/fleet
TF=/tmp/textfile
NODE=ks_target_delay

host_root_prepare "fleet machine" prometheus-node-exporter || exit 0
mkdir -p $X
check "the host's fleet folder (9p, writable)" \
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 fleet $X || exit 1

# QEMU's user network: the guest is 10.0.2.15, the host 10.0.2.2
check "eth0 up, 10.0.2.15/24" \
	"ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0" || exit 1

timer_export_setup /tmp/kstats.kstats-export.service /tmp/kstats-export.default "$TF/kstats.prom"

load_modules || exit 0
mkdir -p $TF
host_start /tmp/node-exporter.log prometheus-node-exporter \
	--web.listen-address=:9100 --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory=$TF
ne_pid=$KS_HOST_PID
if ! http_wait 10000 http://10.0.2.15:9100/metrics; then
	fail "node_exporter ready on 10.0.2.15:9100" "$(tail -n 20 /tmp/node-exporter.log)"
	kill $ne_pid
	exit 1
fi
ok "node_exporter ready on 10.0.2.15:9100"

# kstats serve from the source tree (the guest's static kstats has none),
# on port 9477, which QEMU forwards too: native histograms
serve=$(ks_arg ks.repo)/tools/kstats
serve_pid=""
if host_run "$serve" serve --help >/dev/null 2>&1; then
	host_start /tmp/serve.log "$serve" serve --listen 0.0.0.0:9477
	serve_pid=$KS_HOST_PID
	http_wait 10000 http://10.0.2.15:9477/metrics
	check "kstats serve ready on 10.0.2.15:9477" http_wait 1 http://10.0.2.15:9477/metrics
else
	skip "kstats serve" "$serve has no serve"
fi

check "trace $NODE" kstats trace $NODE
check "the timer's command exports (no call yet)" timer_export

# answer N: kstats' figures and the exported file for cmd.N
answer() {
	{
		for f in samples avg p50 p90 p99; do
			printf '%s %s ' $f "$(node_field $NODE $f)"
		done
		echo
	} > $X/out.$1.tmp
	cp $TF/kstats.prom $X/prom.$1
	mv $X/out.$1.tmp $X/out.$1
}

echo "$(uname -r)" > $X/ready
n=1
while :; do
	# the host's QEMU timeout ends a wait that lasts (under -icount the
	# guest's clock is no measure of the host's)
	while [ ! -f $X/cmd.$n ]; do
		sleep 0.2
	done
	set -- $(cat $X/cmd.$n)
	case $1 in
	run)	before=$(node_field $NODE samples)
		check "$2 calls of $3 ns, the timer's command exports" \
			"echo '$2 $3' > /sys/kernel/debug/kstats_target/delay && timer_export"
		expect_eq "kstats: $2 calls counted" "$(node_field $NODE samples)" "$((before + $2))" ;;
	reset)	check "reset $NODE, the timer's command exports" "kstats reset $NODE && timer_export" ;;
	stop)	break ;;
	*)	fail "command $n from the host" "unknown: $*" ;;
	esac
	answer $n
	n=$((n + 1))
done

kill $ne_pid $serve_pid
wait $ne_pid 2>/dev/null
[ -z "$serve_pid" ] || { wait $serve_pid; expect_eq "kstats serve ends on SIGTERM with status 0" "$?" 0; }
check "remove $NODE at the end" kstats remove $NODE
umount $X
umount -l $KS_HOST 2>/dev/null
unload_modules
