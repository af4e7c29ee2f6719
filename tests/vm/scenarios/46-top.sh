# SPDX-License-Identifier: GPL-2.0
# kstats top and the CLI's globs against the real module: trace a glob
# of the target's generated family with the CLI (it prints _last), then
# "kstats top -n 1" over one interval in which the family was called:
# every row's calls exact (kt_gen_I: 2 * (I + 1) for "2" written to gen),
# every row there, ranked as asked; list and remove by glob.
# ks-lockdown: again (vm/runner.sh: once more under lockdown, through /proc)
. /ks/lib.sh

command -v kstats >/dev/null || { skip "kstats top" "no kstats in /usr/bin"; exit 0; }
load_modules || exit 0
T=$KS_TDIR
out=/tmp/top.out
err=/tmp/top.err

# run CMD...: output in $out/$err, status in $rc.
run() { "$@" >$out 2>$err; rc=$?; }

mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
N=$(grep -c "^kt_gen_0[0-9a-f][0-9a-f] " /sys/kernel/tracing/available_filter_functions)
expect_range "ftrace lists kt_gen_000..0ff ($N)" "$N" 250 256

run kstats trace 'kstats_target:kt_gen_0??' --bits 3
expect_eq "trace GLOB: exit 0" "$rc" 0
diag "$(cat $out)"
check "trace GLOB prints _last: $N matched, $N attached" "grep -q '^matched $N attached $N refused 0' $out"
run kstats list 'kt_gen_0??'
expect_eq "list GLOB: a header and $N nodes" "$(wc -l < $out)" $((N + 1))

# One interval, in which the family is called 2 * (I + 1) times.
run kstats-test top -n 1 --raw -i 1 --test-tick "echo 2 > $T/gen" 'kt_gen_0*'
expect_eq "top -n 1: exit 0" "$rc" 0
expect_eq "top -n 1: a header and $N rows" "$(wc -l < $out)" $((N + 1))
expect_eq "top -n 1: the header" "$(head -n 1 $out | tr -s ' ')" "NAME CALLS CALLS/s MISSED p50 p99 MAX TOTAL SHARE% UNIT"
bad=$(awk 'NR > 1 { n = $1; sub(/^kstats_target:kt_gen_/, "", n)
	want = 2 * (("0x" n) + 1)
	if ($2 != want || $4 != 0 || $NF != "ns") print $1, $2, "want", want }' $out)
expect_eq "top -n 1: every row's calls exact (2 * (I + 1)), none missed" "$bad" ""
expect_eq "top -n 1: calls/s of a 1 s interval" "$(awk '$1 == "kstats_target:kt_gen_0ff" { print $3 }' $out)" "512.0"
# each share is rounded to 0.1%: their sum is 100 within N x 0.05
expect_range "top -n 1: shares add up to 100% (rounding)" "$(awk 'NR > 1 { s += $9 } END { printf "%.0f", s }' $out)" $((100 - N / 20 - 1)) $((100 + N / 20 + 1))
if grep -q "$(printf '\033')" $out; then fail "top -n 1: no escape codes"; else ok "top -n 1: no escape codes"; fi

run kstats-test top -n 1 --raw --sort calls --test-tick "echo 1 > $T/gen" 'kt_gen_0*'
diag "$(head -n 4 $out)"
expect_eq "top --sort calls: kt_gen_0ff first (256 calls)" "$(sed -n 2p $out | awk '{ print $1, $2 }')" "kstats_target:kt_gen_0ff 256"
expect_eq "top --sort calls: kt_gen_000 last (1 call)" "$(tail -n 1 $out | awk '{ print $1, $2 }')" "kstats_target:kt_gen_000 1"
expect_eq "top --sort calls: descending" \
	"$(awk 'NR > 2 && $2 > last { bad = 1 } NR > 1 { last = $2 } END { print bad + 0 }' $out)" 0

# Known delays rank by p50: kt_gen_slow_K spins 20 us << K.
check "trace kt_gen_slow_*" kstats trace 'kt_gen_slow_*' --bits 5
run kstats-test top -n 1 --raw -s p50 --test-tick "echo 1 > $T/gen" 'kt_gen_slow_*'
# One call each under TCG's real time, on a host that may be busy: the
# spins' own lengths can come out of order, so check top against the
# nodes' own figures: the first row is the node of the largest p50, and
# its share is its sum over the four's (count 1: the sum is the avg).
diag "$(cat $out)"
first="" best=-1 tot=0
for k in 0 1 2 3; do
	p=$(node_field kt_gen_slow_$k p50)
	a=$(node_field kt_gen_slow_$k avg)
	tot=$((tot + a))
	[ "$p" -gt "$best" ] && { best=$p; first=kt_gen_slow_$k; }
done
expect_eq "top -s p50: the node of the largest p50 first" "$(awk 'NR == 2 { print $1 }' $out)" "$first"
want=$(awk -v a="$(node_field $first avg)" -v t="$tot" 'BEGIN { printf "%.0f", 1000 * a / t }')
expect_range "top: $first's share of the four, per mille, from the nodes' sums ($want)" \
	"$(sed -n 2p $out | awk '{ printf "%.0f", $9 * 10 }')" $((want - 2)) $((want + 2))
expect_range "top: kt_gen_slow_3's p50 is at least the 160 us it spins" \
	"$(node_field kt_gen_slow_3 p50)" 140000 999999999

check "remove GLOB" kstats remove 'kstats_target:kt_gen_*' 'kt_gen_slow_*'
run kstats top -n 1 -i 0.01
expect_eq "top of no nodes: the header only" "$(wc -l < $out)" 1
unload_modules
