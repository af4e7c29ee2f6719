# SPDX-License-Identifier: GPL-2.0
# The whole kernel at once, under -icount (a guest ns is an instruction):
# every function ftrace offers traced by kstats in one write ("trace *
# via direct bits 3"), beside ftrace's own function tracer on the same
# guest.  For each: the instructions of switching it on and off, and of
# the workload with it on (NFORK fork()s whose children exit at once, and
# NOPEN open()s of a name that does not exist), against the workload
# untraced: the slowdown, a ratio.  Per traced call: the instructions a
# loop of N and of 2N calls of the empty ground-truth function adds per
# call (their difference over N, so that what the write() around them
# costs cancels), untraced, with that function alone traced, and with
# everything traced (the call-site table full); and, averaged over the
# 1,024 functions of the target's generated family, the cost per call
# with everything traced.  Memory: what the
# module's meminfo fields grew by with everything attached, and after
# the workload, and of it what the slots' caches took (the spares, and
# the slots of the functions called during the attach).  Not in the default set (make bench-whole).
. /ks/lib.sh
. /scenarios/bench-lib.sh

REPS=${REPS:-5}
NFORK=${NFORK:-20}
NOPEN=${NOPEN:-2000}
N=${N:-20000}
P=/sys/module/kstats/parameters/glob_max
TR=/sys/kernel/tracing
mount -t tracefs nodev $TR 2> /dev/null
naff=$(wc -l < $TR/available_filter_functions)

mem() {
	awk '$1 == "Percpu:" { p = $2 } $1 == "Slab:" { s = $2 } $1 == "VmallocUsed:" { v = $2 }
	     END { printf "percpu=%d slab=%d vmalloc=%d", p, s, v }' /proc/meminfo
}
# the slab pages of the slots' caches, kB: each CPU's slots and the spares
slots() {
	awk '$1 ~ /^kstats_slots_/ { s += $15 * $6 * 4 } END { printf "%d", s }' /proc/slabinfo
}
memkb() {
	echo "$1 $2" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); if (i <= 3) a[kv[1]] = kv[2]; else b[kv[1]] = kv[2] } }
		END { printf "%d", b["percpu"] - a["percpu"] + b["slab"] - a["slab"] + b["vmalloc"] - a["vmalloc"] }'
}

# work TOOL: the workload, timed; one record per operation
work() {
	l=$(ksb -r "$REPS" fork "$NFORK") || { fail "fork workload ($1)"; return 1; }
	res wholework tool=$1 op=fork n=$NFORK min=$(ksb_field "$l" min) median=$(ksb_field "$l" median)
	l=$(ksb -r "$REPS" open $KSB_TMP "$NOPEN") || { fail "open workload ($1)"; return 1; }
	res wholework tool=$1 op=open n=$NOPEN min=$(ksb_field "$l" min) median=$(ksb_field "$l" median)
}

# percall WHAT: the instructions per call of the empty function's loop
percall() {
	a=$(ksb -r "$REPS" write $KSB_EMPTY "$N") || { fail "empty x $N ($1)"; return 1; }
	b=$(ksb -r "$REPS" write $KSB_EMPTY "$((2 * N))") || { fail "empty x $((2 * N)) ($1)"; return 1; }
	res wholecall traced=$1 n=$N min1=$(ksb_field "$a" min) min2=$(ksb_field "$b" min) \
		med1=$(ksb_field "$a" median) med2=$(ksb_field "$b" median)
}

ctl_try "remove all" > /dev/null
if grep -qE ' register_ftrace_direct_multi$' /proc/kallsyms; then
	skip "the whole kernel at once" "8,192 direct call sites at most before 6.6 (kmod/ks_direct.h)"
	exit 0
fi
why=$(ctl_try "trace ks_target_empty via direct") || {
	skip "the whole kernel at once" "no direct backend here: $why"
	exit 0
}
ctl "remove ks_target_empty"

# genwork TRACED: the target's generated family, 524,800 calls of 1,024
# functions (kt_gen_I called I + 1 times): the cost per call averaged
# over many call sites, each in its own home of the table or sharing one
genwork() {
	l=$(ksb -r "$REPS" write $GEN 1) || { fail "gen ($1)"; return 1; }
	res wholegen traced=$1 min=$(ksb_field "$l" min) median=$(ksb_field "$l" median) \
		calls=$(awk '$1 ~ /(^|:)kt_gen_[0-9a-f]+$/ { s += $4 } END { print s + 0 }' $KS_CTL)
}
GEN=/sys/kernel/debug/kstats_target/gen

work none
percall none
genwork none
check "trace ks_target_empty via direct" ctl "trace ks_target_empty via direct"
percall one
ctl "remove ks_target_empty"

# ftrace's function tracer, on every function it offers
if [ -w $TR/current_tracer ]; then
	on=$(ksb -r 1 -w 0 write $TR/current_tracer function) || fail "function tracer on"
	work ftrace
	off=$(ksb -r 1 -w 0 write $TR/current_tracer nop) || fail "function tracer off"
	res wholeattach tool=ftrace n=$naff on=$(ksb_field "$on" median) off=$(ksb_field "$off" median)
fi

# kstats, every function the direct backend takes
gmax=$(cat $P)
echo 70000 > $P
m0=$(mem)
s0=$(slots)
on=$(ksb -r 1 -w 0 write $KS_CTL "trace * via direct bits 3") || fail "trace *"
m1=$(mem)
s1=$(slots)
set -- $(grep '^matched' $KS_DIR/_last)
attached=$4
check "every function at once: $attached attached" '[ "${attached:-0}" -gt 1000 ]'
work kstats
percall all
genwork all
m2=$(mem)
called=$(awk '!/^#/ && $4 > 0' $KS_CTL | wc -l)
off=$(ksb -r 1 -w 0 write $KS_CTL "remove *") || fail "remove *"
res wholeattach tool=kstats n=$attached on=$(ksb_field "$on" median) off=$(ksb_field "$off" median)
res wholemem nodes=$attached called=$called attached_kb=$(memkb "$m0" "$m1") \
	worked_kb=$(memkb "$m0" "$m2") slots_kb=$((s1 - s0)) cpus=$(nproc)
echo "$gmax" > $P
check "no node left" '[ "$(grep -vc "^#" $KS_CTL)" = 0 ]'
