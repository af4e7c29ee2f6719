#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kstats demo: the three measurements of the kernel threads (find_vma,
# should_failslab/should_fail_alloc_page, vm_normal_page), run in a QEMU VM
# on an installed Debian kernel (default) or on this machine (--host), then
# the report, snapshots and figures in one folder.  See demo/README.md.
#
#   demo/demo.sh [-k KVER] [-K KVER] [-o DIR] [--build] [--no-icount [--smp N]]
#   demo/demo.sh --host [-o DIR] [--build]
#
# -k: the kernel of the demo (default the newest installed one).  The
# fault-injection hooks of part 2 are compiled out of kernels since the
# 2024 revert (unless CONFIG_FAILSLAB / CONFIG_FAIL_PAGE_ALLOC):
# when the kernel has neither, part 2 runs again in a boot of its own on
# the newest installed kernel that has them (its config or its BTF says
# so; in the guest, available_filter_functions), into DIR/hooks; -K names
# that kernel (-K none: no such boot).
#
# The VM runs with -icount by default: the guest clock counts executed
# instructions, so times are instruction counts that repeat from run to
# run; --no-icount runs plain TCG (faster, times are noisy and distorted).
# Under -icount every find_vma() call of the workload runs the same
# instructions and its percentiles coincide, so a last, short boot
# without -icount times find_vma alone with real timing noise, into
# DIR/tcg (DEMO_TCG=0 leaves it out; DEMO_TCG_PF_N operations, 5000).
# At the end demo/check.py checks the folder: each part's figures, the
# kernel each ran on, the report's width.
#
# Environment: DEMO_* workload sizes (demo/README.md), KS_DEMO_VMOUT (the
# VM sessions' own files, default demo-out/.vm), KS_VM_* knobs of
# vm/session.sh.

set -u

REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/kernels.sh"
. "$REPO/vm/tap.sh"	# tap_parse: the guest's TAP lines
PY=/usr/bin/python3
KSTATS=$REPO/tools/kstats.static
WORKLOADS="ks-pagefault ks-openmiss ks-alloc ks-fork"

usage() {
	sed -n '3,32s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

kver="" hkver="" hkopt="" out="" host=0 build=0 smp=1 icount=1
while [ $# -gt 0 ]; do
	case $1 in
	-k)		[ $# -ge 2 ] || usage; kver=$2; shift ;;
	-K)		[ $# -ge 2 ] || usage; hkver=$2; shift ;;
	-o)		[ $# -ge 2 ] || usage; out=$2; shift ;;
	--host)		host=1 ;;
	--build)	build=1 ;;
	--smp)		[ $# -ge 2 ] || usage; smp=$2; shift ;;
	--icount)	icount=1 ;;
	--no-icount)	icount=0 ;;
	-h|--help)	usage ;;
	*)		echo "demo: unknown argument '$1'" >&2; usage ;;
	esac
	shift
done

T0=$(date +%s.%N)
# step TEXT: a progress line with the elapsed time.
step() {
	printf '[%5.1fs] %s\n' "$(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')" "$*"
}
die() { echo "demo: $*" >&2; exit 1; }

# config_val KVER OPTION: y, n or "" (unknown) from the kernel's config.
config_val() {
	local cfg
	cfg=$(ks_kconfig "$1" 2>/dev/null)
	if [ ! -r "$cfg" ]; then
		if [ "$1" = "$(uname -r)" ] && [ -r /proc/config.gz ]; then
			zcat /proc/config.gz > "$STAGE/config" 2>/dev/null
			cfg=$STAGE/config
		else
			return 0
		fi
	fi
	if grep -q "^CONFIG_$2=[ym]" "$cfg"; then
		echo y
	else
		echo n	# "is not set", or absent because what it needs is off
	fi
}

