# SPDX-License-Identifier: GPL-2.0
# Leave the guest as found: no node, modules out.
. /ks/lib.sh

[ -e "$KS_CTL" ] && ctl "remove all"
grep -q "^ks_bench " /proc/modules && check "rmmod ks_bench" rmmod ks_bench
unload_modules || true
ok "cleanup"
