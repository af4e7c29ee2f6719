# SPDX-License-Identifier: GPL-2.0
# Nested calls, corrected (ks_unnest() in kmod/ks_record.h, docs/format.md):
# under -icount (tests/vm/whole.sh boots it so), ks_target_nest(N) calls
# the traced ks_target_leaf() N times (N = 0, 10, 1,000) and nothing else.
# Its time with the leaf traced too, each leaf call's tracing taken off,
# is within 12.5% of its time with the leaf not traced; taken off nothing
# it would be N times the per-call cost more.  Compared at the p50, bits 5.  The node says how many
# nested calls it took off (exactly N per call) and what each cost; the
# leaf counts every call.  On each backend the kernel has.
# ks-timeout: 300
. /ks/lib.sh

load_modules || exit 0
set_backends
T=$KS_TDIR
K=200

# the p50 (bits 5: slots 1/32 wide), which a timer tick in a few of the
# calls leaves alone: a parent whose leaf is traced runs up to 12 times
# longer before the correction, and takes that many more ticks
avg() { node_field ks_target_nest p50; }
for via in $backends; do
	for n in 0 10 1000; do
		ctl "trace ks_target_nest via $via bits 5"
		echo "$K $n" > $T/nest
		ref=$(avg)
		ctl "remove ks_target_nest"
		ctl "trace ks_target_leaf via $via bits 5"
		ctl "trace ks_target_nest via $via bits 5"
		echo "$K $n" > $T/nest
		got=$(avg)
		nested=$(node_field ks_target_nest nested 2> /dev/null || echo 0)
		cost=$(node_field ks_target_nest cost 2> /dev/null || echo 0)
		raw=$((got + n * cost))
		expect_eq "$via: N=$n: the leaf counted every call" \
			"$(node_field ks_target_leaf samples)" $((K * n))
		expect_eq "$via: N=$n: nested calls taken off, N per call" "$nested" $((K * n))
		expect_range "$via: N=$n: corrected p50 $got within 12.5% of $ref, the leaf untraced (uncorrected: $raw, cost $cost a call)" \
			"$got" $((ref - ref / 8)) $((ref + ref / 8))
		if [ "$n" -ge 10 ]; then
			check "$via: N=$n: a call's cost ($cost) is more than nothing" '[ "$cost" -gt 0 ]'
		fi
		if [ "$n" = 1000 ]; then
			check "$via: N=$n: uncorrected ($raw) would be more than twice the untraced ($ref)" \
				'[ "$raw" -gt $((2 * ref)) ]'
		fi
		ctl "remove ks_target_nest"
		ctl "remove ks_target_leaf"
	done
done
unload_modules