# write_env FILE KVER: the scenarios' _env.sh (kernel config facts,
# DEMO_* sizes from the environment), read by vm/measure.sh.
write_env() {
	local f=$1 k=$2 v
	{
		echo "# SPDX-License-Identifier: GPL-2.0"
		echo "# Written by demo/demo.sh for $k."
		for v in FAILSLAB FAIL_PAGE_ALLOC PER_VMA_LOCK DEBUG_VM; do
			echo "KS_DEMO_CONFIG_$v=$(config_val "$k" $v)"
		done
		if [ $host = 1 ]; then	# real hardware: more samples, still quick
			echo ": \${DEMO_PF_N:=100000} \${DEMO_OPEN_N:=1000000}"
			echo ": \${DEMO_ALLOC_N:=200000} \${DEMO_FORK_N:=50}"
		fi
		env | grep -E '^DEMO_[A-Z_]+=' | sed "s/'/'\\\\''/g; s/=\\(.*\\)/='\\1'/"
	} > "$f"
}

# hooks_in KVER: does KVER have should_failslab or should_fail_alloc_page?
# Yes when its config builds them (CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC,
# since the revert) or its BTF names them (before it, when they were
# always there).  The answer is kept beside the VM sessions' files while
# the image stays the same; in the guest, available_filter_functions has
# the last word (scenarios/20-failslab.sh).
hooks_in() {
	local k=$1 img cache ans=n
	img=$(ks_kimage "$k") || return 1
	cache=$VMWORK/hooks-$k
	if [ -s "$cache" ] && [ "$cache" -nt "$img" ]; then
		[ "$(cat "$cache")" = y ]
		return
	fi
	if [ "$(config_val "$k" FAILSLAB)" = y ] ||
	   [ "$(config_val "$k" FAIL_PAGE_ALLOC)" = y ]; then
		ans=y
	elif ks_kbtf "$k" "$STAGE/btf" &&
	     LC_ALL=C grep -q -a -P '\x00should_fail(slab|_alloc_page)\x00' "$STAGE/btf"; then
		ans=y
	fi
	rm -f "$STAGE/btf"
	mkdir -p "$VMWORK" && echo $ans > "$cache"
	[ $ans = y ]
}

# hooks_kernel: the kernel of part 2's own boot: -K, else none when $kver
# has the hooks, else the newest other installed kernel that has them.
hooks_kernel() {
	local k
	case $hkver in
	none)		return 0 ;;
	"$kver")	return 0 ;;
	?*)		echo "$hkver"; return 0 ;;
	esac
	hooks_in "$kver" && return 0
	for k in $(ks_kernels | sort -rV); do
		[ "$k" = "$kver" ] && continue
		if hooks_in "$k"; then
			echo "$k"
			return 0
		fi
	done
}

build() {
	local k
	step "build: tools/kstats.static, tools/workloads"
	# under the folders' locks, as the Makefile builds them
	flock "$REPO/tools" make -s -C "$REPO/tools" static || die "tools build failed"
	flock "$REPO/tools/workloads" make -s -C "$REPO/tools/workloads" ||
		die "workloads build failed"
	if [ $host = 1 ]; then
		step "build: kmod/kstats.ko for $(uname -r)"
		make -s -C "$REPO" module || die "module build failed"
		return
	fi
	for k in $kver $hkver; do
		step "build: kstats.ko for $k (make vm-stage-$k)"
		make -s -C "$REPO" "vm-stage-$k" || die "module build failed"
	done
}

