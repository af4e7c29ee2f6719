# SPDX-License-Identifier: GPL-2.0
# What kstats' own C path reaches, traced with sampling on (so that every
# timed call goes through C, not the direct trampoline's own record): a
# CPU's first record takes a spare and raises an irq_work, whose
# functions are then traced themselves.  On every backend the kernel
# survives, the counts of the function that made the claims stay exact,
# and the nested calls are timed or counted in missed, never lost
# (kmod/ks_direct.c's recursion guard; kprobes' and fprobe's own).
. /ks/lib.sh

T=$KS_TDIR
AFF=/sys/kernel/debug/tracing/available_filter_functions
[ -r $AFF ] || AFF=/sys/kernel/tracing/available_filter_functions
load_modules || exit 0
set_backends

# The irq_work functions this kernel lets ftrace trace.
irqw=$(awk '{ print $1 }' $AFF 2>/dev/null | sed 's/\..*//' | sort -u |
	grep -xE 'irq_work_queue|irq_work_claim|__irq_work_queue_local|irq_work_raise|arch_irq_work_raise|irq_work_single|irq_work_run_list' |
	tr '\n' ' ')
diag "the C path's irq_work functions ftrace offers here: $irqw"
check "some are offered" '[ -n "$irqw" ]'
ncpu=$(grep -c ^processor /proc/cpuinfo)

for b in $backends; do
	for f in $irqw; do
		ctl "trace $f via $b sample 2" 2> /tmp/rec.err ||
			diag "$b: $f refused: $(cat /tmp/rec.err)"
	done
	traced=$(grep -c "^irq_work\|^__irq_work\|^arch_irq_work" $KS_CTL)
	check "$b: the irq_work functions traced, sampling 1 in 2 ($traced)" '[ "$traced" -ge 1 ]'
	# 10 new nodes, each claimed on every CPU: 10 x ncpu claims, each
	# raising the traced irq_work
	bad="" i=0
	while [ $i -lt 10 ]; do
		ctl "trace ks_target_empty via $b sample 2"
		c=0
		while [ $c -lt "$ncpu" ]; do
			taskset $((1 << c)) sh -c "echo 100 > $T/empty"
			c=$((c + 1))
		done
		s=$(node_field ks_target_empty samples)
		m=$(node_field ks_target_empty missed)
		[ "$s" = $((50 * ncpu)) ] && [ "$m" = 0 ] || bad="$bad $i:$s/$m"
		ctl "remove ks_target_empty"
		i=$((i + 1))
	done
	expect_eq "$b: 10 new nodes x $ncpu CPUs, each 50 of 100 calls timed, 0 missed" "$bad" ""
	tot=0
	for f in $irqw; do
		grep -q "^$f " $KS_CTL || continue
		q=$(node_field $f samples)
		qm=$(node_field $f missed)
		diag "$b: $f samples $q missed $qm"
		tot=$((tot + q + qm))
	done
	check "$b: they were called from inside the claims, and counted ($tot)" '[ "$tot" -ge 1 ]'
	for f in $irqw; do
		grep -q "^$f " $KS_CTL || continue
		check "$b: kstats check $f" kstats check $f
	done
	check "$b: remove them" 'for f in $irqw; do grep -q "^$f " $KS_CTL || continue; ctl "remove $f" || exit 1; done'
done
check "no node left" '[ "$(grep -vc "^#" $KS_CTL)" = 0 ]'
unload_modules
