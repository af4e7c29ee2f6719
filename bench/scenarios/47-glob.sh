# SPDX-License-Identifier: GPL-2.0
# Many functions at once: the target's generated family, traced by globs
# of 1, 256 and 1,028 functions (kt_gen_3ff*, kt_gen_3*, kt_gen_*: globs
# bpftrace can write too).  For each: the guest time of the one write()
# that attaches them all ("trace GLOB bits 3") and of the one that removes
# them, what the module's memory grew by, and the cost per traced call of
# the family's workload (one "1" written to kstats_target/gen: kt_gen_I
# called I + 1 times) with that many attached.  Side by side on the same
# globs and workload: bpftrace kprobe:GLOB with a hist() per function, kfunc:,
# ftrace's function profiler and perf ftrace profile, where they exist.
. /ks/lib.sh
. /scenarios/bench-lib.sh

REPS=${REPS:-5}
GPASSES=${GPASSES:-3}
GEN=/sys/kernel/debug/kstats_target/gen
P=/sys/module/kstats/parameters/glob_max
SETS="kt_gen_3ff* kt_gen_3* kt_gen_*"
# the globs bpftrace runs on (bench/run.sh: the first alone on arm64,
# whose 6.x kernels have no kprobe_multi: bpftrace attaches a kprobe and a
# kretprobe per function, and 512 of them took more than 10 minutes under
# TCG)
BSETS=${BPF_GLOB_SETS:-$SETS}
TR=/sys/kernel/tracing
mkdir -p $KSB_OUT/raw

if [ ! -e $GEN ] || [ ! -e $P ]; then
	res globunavail tool=kstats why="$(enc "no kstats_target gen file or no glob_max: the module predates globs")"
	skip "globs" "no gen file or glob_max"
	exit 0
fi
check "glob_max 4000" "echo 4000 > $P"
# where an attach's time goes: ks_glob.c's phases, by dynamic debug
echo 'module kstats +p' > /sys/kernel/debug/dynamic_debug/control 2> /dev/null

# mem: the module-relevant /proc/meminfo fields, in kB, as key=value words
mem() {
	awk '$1 == "Percpu:" { p = $2 } $1 == "Slab:" { s = $2 } $1 == "VmallocUsed:" { v = $2 }
	     END { printf "percpu=%d slab=%d vmalloc=%d", p, s, v }' /proc/meminfo
}
# memdelta BEFORE AFTER: "dpercpu=.. dslab=.. dvmalloc=.." in kB
memdelta() {
	echo "$1 $2" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); if (i <= 3) a[kv[1]] = kv[2]; else b[kv[1]] = kv[2] } }
		END { printf "dpercpu=%d dslab=%d dvmalloc=%d", b["percpu"] - a["percpu"], b["slab"] - a["slab"], b["vmalloc"] - a["vmalloc"] }'
}
# gen_calls: the samples of every kt_gen node, summed
gen_calls() {
	awk '$1 ~ /^kstats_target:kt_gen_/ { s += $4 } END { print s + 0 }' "$KS_CTL"
}

# The workload untraced, before and after.
base() {
	l=$(ksb -r "$REPS" write $GEN 1) || { fail "gen untraced ($1)"; return 1; }
	res globbase when=$1 min=$(ksb_field "$l" min) median=$(ksb_field "$l" median) t=$(ksb_field "$l" t)
}
base before

# Untimed: the first trace reads vmlinux BTF and calibrates the floor,
# once per module load (the other scenarios may not have run before).
ctl_try "trace kstats_target:kt_gen_3ff* bits 3" > /dev/null &&
	ctl_try "remove kstats_target:kt_gen_3ff*" > /dev/null

for g in $SETS; do
	glob=kstats_target:$g
	pass=1
	while [ $pass -le "$GPASSES" ]; do
		m0=$(mem)
		l=$(ksb -r 1 -w 0 write "$KS_CTL" "trace $glob bits 3") ||
			{ fail "trace $glob (pass $pass)"; diag "$(cat $KS_DIR/_last)"; break; }
		tt=$(ksb_field "$l" median)
		ph=$(dmesg | grep -F "$glob: " | grep 'functions: match' | tail -n1 | sed 's/.*functions: //')
		[ -n "$ph" ] && res globphase glob=$g pass=$pass phases="$(enc "$ph")"
		last=$(grep '^matched' $KS_DIR/_last)
		m1=$(mem)
		if [ $pass = 1 ]; then
			# with this many attached: the workload, every call traced
			l=$(ksb -r "$REPS" write $GEN 1) || { fail "gen with $glob"; break; }
			# warm-ups and timed operations: fresh nodes counted them all
			ops=$(( REPS + $(echo "$KSB_OPTS" | sed -n 's/.*-w \([0-9]*\).*/\1/p') ))
			res globcall glob=$g min=$(ksb_field "$l" min) median=$(ksb_field "$l" median) \
				calls=$(gen_calls) ops=$ops t=$(ksb_field "$l" t)
		fi
		l=$(ksb -r 1 -w 0 write "$KS_CTL" "remove $glob") || { fail "remove $glob"; break; }
		m2=$(mem)
		res globattach glob=$g pass=$pass trace=$tt remove=$(ksb_field "$l" median) \
			matched=$(echo "$last" | awk '{ print $2 }') attached=$(echo "$last" | awk '{ print $4 }') \
			via="$(enc "$(echo "$last" | cut -d' ' -f7-)")" \
			$(memdelta "$m0" "$m1") kept="$(enc "$(memdelta "$m0" "$m2")")"
		pass=$((pass + 1))
	done
	ok "kstats $glob: attach, workload, remove"
done
check "no node left" '[ "$(grep -vc "^#" $KS_CTL)" = 0 ]'