# Clean an output folder of a previous run's results.
prepare_out() {
	mkdir -p "$out" || die "cannot create $out"
	rm -f "$out"/*.json "$out"/*.facts "$out"/*.png "$out"/*.svg \
		"$out"/report.txt "$out"/vm-tap.txt "$out"/console.log "$out"/check.tap
	rm -rf "$out/tcg" "$out/hooks"
}

# run_vm KVER ICOUNT DIR [SCENARIOS]: one boot of KVER (ICOUNT 1:
# -icount), the demo's scenarios (or those SCENARIOS names), results into
# DIR.  Its progress lines start with KVER's version (7.3.4: ...), as two
# boots may run at once.
run_vm() {
	local kver=$1 icount=$2 dir=$3 only=${4:-}
	local work=$VMWORK tag=${1%%[-+]*} env=$STAGE/env-${3##*/}
	local f log rc args=()
	[ -x "$KSTATS" ] || die "no $KSTATS (make -C tools static)"
	[ "$dir" = "$out" ] || work=$work-${dir##*/}
	mkdir -p "$dir" "$env"
	write_env "$env/_env.sh" "$kver"
	args=(-k "$kver" --scenarios "$REPO/demo/scenarios" --work "$work"
	      --modules kstats.ko --stage "$KSTATS:/usr/bin/kstats" "$env/_env.sh")
	for f in $WORKLOADS; do
		[ -x "$REPO/tools/workloads/$f" ] || die "no tools/workloads/$f"
		args+=("$REPO/tools/workloads/$f")
	done
	args+=(--collect "$dir" --smp "$smp")
	[ $icount = 1 ] && args+=(--icount)
	[ -n "$only" ] && args+=(-s "$only")

	log=$work/$kver/console.log
	rm -f "$log"
	step "$tag: booting $kver in QEMU (TCG, $( [ $icount = 1 ] && echo "1 vCPU, -icount" || echo "$smp vCPU$([ "$smp" = 1 ] || echo s), no -icount"))"
	KS_VM_SCENARIO_TIMEOUT=${KS_VM_SCENARIO_TIMEOUT:-240} \
		"$REPO/vm/session.sh" "${args[@]}" > "$dir/vm-tap.txt" 2>&1 &
	local rpid=$!
	kids="$kids $rpid"
	trap 'kill -TERM $kids 2>/dev/null; wait; exit 130' INT TERM
	# Stream the guest's progress while it works.
	while [ ! -f "$log" ] && kill -0 $rpid 2>/dev/null; do sleep 0.2; done
	if [ -f "$log" ]; then
		tail -n +1 -F --pid=$rpid "$log" 2>/dev/null |
		while IFS= read -r line; do
			line=${line%$'\r'}
			tap_parse "$line"
			case $TAP_KIND:$line in
			other:"KSTATS-VM-BEGIN"*) step "$tag: guest up, ${line##*uptime=}s after power-on" ;;
			comment:"# demo: "*)	step "$tag: ${TAP_DESC#demo: }" ;;
			notok:*)		step "$tag: FAILED: $TAP_DESC" ;;
			other:"KSTATS-VM-END"*)	step "$tag: done, powering off" ;;
			esac
		done
	fi
	wait $rpid
	rc=$?
	kids=${kids% "$rpid"}
	cp "$log" "$dir/console.log" 2>/dev/null
	grep -E '^(not ok|# )' "$dir/vm-tap.txt" | grep -v '^# ---' | head -n 80
	printf '%s: %s\n' "$kver" "$(tail -n 1 "$dir/vm-tap.txt")"
	return $rc
}

run_host() {
	local bin=$STAGE/bin s name rc=0
	[ "$(id -u)" = 0 ] || die "--host needs root (sudo make demo-host)"
	mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug ||
		die "cannot mount debugfs"
	mkdir -p "$bin"
	ln -sf "$KSTATS" "$bin/kstats"
	for s in $WORKLOADS; do
		ln -sf "$REPO/tools/workloads/$s" "$bin/$s"
	done
	write_env "$STAGE/_env.sh" "$kver"
	[ -e /sys/kernel/debug/kstats/_control ] || [ -f "$REPO/kmod/kstats.ko" ] ||
		die "kstats is not loaded and kmod/kstats.ko is not built (make module)"
	for s in "$REPO"/demo/scenarios/[0-9]*.sh; do
		name=${s##*/}
		name=${name%.sh}
		KS_DEMO_HOST=1 KS_LIB=$REPO/vm KS_FILES=$STAGE KS_DEMO_OUT=$out \
		KS_DEMO_KO=$REPO/kmod/kstats.ko KS_SCENARIO=$name \
		PATH=$bin:$PATH sh "$s" < /dev/null 2>&1 |
		while IFS= read -r line; do
			tap_parse "$line"
			case $TAP_KIND:$line in
			comment:"# demo: "*) step "${TAP_DESC#demo: }" ;;
			notok:*)	step "FAILED: $TAP_DESC"; echo "$line" >> "$STAGE/failed" ;;
			detail:*)	echo "$line" ;;
			esac
		done
	done
	[ -s "$STAGE/failed" ] && rc=1
	return $rc
}

