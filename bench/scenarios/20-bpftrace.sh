# SPDX-License-Identifier: GPL-2.0
# What a user would run instead of kstats, on the same workloads: bpftrace
# kprobe+kretprobe with hist(), kfunc+kretfunc (fentry/fexit, BTF) with
# hist(), and a bare kfunc counter (the cost of the BPF trampoline alone);
# on the empty function also what answers "from where" with bpftrace:
# kfunc+kretfunc with a hist() per caller (@[kstack(1)]) and per stack
# (@[kstack]), beside kstats' callers 8 (10-kstats.sh).
# bpftrace runs from the host root (chroot over 9p); -c starts ks-bench
# only once the probes are attached.  Raw outputs: $KSB_OUT/raw/.
. /ks/lib.sh
. /scenarios/bench-lib.sh

N=${N:-100000}
NOPEN=${NOPEN:-10000}
REPS=${REPS:-5}
mkdir -p $KSB_OUT/raw

why=$(host_tool_why /usr/bin/bpftrace bpftrace)
if [ -n "$why" ]; then
	for kind in kprobe kfunc count kcaller kstack; do
		res unavail tool=bpftrace-$kind target=all why="$(enc "$why")"
	done
	skip "bpftrace" "$why"
	exit 0
fi

# script KIND FUNC: the bpftrace program of KIND for FUNC.
script() {
	case $1 in
	kprobe)
		echo "kprobe:$2 { @s[tid] = nsecs; } kretprobe:$2 /@s[tid]/ { @h = hist(nsecs - @s[tid]); delete(@s[tid]); }" ;;
	kfunc)
		echo "kfunc:$2 { @s[tid] = nsecs; } kretfunc:$2 /@s[tid]/ { @h = hist(nsecs - @s[tid]); delete(@s[tid]); }" ;;
	count)
		echo "kfunc:$2 { @c = count(); }" ;;
	kcaller|kstack)
		key=kstack; [ $1 = kcaller ] && key="kstack(1)"
		echo "kfunc:$2 { @s[tid] = nsecs; } kretfunc:$2 /@s[tid]/ { @h[$key] = hist(nsecs - @s[tid]); delete(@s[tid]); }" ;;
	esac
}

funcs=$(bench_funcs)

for target in empty $funcs; do
	if [ $target = empty ]; then
		func=ks_target_empty
		cmd="/tmp/ks-bench $KSB_OPTS -r $REPS write $KSB_EMPTY $N"
		ops=$N
	else
		func=$target
		cmd="/tmp/ks-bench $KSB_OPTS -r $REPS open $KSB_TMP $NOPEN"
		ops=$NOPEN
	fi
	kinds="kprobe kfunc count"
	[ $target = empty ] && kinds="$kinds kcaller kstack"
	for kind in $kinds; do
		raw=$KSB_OUT/raw/bpftrace-$kind-$target.txt
		in_host bpftrace -e "$(script $kind $func)" -c "$cmd" > $raw 2>&1
		l=$(grep '^KSB ' $raw | tail -n1)
		if [ -z "$l" ]; then
			why=$(grep -m1 -E 'ERROR|rror' $raw)
			case $why in
			*"No BTF found for vmlinux"*)
				why="$why (not in this kernel's BTF)" ;;
			*"No BTF"*)	why="$why (no BTF: kstats_target.ko is built out of tree without it)" ;;
			esac
			res unavail tool=bpftrace-$kind target=$target why="$(enc "${why:-no output}")"
			skip "bpftrace $kind $target" "$(grep -m1 -E 'ERROR|rror' $raw)"
			continue
		fi
		res alt tool=bpftrace-$kind target=$target kind=$([ $target = empty ] && echo empty || echo open) \
			ops=$ops min=$(ksb_field "$l" min) median=$(ksb_field "$l" median) \
			t=$(ksb_field "$l" t) raw=${raw##*/}
		ok "bpftrace $kind $target"
	done
done
