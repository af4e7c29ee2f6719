# SPDX-License-Identifier: GPL-2.0
# Which clock a node reads, and the rule that chose it (clock_by=, from
# kmod/ks_arch.h's ks_counter_rule()): the counter wherever the kernel
# trusts it, with an invariant TSC or without one (QEMU's default CPU
# model: tests/vm/cpu-default.sh boots it), local_clock() elsewhere; and
# the fall back the moment the kernel changes its mind (its clocksource
# leaves the TSC, or counter_unstable).
# ks-lockdown: again (vm/runner.sh: once more under lockdown, through /proc)
. /ks/lib.sh

T=$KS_TDIR
CS=/sys/devices/system/clocksource/clocksource0
load_modules || exit 0

flags=$(grep -m1 '^flags' /proc/cpuinfo)
has() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }
cs=$(cat $CS/current_clocksource 2>/dev/null)
major=${KS_KVER%%.*}
minor=${KS_KVER#*.}
minor=${minor%%[.-]*}
case $(uname -m) in
aarch64)
	want="cntvct arch_counter" ;;
*)
	if tsc_gave_up; then
		want="local no_stable_counter"
	elif has constant_tsc && has nonstop_tsc; then
		want="tsc invariant_tsc"
	elif [ "$cs" = tsc ] && { [ "$major" -gt 6 ] || [ "$minor" -ge 12 ]; }; then
		want="tsc tsc_clocksource"
	else
		want="local no_stable_counter"
	fi ;;
esac
diag "available: $(cat $CS/available_clocksource 2>/dev/null); TSC marked unstable: $(tsc_gave_up && echo y || echo n)"
diag "clocksource $cs; constant_tsc $(has constant_tsc && echo y) nonstop_tsc $(has nonstop_tsc && echo y); expect $want"

check "trace ks_target_empty" ctl "trace ks_target_empty"
expect_eq "clock and the rule that chose it" \
	"$(node_field ks_target_empty clock) $(node_field ks_target_empty clock_by)" "$want"
echo 1000 > $T/empty
expect_eq "1000 calls" "$(node_field ks_target_empty samples)" 1000
check "remove ks_target_empty" ctl "remove ks_target_empty"

if [ "$(uname -m)" != aarch64 ]; then
	check "trace ks_target_empty clock tsc" ctl "trace ks_target_empty clock tsc"
	expect_eq "clock tsc: as asked" "$(node_field ks_target_empty clock_by)" asked
	check "remove ks_target_empty" ctl "remove ks_target_empty"
fi

# The kernel changes its mind: its clocksource leaves the TSC.
if [ "$want" = "tsc tsc_clocksource" ] && grep -qw hpet $CS/available_clocksource; then
	check "trace ks_target_empty" ctl "trace ks_target_empty"
	echo 300 > $T/empty
	check "clocksource hpet" sh -c "echo hpet > $CS/current_clocksource"
	check "falls back within the second's watch" \
		poll 500 '[ "$(node_field ks_target_empty clock)" = local ]'
	expect_eq "and says why" "$(node_field ks_target_empty clock_by)" counter_unstable
	check "the log says so" "dmesg | grep -q 'ks_target_empty: the tsc is unstable: local_clock() from now on'"
	echo 200 > $T/empty
	expect_eq "every call counted across the change" "$(node_field ks_target_empty samples)" 500
	check "clocksource tsc again" sh -c "echo tsc > $CS/current_clocksource"
	check "remove ks_target_empty" ctl "remove ks_target_empty"
	check "a new node takes the counter again" ctl "trace ks_target_empty"
	expect_eq "by the clocksource rule" "$(node_field ks_target_empty clock_by)" tsc_clocksource
	check "remove ks_target_empty" ctl "remove ks_target_empty"
fi

# counter_unstable: as if the kernel had found the counter unstable
P=/sys/module/kstats/parameters/counter_unstable
echo 1 > $P
check "trace ks_target_empty (counter_unstable)" ctl "trace ks_target_empty"
expect_eq "local_clock, and why" \
	"$(node_field ks_target_empty clock) $(node_field ks_target_empty clock_by)" \
	"local no_stable_counter"
check "remove ks_target_empty" ctl "remove ks_target_empty"
echo 0 > $P
unload_modules
