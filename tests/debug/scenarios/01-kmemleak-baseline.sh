# SPDX-License-Identifier: GPL-2.0
# Before any kstats scenario: what boot left unreferenced is not ours, so
# scan once and clear the list (99-kmemleak reports what came after).
. /ks/lib.sh

if [ ! -e /sys/kernel/debug/kmemleak ]; then
	skip "kmemleak baseline" "kernel without DEBUG_KMEMLEAK"
	exit 0
fi
echo scan > /sys/kernel/debug/kmemleak
boot=$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak)
echo clear > /sys/kernel/debug/kmemleak
diag "kmemleak: $boot objects from boot cleared"
expect_eq "kmemleak: list empty after clear" "$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak)" 0
