# SPDX-License-Identifier: GPL-2.0
# The module where 'make install' and DKMS put it (/lib/modules/KVER/
# updates, then depmod) loads with 'modprobe kstats' and works, and
# 'modprobe -r kstats' removes it.
. /ks/lib.sh

d=/lib/modules/$KS_KVER/updates/dkms
if [ ! -f "$KS_MODDIR/kstats.ko" ]; then
	fail "modprobe: no $KS_MODDIR/kstats.ko in the initramfs"
	exit 0
fi
check "install into $d, depmod" "mkdir -p $d && cp $KS_MODDIR/kstats.ko $d/ && depmod $KS_KVER"
check "modprobe kstats" modprobe kstats
check "kstats _control exists" test -e "$KS_CTL"
check "trace find_vma" ctl "trace find_vma"
cat /proc/self/maps > /dev/null
expect_range "find_vma samples" "$(node_field find_vma samples)" 1 1000000
check "modprobe -r kstats" modprobe -r kstats
check "kstats unloaded" test ! -e /sys/module/kstats
rm -rf "$d"
depmod "$KS_KVER"
