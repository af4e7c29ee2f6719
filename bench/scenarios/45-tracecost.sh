# SPDX-License-Identifier: GPL-2.0
# What a default "trace" costs: one write to _control, timed with the
# guest clock (instructions under icount), the first after the module is
# loaded (it reads and indexes vmlinux BTF to choose the backend) and the
# next ones (BTF cached), plus a "remove".
. /ks/lib.sh
. /scenarios/bench-lib.sh

# A fresh module: its first trace reads vmlinux BTF.
[ -e "$KS_CTL" ] && ctl "remove all"
check "rmmod kstats" rmmod kstats || exit 0
check "insmod kstats" insmod /modules/kstats.ko || exit 0
fn=find_vma
for i in 1 2 3; do
	l=$(ksb -r 1 -w 0 write $KS_CTL "trace $fn") || { fail "trace $fn ($i)"; break; }
	t=$(ksb_field "$l" median)
	l=$(ksb -r 1 -w 0 write $KS_CTL "remove $fn") || { fail "remove $fn ($i)"; break; }
	res tracecost n=$i func=$fn trace=$t remove=$(ksb_field "$l" median)
	ok "trace/remove $fn, pass $i: $t"
done