echo 'module kstats -p' > /sys/kernel/debug/dynamic_debug/control 2> /dev/null
if [ "${GLOB_ALT:-1}" = 0 ]; then
	base after
	exit 0
fi

# ---- the alternatives, on the same globs and workload ----
cmd="/tmp/ks-bench $KSB_OPTS -r $REPS write $GEN 1"

# ftrace's function profiler (CONFIG_FUNCTION_PROFILER)
mount -t tracefs nodev $TR 2>/dev/null
if [ ! -e $TR/function_profile_enabled ]; then
	res globunavail tool=ftrace-profiler why="$(enc "no function_profile_enabled: CONFIG_FUNCTION_PROFILER is off in this kernel")"
	skip "ftrace function profiler" "CONFIG_FUNCTION_PROFILER off"
else
	for g in $SETS; do
		echo "$g" > $TR/set_ftrace_filter
		echo 1 > $TR/function_profile_enabled
		l=$(ksb -r "$REPS" write $GEN 1)
		echo 0 > $TR/function_profile_enabled
		raw=$KSB_OUT/raw/ftrace-profiler-$g.txt
		cat $TR/trace_stat/function* > "$raw" 2>/dev/null
		echo > $TR/set_ftrace_filter
		[ -n "$l" ] || { fail "ftrace profiler $g"; continue; }
		res globalt tool=ftrace-profiler glob=$g min=$(ksb_field "$l" min) median=$(ksb_field "$l" median) \
			count=$(awk '$1 ~ /^kt_gen_/ { s += $2 } END { print s + 0 }' "$raw") \
			funcs=$(grep -c '^ *kt_gen_' "$raw") raw=${raw##*/}
		ok "ftrace profiler $g"
	done
fi

# perf ftrace profile (perf 6.8 and later)
why=$(host_tool_why /usr/bin/perf linux-perf)
if [ -z "$why" ] && ! in_host perf ftrace -h 2>&1 | grep -q 'profile'; then
	why="$(in_host perf version 2>&1 | head -n1) has no 'perf ftrace profile' (perf 6.12 added it)"
fi
if [ -n "$why" ]; then
	res globunavail tool=perf-profile why="$(enc "$why")"
	skip "perf ftrace profile" "$why"
else
	for g in $SETS; do
		raw=$KSB_OUT/raw/perf-profile-$g.txt
		# shellcheck disable=SC2086
		in_host perf ftrace profile -T "$g" -- $cmd > "$raw" 2>&1
		l=$(grep '^KSB ' "$raw" | tail -n1)
		[ -n "$l" ] || { res globunavail tool=perf-profile glob=$g why="$(enc "$(grep -v '^KSB' "$raw" | head -n1)")"; continue; }
		res globalt tool=perf-profile glob=$g min=$(ksb_field "$l" min) median=$(ksb_field "$l" median) \
			funcs=$(grep -c 'kt_gen_' "$raw") raw=${raw##*/}
		ok "perf ftrace profile $g"
	done
fi

# bpftrace: kprobe+kretprobe on the glob, a histogram per function; kfunc
why=$(host_tool_why /usr/bin/bpftrace bpftrace)
if [ -n "$why" ]; then
	res globunavail tool=bpftrace-kprobe why="$(enc "$why")"
	skip "bpftrace globs" "$why"
else
	for kind in kprobe kfunc; do
		for g in $SETS; do
			case " $BSETS " in
			*" $g "*)	;;
			*)	res globunavail tool=bpftrace-$kind glob=$g why="$(enc "not run here (BPF_GLOB_SETS: one kprobe per function, too slow under TCG)")"
				continue ;;
			esac
			raw=$KSB_OUT/raw/bpftrace-glob-$kind-$g.txt
			if [ $kind = kprobe ]; then
				# func names the function at entry only (in a
				# kretprobe it is the caller): keep it with the
				# start time
				prog="kprobe:$g { @s[tid] = nsecs; @f[tid] = func; } kretprobe:$g /@s[tid]/ { @[@f[tid]] = hist(nsecs - @s[tid]); delete(@s[tid]); delete(@f[tid]); }"
			else
				# bpftrace 0.17 refuses func in kfunc probes; each
				# kretfunc is one function's program: probe names it
				prog="kfunc:kstats_target:$g { @s[tid] = nsecs; } kretfunc:kstats_target:$g /@s[tid]/ { @[probe] = hist(nsecs - @s[tid]); delete(@s[tid]); }"
			fi
			# a kfunc probe holds its program's and its link's
			# descriptors: 2,052 probes need more than 1,024; and
			# bpftrace stops at 512 probes and 512 programs unless
			# told otherwise
			(ulimit -n 65536 && KSB_TIMEOUT=900 in_host \
				env BPFTRACE_MAX_PROBES=8192 BPFTRACE_MAX_BPF_PROGS=8192 bpftrace -e "$prog" -c "$cmd") > "$raw" 2>&1
			l=$(grep '^KSB ' "$raw" | tail -n1)
			if [ -z "$l" ]; then
				why=$(grep -m1 -E 'ERROR|rror|FATAL' "$raw")
				case $why in
				*"No BTF"*)	why="$why (no BTF: kstats_target.ko is built out of tree without it)" ;;
				esac
				res globunavail tool=bpftrace-$kind glob=$g why="$(enc "${why:-no output}")"
				skip "bpftrace $kind $g" "${why:-no output}"
				[ $kind = kfunc ] && break	# the same reason for every glob
				continue
			fi
			res globalt tool=bpftrace-$kind glob=$g min=$(ksb_field "$l" min) median=$(ksb_field "$l" median) \
				funcs=$(grep -c '^@\[' "$raw") raw=${raw##*/}
			ok "bpftrace $kind $g"
		done
	done
fi

base after
