# SPDX-License-Identifier: GPL-2.0
# The pieces of kstats' hot path on their own (ks_bench.ko, built from the
# same sources as kstats.ko): N calls of a noinline function doing the
# histogram update, two clock reads, the per-call decision, or nothing.
. /ks/lib.sh
. /scenarios/bench-lib.sh

N=${N:-100000}
REPS=${REPS:-5}
d=/sys/kernel/debug/ks_bench

if ! [ -d $d ]; then
	res unavail tool=ks_bench target=record why=ks_bench.ko%20not%20built
	skip "record path" "ks_bench.ko not built"
	exit 0
fi
mkdir -p $KSB_OUT/raw
cp $d/sizes $KSB_OUT/raw/sizes.txt
for what in base record clock want; do
	l=$(ksb -r "$REPS" write $d/$what "$N") || { fail "ks_bench $what"; continue; }
	res micro what=$what ops=$N min=$(ksb_field "$l" min) median=$(ksb_field "$l" median) \
		t=$(ksb_field "$l" t)
	ok "ks_bench $what"
done
