# SPDX-License-Identifier: GPL-2.0
# After every scenario (modules loaded, traced, removed, unloaded, faults
# injected) and with kstats' modules unloaded: a kmemleak scan.  An
# unreferenced object allocated through kstats or its test modules fails
# (kmemleak_scan in lib.sh); any other is shown as a comment (the
# kernel's own false positives).
. /ks/lib.sh

for m in kstats_api_sample kstats_lr_client kstats_target kstats; do
	grep -q "^$m " /proc/modules && rmmod $m
done
if ! kmemleak_scan; then
	skip "kmemleak scan" "kernel without DEBUG_KMEMLEAK"
	exit 0
fi
if [ "$KS_LEAKS_OURS" = 0 ]; then
	ok "kmemleak after the whole suite: nothing of kstats leaked ($KS_LEAKS_ALL other objects)"
	[ "$KS_LEAKS_ALL" = 0 ] || head -n 30 "$KS_STATE/kmemleak" | sed 's/^/# /'
else
	fail "kmemleak after the whole suite: nothing of kstats leaked" "$(head -n 60 "$KS_STATE/kmemleak")"
fi
