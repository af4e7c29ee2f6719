# SPDX-License-Identifier: GPL-2.0
# Leave the guest as found: no node, modules out.
. /ks/lib.sh

[ -e "$KS_CTL" ] && ctl "remove all"
grep -q "^ks_bench " /proc/modules && check "rmmod ks_bench" rmmod ks_bench
# ks_bench's own nodes went with it: none is left.
[ -e "$KS_CTL" ] && check "no node left" '[ "$(grep -vc "^#" $KS_CTL)" = 0 ]'
unload_modules
check "no kstats module left loaded" \
	'! grep -qE "^(kstats|kstats_target|ks_bench) " /proc/modules'
