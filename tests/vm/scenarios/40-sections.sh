# SPDX-License-Identifier: GPL-2.0
# Section timing between two functions, a function and a tracepoint, two
# tracepoints; GAP- histograms of the time between calls.
# ks-lockdown: again (vm/runner.sh: once more under lockdown, through /proc)
. /ks/lib.sh

load_modules || exit 0
T=$KS_TDIR

# kprobe -> kprobe: exactly one sample per section, at least the spin.
check "trace sec start A end B" ctl "trace sec start ks_target_mark_a end ks_target_mark_b bits 5"
expect_eq "attach shows both points" "$(node_field sec attach)" "section:ks_target_mark_a,ks_target_mark_b"
taskset 1 sh -c "echo '300 100000' > $T/section"
expect_eq "300 sections -> 300 samples" "$(node_field sec samples)" 300
p50=$(node_field sec p50)
expect_range "section p50 ($p50) >= the 100 us spin, within precision + $((KS_SLACK / 1000)) us" "$p50" 100000 $((100000 + 100000 / 32 + KS_SLACK))
ctl "remove sec"

# kprobe -> tracepoint: the first kmalloc after mark_a on that CPU ends it.
# Two nodes on one tracepoint (where the kernel has typed tracepoint stubs,
# both hook the same stub): each counts its own sections, once.
check "trace start A end tp:kmem:kmalloc" ctl "trace seckm start ks_target_mark_a end tp:kmem:kmalloc"
check "a second node on the same points" ctl "trace seckm2 start ks_target_mark_a end tp:kmem:kmalloc"
taskset 1 sh -c "echo '250 0' > $T/section"
expect_eq "250 sections to the kmalloc tracepoint -> 250 samples" "$(node_field seckm samples)" 250
expect_eq "the second node: 250 samples too" "$(node_field seckm2 samples)" 250
ctl "remove seckm"
taskset 1 sh -c "echo '10 0' > $T/section"
expect_eq "the second node counts on alone: 260" "$(node_field seckm2 samples)" 260
ctl "remove seckm2"

# tracepoint -> tracepoint, for one process.
rm -f /tmp/go
sh -c "while [ ! -e /tmp/go ]; do :; done; echo '400 0' > $T/section" &
w=$!
check "trace start tp:kmem:kmalloc end tp:kmem:kfree pid" ctl "trace kmkf start tp:kmem:kmalloc end tp:kmem:kfree pid $w"
touch /tmp/go; wait $w
expect_range "kmalloc -> kfree sections of the process (>= 400)" "$(node_field kmkf samples)" 400 600
ctl "remove kmkf"

# Errors.
expect_errno "unknown tracepoint -> ENOENT" ENOENT ctl "trace x start tp:no_such_tracepoint end ks_target_mark_b"
check "logged by name" 'dmesg | grep -q "no tracepoint no_such_tracepoint"'
expect_errno "unknown end function -> ENOENT" ENOENT ctl "trace x start ks_target_mark_a end ks_no_such_fn"
expect_errno "start without end -> EINVAL" EINVAL ctl "trace x start ks_target_mark_a"
expect_errno "section with via -> EINVAL" EINVAL ctl "trace x start ks_target_mark_a end ks_target_mark_b via kretprobe"
check "no node left by failed sections" '[ "$(grep -vc "^#" $KS_CTL)" = 0 ]'

# GAP-: time between consecutive calls on a CPU.
check "trace gap yes" ctl "trace ks_target_delay gap yes bits 5"
check "GAP- node exists" test -e $KS_DIR/GAP-ks_target_delay
taskset 1 sh -c "echo '100 20000' > $T/delay"
expect_eq "100 calls" "$(node_field ks_target_delay samples)" 100
expect_eq "99 gaps between 100 calls on one CPU" "$(node_field GAP-ks_target_delay samples)" 99
gp50=$(node_field GAP-ks_target_delay p50)
expect_range "gap p50 ($gp50) >= the 20 us each call spins" "$gp50" 20000 $((20000 + 20000 / 32 + KS_SLACK))
expect_eq "GAP- attach names its parent" "$(node_field GAP-ks_target_delay attach)" "gap:ks_target_delay"
check "reset resets both" ctl "reset ks_target_delay"
expect_eq "GAP- reset" "$(node_field GAP-ks_target_delay samples)" 0
check "remove removes both" ctl "remove ks_target_delay"
check "GAP- file gone" '! test -e $KS_DIR/GAP-ks_target_delay'
unload_modules
