# SPDX-License-Identifier: GPL-2.0
# tools/kstats against the live module: every subcommand, exact counts from
# the test-target module, the module's errors as the CLI words them; and a
# capture of real node text (between "=== node BEGIN/END" markers) for the
# parser fixtures.
# ks-lockdown: again (vm/runner.sh: once more under lockdown, through /proc)
. /ks/lib.sh

command -v kstats >/dev/null || { skip "kstats CLI" "no kstats in /usr/bin"; exit 0; }
load_modules || exit 0
T=$KS_TDIR
K=kstats
KT=kstats-test		# the test build: watch --test-tick
out=/tmp/cli.out
err=/tmp/cli.err

# run CMD...: output in $out/$err, status in $rc.
run() { "$@" >$out 2>$err; rc=$?; }
# has DESC FILE TEXT: FILE contains the fixed string TEXT.
has() {
	if grep -qF -- "$3" "$2"; then ok "$1"; else fail "$1" "wanted: $3" "$(cat "$2")"; fi
}

# ---- control ----
run $K list
expect_eq "list with no nodes: exit 0" "$rc" 0
check "trace ks_target_empty" $K trace ks_target_empty --via kretprobe
run $K trace ks_target_empty
expect_eq "trace twice: exit 1" "$rc" 1
has "trace twice: EEXIST worded" $err "a node named 'ks_target_empty' already exists (kstats remove ks_target_empty)"
run $K trace ks_no_such_function_xyz
expect_eq "unknown function: exit 1" "$rc" 1
has "unknown function: ENOENT worded with the clones/inline hint" $err "no function 'ks_no_such_function_xyz'"
run $K trace ks_target_clone --clones no
if awk '$3 ~ /^ks_target_clone\./ { f = 1 } END { exit !f }' /proc/kallsyms; then
	expect_eq "only a clone, --clones no: exit 1" "$rc" 1
	has "only a clone, --clones no: the clones are named" $err "clones of it: ks_target_clone."
	has "only a clone, --clones no: the hint" $err "trace those with --clones yes"
else
	$K remove ks_target_clone 2>/dev/null
	skip "a cloned-away function" "ks_target_clone is not cloned on this build"
fi
run $K trace ks_calib_target
has "EINVAL: points at the kernel log" $err "dmesg"
run $K remove ks_nonexistent_node
has "remove of a missing node" $err "no node named 'ks_nonexistent_node'"

echo 1000 > $T/empty
run $K show ks_target_empty --raw
expect_eq "show: exit 0" "$rc" 0
# the clock as the header names it: the TSC (in cycles, shown as ns) where
# it stands for time, else local_clock()
clk=$(head -n 1 $KS_DIR/ks_target_empty | sed -n 's/.* clock=\([a-z]*\).*/\1/p')
hz=$(head -n 1 $KS_DIR/ks_target_empty | sed -n 's/.* hz=\([0-9]*\).*/\1/p')
if [ -n "$hz" ]; then
	clktext="clock $clk $hz Hz (ns, recorded in cycles)"
else
	clktext="clock $clk (ns)"
fi
has "show: summary header" $out "ks_target_empty: kretprobe:ks_target_empty, $clktext, bits 3, state active"
expect_eq "show: samples and missed" "$(sed -n 3p $out | awk '{ print $1, $2 }')" "1000 0"
has "show: bar histogram" $out " : count     distribution"
run $K list
has "list: the node with its samples" $out "ks_target_empty          kretprobe   active           1000        0"

# ---- snapshots ----
check "stop" $K stop ks_target_empty
echo 50 > $T/empty
check "check: strict parse of a live node" $K check ks_target_empty
check "save" $K save ks_target_empty -o /tmp/e1.json --label base
run $K export --json -f /tmp/e1.json
check "save then export --json: same document" cmp $out /tmp/e1.json
$K export --csv ks_target_empty > /tmp/live.csv
$K export --csv -f /tmp/e1.json > /tmp/snap.csv
check "CSV of the live node == CSV of its snapshot" cmp /tmp/live.csv /tmp/snap.csv
run $K export --prometheus ks_target_empty
check "prometheus: +Inf bucket == 1000" grep -qE '^kstats_latency_seconds_bucket\{node="ks_target_empty",function="ks_target_empty",backend="[a-z]+",clock="'$clk'",release="[^"]+",le="\+Inf"\} 1000$' $out
has "prometheus: release label" $out "release=\"$(uname -r)\",le=\"+Inf\"} 1000"
check "prometheus: _count == 1000" grep -qE '^kstats_latency_seconds_count\{node="ks_target_empty",.*\} 1000$' $out
expect_eq "prometheus: 89 series (85 buckets, +Inf, _sum, _count, missed), no cpu label" "$(grep -vc '^#' $out) $(grep -c 'cpu=' $out)" "89 0"
run $K export --prometheus --buckets log2 ks_target_empty
expect_eq "prometheus --buckets log2: 44 series" "$(grep -vc '^#' $out)" 44
check "start" $K start ks_target_empty
echo 3000 > $T/empty
$K save ks_target_empty -o /tmp/e2.json --label more 2>/dev/null
run $K compare /tmp/e1.json /tmp/e2.json
expect_eq "compare: exit 0" "$rc" 0
expect_eq "compare: counts" "$(awk '$1 == "base" || $1 == "more" { print $1, $2 }' $out | tr '\n' ' ')" "base 1000 more 4000 "

# ---- watch: each interval's own samples ----
check "reset" $K reset ks_target_empty
run $KT watch ks_target_empty -i 1 -n 3 --test-tick "echo \$((KSTATS_TICK * 100)) > $T/empty"
expect_eq "watch: exit 0" "$rc" 0
expect_eq "watch: 100, 200, 300 calls in the intervals" "$(awk '$2 == "ks_target_empty" { print $3 }' $out | tr '\n' ' ')" "100 200 300 "
check "remove" $K remove ks_target_empty

# ---- run ----
run $K run ks_target_recurse -- sh -c "echo '300 7' > $T/recurse"
expect_eq "run: exit 0" "$rc" 0
expect_eq "run: depth 7 x 300 calls -> 2100 samples" "$(sed -n 3p $out | awk '{ print $1 }')" 2100
check "run: node removed afterwards" '! test -e $KS_DIR/ks_target_recurse'
run $K run ks_target_empty -- sh -c 'exit 5'
expect_eq "run: the command's exit status" "$rc" 5

# ---- real node text for the parser fixtures ----
kshort=$(uname -r | cut -d. -f1-2)
if $K trace find_vma 2>/dev/null; then
	for i in 1 2 3 4 5 6 7 8; do cat /proc/self/maps > /dev/null; ls -R /sys/kernel/debug > /dev/null 2>&1; done
	$K stop find_vma
	check "check: find_vma text is consistent" $K check find_vma
	echo "=== node BEGIN find_vma-$kshort.txt"
	cat $KS_DIR/find_vma
	echo "=== node END"
	$K remove find_vma
fi
$K trace ks_target_delay --bits 5 && echo "50 100000" > $T/delay && $K stop ks_target_delay &&
	echo "=== node BEGIN ks_target_delay-bits5-$kshort.txt" && cat $KS_DIR/ks_target_delay &&
	echo "=== node END"
$K remove all
run $K list
expect_eq "remove all: no nodes left" "$(grep -vc '^NAME' $out)" 0
unload_modules