STAGE=$(mktemp -d /tmp/ks-demo-stage.XXXXXX) || die "mktemp failed"
trap 'rm -rf "$STAGE"' EXIT
VMWORK=${KS_DEMO_VMOUT:-$REPO/demo-out/.vm}

if [ $host = 1 ]; then
	kver=$(uname -r)
	hkver=""
else
	[ -n "$kver" ] || kver=$(ks_newest_kernel)
	[ -n "$kver" ] || die "no kernel with an image and a build tree (make deps)"
	ks_kroot "$kver" > /dev/null || die "no kernel $kver (scripts/kernels.sh list)"
	hkopt=$hkver
	hkver=$(hooks_kernel)
	if [ -n "$hkver" ]; then
		ks_kroot "$hkver" > /dev/null || die "no kernel $hkver (scripts/kernels.sh list)"
	fi
fi
[ -n "$out" ] || out=$REPO/demo-out/$([ $host = 1 ] && echo "host-")$kver
case $out in
"$REPO"/demo-out/*)	# results are not sources: the folder ignores itself
	mkdir -p "$REPO/demo-out"
	[ -f "$REPO/demo-out/.gitignore" ] || echo '*' > "$REPO/demo-out/.gitignore" ;;
esac
step "kstats demo on $kver$([ $host = 1 ] && echo " (this machine)"), output in ${out#"$REPO"/}"
if [ $host = 0 ] && [ -z "$hkopt" ]; then
	if [ -n "$hkver" ]; then
		step "part 2 on $hkver: $kver has neither should_failslab nor should_fail_alloc_page"
	elif ! hooks_in "$kver"; then
		step "part 2: no kernel here has should_failslab or should_fail_alloc_page"
	fi
fi
[ $build = 1 ] && build
prepare_out

status=0
kids=""	# what runs in the background, stopped on INT or TERM (run_vm)
if [ $host = 1 ]; then
	run_host || status=1
else
	# Part 2's boot beside the first: one host thread each, and under
	# -icount the figures do not depend on the wall time.
	hpid=""
	if [ -n "$hkver" ]; then
		step "part 2 again, on $hkver, where the hooks are, in a second VM"
		run_vm "$hkver" "$icount" "$out/hooks" 20-failslab &
		hpid=$!
		kids="$kids $hpid"
	fi
	run_vm "$kver" "$icount" "$out" || status=1
	if [ -n "$hpid" ]; then
		wait "$hpid" || status=1
		kids=${kids% "$hpid"}
	fi
	if [ "$icount" = 1 ] && [ "${DEMO_TCG:-1}" != 0 ]; then
		step "find_vma again without -icount, where timing noise spreads the percentiles"
		(export DEMO_PF_N=${DEMO_TCG_PF_N:-5000}; run_vm "$kver" 0 "$out/tcg" 10-find_vma) || status=1
	fi
fi

step "report and figures"
echo
if ! "$PY" "$REPO/demo/report.py" "$out" --kstats "$KSTATS"; then
	status=1
fi
echo
step "check: each part's figures, its kernel, the report's width (demo/check.py)"
check_args=()
# Part 2 must be measured when some kernel here has the hooks.
if [ -n "$hkver" ] || { [ $host = 0 ] && hooks_in "$kver"; }; then
	check_args+=(--need-hooks)
fi
"$PY" "$REPO/demo/check.py" "${check_args[@]}" "$out" > "$out/check.tap" || status=1
grep -v '^ok ' "$out/check.tap"
step "done$([ $status = 0 ] || echo ", WITH FAILURES (see above and $out/vm-tap.txt)")"
exit $status
