# SPDX-License-Identifier: GPL-2.0
# Guest scenario (tests/kbuild/run.sh boots the tiny kernel with it and
# lockdown=integrity): the kernel refuses an unsigned module itself; a
# kstats.ko signed with the kernel's own key passes the signature check,
# then refuses to load with its one line, EPERM, and leaves nothing.
. /ks/lib.sh

L=/sys/kernel/security
grep -q " $L securityfs" /proc/mounts || mount -t securityfs securityfs $L
expect_eq "lockdown level" "$(cat $L/lockdown 2>&1)" "none [integrity] confidentiality"
dmesg -c > /dev/null

expect_errno "unsigned kstats_target.ko: the kernel refuses it" EPERM insmod $KS_MODDIR/kstats_target.ko
check "the kernel says why" 'dmesg | grep -q "Lockdown: insmod: unsigned module loading is restricted"'
check "kstats_target not loaded" '! grep -q "^kstats_target " /proc/modules'

dmesg -c > /dev/null
expect_errno "signed kstats.ko under lockdown: kstats refuses to load" EPERM insmod $KS_MODDIR/kstats.ko
expect_eq "the signature was accepted: no refusal of an unsigned module" \
	"$(dmesg | grep -c "unsigned module loading is restricted")" 0
# busybox insmod tries finit_module(), then init_module(): one line each
# (besides the kernel's own "kstats: loading out-of-tree module taints")
expect_eq "kstats' one line (per load attempt)" \
	"$(dmesg | grep -o 'kstats: .*' | grep -v 'out-of-tree module taints' | sort -u | wc -l)" 1
check "kstats says the kernel is locked down" \
	'dmesg | grep -qF "kstats: the kernel is locked down (/sys/kernel/security/lockdown): debugfs refuses kstats'"'"' files, not loading"'
check "kstats not loaded" '! grep -q "^kstats " /proc/modules'
check "no kstats directory in debugfs" test ! -e /sys/kernel/debug/kstats
if bad=$(dmesg_bad); then fail "dmesg clean" "$bad"; else ok "dmesg clean"; fi
