#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The VM harness: every guest of the tree boots here.  A session is a
# kernel (or each of several), a folder of scenarios, the files staged
# into the guest and the files collected from it.  It boots the kernel in
# QEMU (TCG) with a busybox initramfs, runs the scenarios (vm/runner.sh),
# checks dmesg, and prints TAP and a final `N passed, N failed, N skipped`.
#
#   vm/session.sh [-k KVER]... [--scenarios DIR] [-s GLOB] [--stage FILE...]
#                 [--modules NAME...] [--collect DIR] [--icount] [--smp N]
#                 [--9p-host-root[=DIR]] [--work DIR] [--append WORDS]
#                 [--qemu-args ARGS] [--kmods NAMES] [-i]
#
# tests/vm/run.sh (the VM suite), demo/demo.sh, bench/run.sh and
# tools/ab/kstats-ab call it; see vm/README.md.  Environment knobs (the
# options add to them or win):
#   KS_VM_OUT               staged modules and binaries, caches (vm/stage.sh,
#                           make vm-stage; default vm/out)
#   KS_VM_SCENARIOS         scenario folder (default tests/vm/scenarios)
#   KS_VM_TIMEOUT           host-side limit per boot, seconds (default 600)
#   KS_VM_SCENARIO_TIMEOUT  guest-side limit per scenario, seconds (default 120)
#   KS_VM_KMODS             in-tree modules to stage and insmod at boot
#                           (names for modprobe, dependencies resolved)
#   KS_VM_APPEND            extra kernel command line words
#   KS_VM_QEMU_ARGS         extra QEMU arguments
#   KS_VM_TAIL              console lines shown on failure (default 60)
#   KS_VM_TSC_WATCHDOG      1: keep the clocksource watchdog on the
#                           TSC (default tsc=nowatchdog, see APPEND_TSC)
#   KS_VM_PVH               0: boot the bzImage instead of its extracted
#                           vmlinux (see kernel_image)
#   KS_VM_CPU               x86-64 CPU model (default max,+invtsc,...;
#                           "default": QEMU's own, without invariant TSC)
#   KS_VM_ARM64_CPU         arm64 CPU model (default max,pauth-impdef=on;
#                           cortex-a57: ARMv8.0, no LSE atomics)
#   KS_VM_TCG_THREAD        single (default) or multi: parallel TCG, which
#                           can run stale patched text (tests/vm/mttcg.sh)

set -u

VM=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$VM/.." && pwd)
. "$TOP/scripts/kernels.sh"
OUT=${KS_VM_OUT:-$VM/out}
SCEN_DIR=${KS_VM_SCENARIOS:-$TOP/tests/vm/scenarios}
HOST_TIMEOUT=${KS_VM_TIMEOUT:-600}
SCEN_TIMEOUT=${KS_VM_SCENARIO_TIMEOUT:-120}
TAIL=${KS_VM_TAIL:-60}
KMODS=${KS_VM_KMODS:-}
APPEND_EXTRA=${KS_VM_APPEND:-}
QEMU_EXTRA=${KS_VM_QEMU_ARGS:-}
# What the guest needs to mount a 9p share (virtio-pci: a module on 6.1)
HOSTROOT_KMODS="9p 9pnet_virtio virtio_pci"

usage() {
	cat <<USAGE
usage: $0 [-k KVER]... [--scenarios DIR] [-s GLOB] [options]
  -k KVER           this kernel release (repeat for several; default: every
                    release that scripts/kernels.sh lists: an image and a
                    build tree, here or in a build root)
  --scenarios DIR   the scenarios, DIR/NN-name.sh (default tests/vm/scenarios);
                    every DIR/*.sh is in the guest's /scenarios, so a
                    scenario can source a neighbour
  -s GLOB           only scenarios whose name matches GLOB (e.g. '1*',
                    00-selftest; GLOB,GLOB... for several)
  --stage FILE...   more files for the guest, up to the next option, each
                    FILE[:GUESTPATH]; without GUESTPATH a .ko lands in
                    /modules, an executable in /usr/bin (with its libraries
                    if it is dynamic), anything else in /ks/files
  --modules NAME... the staged modules to put in /modules (kstats.ko ...),
                    from OUT/KVER/modules or OUT/KVER/bench (default: every
                    OUT/KVER/modules/*.ko)
  --collect DIR     bring back into DIR what the scenarios write under
                    \$KS_COLLECT in the guest (DIR/KVER with several kernels)
  --icount          deterministic guest clock: -icount shift=0,sleep=off, 1 vCPU
  --smp N           number of vCPUs (default 2)
  --9p-host-root[=DIR]  this machine's / (or DIR: a root of the guest's
                    architecture, such as the Debian 13 root for arm64)
                    read-only over 9p (mount_tag hostroot; mount_host_root
                    in vm/lib.sh) and 2 GiB of guest memory
  --work DIR        the session's own files (initramfs, console.log,
                    qemu.err) in DIR/KVER (default OUT)
  --append WORDS    more kernel command line
  --qemu-args ARGS  more QEMU arguments
  --kmods NAMES     more in-tree modules to insmod at boot
  --timeout S       host-side limit per boot (KS_VM_TIMEOUT)
  --scenario-timeout S  guest-side limit per scenario (KS_VM_SCENARIO_TIMEOUT)
  -i                interactive: boot into a shell on the console (Ctrl-A x quits)
Static binaries come from OUT/bin/ (OUT/bin-ARCH/ for kernels of another
architecture than this machine's) and OUT/KVER/bin/, into /usr/bin.
OUT is \$KS_VM_OUT, else vm/out.  KSTATS_ARCH=arm64 picks the arm64
kernels (scripts/kernels.sh).
USAGE
	exit 2
}

die() { echo "session: $*" >&2; exit 2; }

kvers=() glob="*" interactive=0 smp=2 icount=0 hostroot=0 hostroot_dir=/
stage=() modules=() collect="" WORK=""
while [ $# -gt 0 ]; do
	case $1 in
	-k)		[ $# -ge 2 ] || usage; kvers+=("$2"); shift ;;
	-s)		[ $# -ge 2 ] || usage; glob=$2; shift ;;
	--scenarios)	[ $# -ge 2 ] || usage; SCEN_DIR=$2; shift ;;
	--stage)
		[ $# -ge 2 ] || usage
		while [ $# -ge 2 ] && [ "${2#-}" = "$2" ]; do stage+=("$2"); shift; done ;;
	--modules)
		[ $# -ge 2 ] || usage
		while [ $# -ge 2 ] && [ "${2#-}" = "$2" ]; do modules+=("$2"); shift; done ;;
	--collect)	[ $# -ge 2 ] || usage; collect=$2; shift ;;
	--work)		[ $# -ge 2 ] || usage; WORK=$2; shift ;;
	--append)	[ $# -ge 2 ] || usage; APPEND_EXTRA="${APPEND_EXTRA:+$APPEND_EXTRA }$2"; shift ;;
	--qemu-args)	[ $# -ge 2 ] || usage; QEMU_EXTRA="${QEMU_EXTRA:+$QEMU_EXTRA }$2"; shift ;;
	--kmods)	[ $# -ge 2 ] || usage; KMODS="${KMODS:+$KMODS }$2"; shift ;;
	--timeout)	[ $# -ge 2 ] || usage; HOST_TIMEOUT=$2; shift ;;
	--scenario-timeout) [ $# -ge 2 ] || usage; SCEN_TIMEOUT=$2; shift ;;
	--9p-host-root)	hostroot=1 ;;
	--9p-host-root=*) hostroot=1 hostroot_dir=${1#*=} ;;
	-i)		interactive=1 ;;
	--smp)		[ $# -ge 2 ] || usage; smp=$2; shift ;;
	--smp=*)	smp=${1#*=} ;;
	--icount)	icount=1 ;;
	-h|--help)	usage ;;
	*)		echo "session: unknown argument '$1'" >&2; usage ;;
	esac
	shift
done
case $smp in ''|*[!0-9]*|0) die "bad --smp '$smp'" ;; esac
if [ $icount = 1 ] && [ "$smp" != 1 ]; then
	smp=1	# -icount hangs the boot with more than one vCPU
fi
WORK=${WORK:-$OUT}
if [ $hostroot = 1 ]; then
	KMODS="${KMODS:+$KMODS }$HOSTROOT_KMODS"
	QEMU_EXTRA="-m 2G -virtfs local,path=$hostroot_dir,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap${QEMU_EXTRA:+ $QEMU_EXTRA}"
fi

for tool in cpio gzip timeout; do
	command -v $tool >/dev/null || die "$tool not found (run scripts/deps.sh)"
done

# arch_setup KVER: what booting KVER takes, by its architecture: KARCH,
# QEMU (the emulator and machine), CONSOLE, BUSYBOX (static, of that
# architecture) and BINDIR (the static CLI and helpers: $OUT/bin for this
# machine's architecture, $OUT/bin-ARCH for another).
arch_setup() {
	KARCH=$(ks_karch "$1") || die "$1: unknown architecture (scripts/kernels.sh arch)"
	BUSYBOX=/bin/busybox BINDIR=$OUT/bin
	if [ "$KARCH" != "$(ks_host_arch)" ]; then
		BUSYBOX=$KSTATS_CACHE/$KARCH/root/bin/busybox
		BINDIR=$OUT/bin-$KARCH
	fi
	case $KARCH in
	amd64)	QEMU=(qemu-system-x86_64) CONSOLE=ttyS0 ;;
	# pauth-impdef: QEMU's cheap pointer authentication (the kernel signs
	# every return address; the architected algorithm costs TCG dearly)
	arm64)	QEMU=(qemu-system-aarch64 -M virt -cpu "${KS_VM_ARM64_CPU:-max,pauth-impdef=on}")
		CONSOLE=ttyAMA0 ;;
	*)	die "$1: no QEMU for $KARCH" ;;
	esac
	command -v "${QEMU[0]}" >/dev/null || die "${QEMU[0]} not found (scripts/deps.sh)"
	[ -x "$BUSYBOX" ] || die "$BUSYBOX missing (scripts/deps.sh${KARCH:+ $KARCH})"
	file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked' ||
		ldd "$BUSYBOX" 2>&1 | grep -qE 'not a dynamic|statically linked' ||
		die "$BUSYBOX is not static (apt-get install busybox-static)"
}

# Kernels: every release with an image and a build tree, newest last.
if [ ${#kvers[@]} -gt 0 ]; then
	for k in "${kvers[@]}"; do
		ks_kroot "$k" > /dev/null || die "no kernel $k (scripts/kernels.sh list)"
	done
else
	mapfile -t kvers < <(ks_kernels)
	[ ${#kvers[@]} -gt 0 ] || die "no kernel with an image and a build tree (make deps)"
fi
for f in "${stage[@]}"; do
	[ -f "${f%%:*}" ] || die "--stage: no file ${f%%:*}"
done
[ -d "$SCEN_DIR" ] || die "no scenario folder $SCEN_DIR"

# Scenarios matching the glob, or one of a comma-separated list of globs
# (with or without .sh), in name order.
scenarios=()
IFS=, read -r -a globs <<< "$glob"
for f in "$SCEN_DIR"/*.sh; do
	[ -f "$f" ] || continue
	n=${f##*/}
	n=${n%.sh}
	for g in "${globs[@]}"; do
		# shellcheck disable=SC2254
		case $n in $g|${g%.sh}) scenarios+=("$n"); break ;; esac
	done
done
if [ $interactive = 0 ] && [ ${#scenarios[@]} -eq 0 ]; then
	die "no scenario in $SCEN_DIR matches '$glob'"
fi
scen_list=$(IFS=,; echo "${scenarios[*]}")
[ ${#scen_list} -lt 1500 ] || die "scenario list too long for the kernel command line"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# Build the harness' own hello module (vm/selftest) for KVER into
# $OUT/KVER/selftest; rebuilt only when its sources change.
build_selftest() {
	local kver=$1 dir=$OUT/$1/selftest
	local ko=$dir/ks_hello.ko
	if [ -f "$ko" ] && [ -z "$(find "$VM/selftest" -newer "$ko" -type f)" ]; then
		return 0
	fi
	rm -rf "$dir"
	mkdir -p "$dir/selftest"
	cp "$VM"/selftest/*.c "$VM"/selftest/Kbuild "$VM"/selftest/Makefile "$dir/selftest/"
	if ! ks_kmake "$kver" "$dir" selftest > "$dir/build.log" 2>&1; then
		echo "# $kver: selftest module build failed, see $dir/build.log"
		return 1
	fi
	mv "$dir/selftest/ks_hello.ko" "$ko"
}

# stage_bin FILE ROOT [GUESTPATH]: copy an executable to ROOT/usr/bin (or
# ROOT/GUESTPATH); if it is dynamically linked, copy its libraries and
# loader too.
stage_bin() {
	local f=$1 root=$2 dest=${3:-/usr/bin/} lib
	mkdir -p "$root$(dirname "$dest.")"
	cp -L "$f" "$root$dest"
	ldd "$f" 2>/dev/null | awk '
		/=> \// { print $3; next }
		/^[ \t]*\// { print $1 }' |
	while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

# stage_file SRC[:GUESTPATH] ROOT: one --stage file.
stage_file() {
	local src=${1%%:*} dest="" root=$2
	case $1 in *:*) dest=${1#*:} ;; esac
	if [ -z "$dest" ]; then
		case $src in
		*.ko)	dest=/modules/ ;;
		*)	if [ -x "$src" ]; then dest=/usr/bin/; else dest=/ks/files/; fi ;;
		esac
	fi
	if [ -x "$src" ] && [ "${src%.ko}" = "$src" ]; then
		stage_bin "$src" "$root" "$dest"
	else
		mkdir -p "$root$(dirname "$dest.")"
		cp -L "$src" "$root$dest"
	fi
}

# stage_modules KVER ROOT: the staged modules (--modules, else all of
# $OUT/KVER/modules) into ROOT/modules.
stage_modules() {
	local kver=$1 root=$2 m f
	if [ ${#modules[@]} -eq 0 ]; then
		for f in "$OUT/$kver"/modules/*.ko; do
			[ -f "$f" ] && cp "$f" "$root/modules/"
		done
		return 0
	fi
	for m in "${modules[@]}"; do
		for f in "$OUT/$kver/modules/$m" "$OUT/$kver/bench/$m" ""; do
			[ -z "$f" ] && die "$kver: no $m staged in $OUT/$kver (make vm-stage-$kver)"
			[ -f "$f" ] && { cp "$f" "$root/modules/"; break; }
		done
	done
}

# stage_kmods KVER ROOT: in-tree modules named in KMODS and their
# dependencies, decompressed, with the insmod order in modules/kernel/order.
stage_kmods() {
	local kver=$1 root=$2 m path base
	[ -n "$KMODS" ] || return 0
	mkdir -p "$root/modules/kernel"
	: > "$root/modules/kernel/order"
	for m in $KMODS; do
		ks_kmodprobe "$kver" --show-depends "$m" 2>/dev/null |
		awk '$1 == "insmod" { print $2 }'
	done | awk '!seen[$0]++' | while read -r path; do
		base=${path##*/}
		case $base in
		*.ko.xz)	xz -dc "$path" > "$root/modules/kernel/${base%.xz}"; base=${base%.xz} ;;
		*.ko.zst)	zstd -qdc "$path" > "$root/modules/kernel/${base%.zst}"; base=${base%.zst} ;;
		*.ko.gz)	gzip -dc "$path" > "$root/modules/kernel/${base%.gz}"; base=${base%.gz} ;;
		*)		cp "$path" "$root/modules/kernel/$base" ;;
		esac
		echo "$base" >> "$root/modules/kernel/order"
	done
}

# build_initramfs KVER: $WORK/KVER/initramfs.cpio.gz
build_initramfs() {
	local kver=$1 root=$WORK/$1/rootfs f
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,root,etc,modules,scenarios,ks/files,ks/collect}
	cp $BUSYBOX "$root/bin/busybox"
	ln -s busybox "$root/bin/sh"	# /init runs busybox --install -s
	cp "$VM/init.sh" "$root/init"
	cp "$VM/runner.sh" "$root/usr/bin/ks-run"
	cp "$VM/tap.sh" "$VM/lib.sh" "$VM/measure.sh" "$root/ks/"
	cp "$SCEN_DIR"/*.sh "$root/scenarios/" 2>/dev/null
	chmod 755 "$root/init" "$root/usr/bin/ks-run"
	stage_modules "$kver" "$root"
	if [ -f "$OUT/$kver/selftest/ks_hello.ko" ]; then
		mkdir -p "$root/ks/selftest"
		cp "$OUT/$kver/selftest/ks_hello.ko" "$root/ks/selftest/"
	fi
	for f in "$BINDIR"/* "$OUT/$kver"/bin/*; do
		[ -f "$f" ] && [ -x "$f" ] && stage_bin "$f" "$root"
	done
	for f in "${stage[@]}"; do
		stage_file "$f" "$root"
	done
	stage_kmods "$kver" "$root"
	echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
	echo "root:x:0:" > "$root/etc/group"
	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$WORK/$kver/initramfs.cpio.gz"
}

# kernel_image KVER: print the image to boot.  QEMU boots an uncompressed
# ELF vmlinux through its PVH entry point (Debian sets CONFIG_PVH), which
# skips the in-guest decompression: 6.1's xz payload costs ~5 s under TCG.
# The payload is cut from the bzImage (ks_kelf in scripts/kernels.sh) and
# cached in $OUT/KVER/vmlinux.  KS_VM_PVH=0, or any
# failure, boots the image (/boot/vmlinuz-KVER) itself.
kernel_image() {
	local kver=$1 elf=$OUT/$1/vmlinux
	if [ "${KS_VM_PVH:-1}" != 0 ] && ks_kelf "$kver" "$elf"; then
		echo "$elf"
	else
		ks_kimage "$kver"
	fi
}

# qemu_cmd KVER: the QEMU command line in the array QEMU.
qemu_cmd() {
	local kver=$1
	arch_setup "$kver"
	# invtsc: a TSC that is constant and nonstop, which kstats needs to
	# take the TSC for time (else local_clock(), off the direct fast
	# path).  TCG's TSC is the host's (or -icount's), constant: it warns
	# that it lacks the bit, x-force-features sets it all the same.
	# KS_VM_CPU=default boots QEMU's default model instead: no invariant
	# TSC, as in many KVM and cloud guests (tests/vm/cpu-default.sh).
	if [ "$KARCH" = amd64 ] && [ "${KS_VM_CPU:-}" != default ]; then
		QEMU+=(-cpu "${KS_VM_CPU:-max,+invtsc,x-force-features=on}")
	fi
	QEMU+=(-nographic -no-reboot -m 1G -net none)
	if [ $icount = 1 ]; then
		QEMU+=(-icount shift=0,sleep=off -smp 1)
	else
		# One host thread runs every vCPU in turn: with parallel TCG
		# threads, a vCPU can run a stale translation of code another
		# vCPU just patched (ftrace/kprobes text_poke) and trap on an
		# int3 the kernel already removed.  Real CPUs never do that.
		QEMU+=(-accel "tcg,thread=${KS_VM_TCG_THREAD:-single}" -smp "$smp")
	fi
	QEMU+=(-kernel "$(kernel_image "$kver")" -initrd "$WORK/$kver/initramfs.cpio.gz")
	# shellcheck disable=SC2206
	QEMU+=($QEMU_EXTRA)
}

APPEND_BASE="panic=-1 oops=panic quiet loglevel=4"	# console= by architecture
# tsc=nowatchdog: TCG's TSC and HPET both follow the host's clock, but on a
# loaded host the vCPU thread can be descheduled between the clocksource
# watchdog's reads, and 6.1 then marks the TSC unstable ("excessive
# read-back delay"): every node after it falls back to local_clock() for a
# reason that is the host's, not the guest's.  kstats' own fall back is
# tested through counter_unstable and a clocksource change (49-clock).
# KS_VM_TSC_WATCHDOG=1 keeps the watchdog.
if [ "${KS_VM_TSC_WATCHDOG:-0}" != 1 ]; then
	APPEND_TSC="tsc=nowatchdog"
else
	APPEND_TSC=""
fi

# The TAP of every boot, in one numbering (vm/tap.sh: notok, tap_relay).
# shellcheck source=vm/tap.sh
. "$VM/tap.sh"

# report KVER LOG: print the renumbered TAP lines of one boot and count
# them into pass, fail and skip.  Lines of a collected file (between
# KS-FILE-BEGIN and KS-FILE-END) are data, not results.
report() {
	local kver=$1 log=$2 end n0=$tap_n f0=$tap_failed s0=$tap_skipped
	tap_relay failures < <(sed -n '/KSTATS-VM-BEGIN/,$p' "$log" | tr -d '\r' |
		sed '/^KS-FILE-BEGIN /,/^KS-FILE-END /d')
	fail=$((tap_failed - f0)) skip=$((tap_skipped - s0))
	pass=$((tap_n - n0 - fail - skip))

	end=$(grep -a '^KSTATS-VM-END' "$log" | tr -d '\r' | tail -n1)
	if [ -z "$end" ]; then
		notok "$kver: vm did not finish"
	else
		# The guest's own counts: a line garbled on the console is a failure.
		local gp gf gs
		gp=$(echo "$end" | sed -n 's/.* pass=\([0-9]*\).*/\1/p')
		gf=$(echo "$end" | sed -n 's/.* fail=\([0-9]*\).*/\1/p')
		gs=$(echo "$end" | sed -n 's/.* skip=\([0-9]*\).*/\1/p')
		if [ "$gp" != "$pass" ] || [ "$gf" != "$fail" ] || [ "$gs" != "$skip" ]; then
			notok "$kver: console lost result lines (guest: pass=$gp fail=$gf skip=$gs, seen: pass=$pass fail=$fail skip=$skip)"
		fi
	fi
}

# collect_files KVER LOG: the files the guest published, into the
# --collect folder; a garbled or missing one is a failure.
collect_files() {
	local kver=$1 log=$2 dir=$collect err
	[ -n "$collect" ] || return 0
	[ ${#kvers[@]} -gt 1 ] && dir=$collect/$kver
	mkdir -p "$dir"
	if ! err=$("$VM/collect.sh" "$log" "$dir" 2>&1); then
		notok "$kver: files collected from the guest"
		printf '%s\n' "${err:-the guest published no file}" | sed 's/^/#   /'
	fi
}

# tally KVER LOG: its console's tail if the boot had a failure.
tally() {
	if [ $tap_failed -gt "$boot_failed" ]; then
		echo "# ---- $1: last $TAIL console lines ($2) ----"
		tail -n "$TAIL" "$2" | tr -d '\r' |
			sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1bc//g; s/^/# | /'
		echo "# ----"
	fi
}

for kver in "${kvers[@]}"; do
	dir=$WORK/$kver
	mkdir -p "$dir" "$OUT/$kver"
	# One run per kernel and work folder at a time: the initramfs and the
	# console log are $WORK/KVER's (with the default --work, $OUT/KVER's).
	exec {lockfd}>"$dir/.lock"
	flock "$lockfd"
	# What runs of other work folders share in $OUT/KVER (the staged
	# modules, the selftest module, the vmlinux cut from the image) is
	# read and built under vm/stage.sh's lock, until QEMU starts.
	exec {stagefd}>"$OUT/$kver/.stage.lock"
	flock "$stagefd"
	arch_setup "$kver"
	build_selftest "$kver"
	if [ ${#modules[@]} -eq 0 ] && ! ls "$OUT/$kver"/modules/*.ko >/dev/null 2>&1; then
		echo "# $kver: no modules staged in $OUT/$kver/modules (only the selftest runs meaningfully)"
	fi
	t0=$(now)
	build_initramfs "$kver" || die "$kver: initramfs build failed"
	t1=$(now)
	append="console=$CONSOLE $APPEND_BASE ks.timeout=$SCEN_TIMEOUT ks.icount=$icount"
	[ "$(ks_karch "$kver")" = amd64 ] && [ -n "$APPEND_TSC" ] && append="$append $APPEND_TSC"
	# arm64's kprobes step a copied instruction through a BRK exception
	# each: under TCG on a loaded host a 100 us section once read 142 us
	# (100.7 to 111.6 us in 55 runs before): twice the probes' slack there
	# (vm/lib.sh's KS_SLACK); a ks.slack= of KS_VM_APPEND comes later and wins
	[ "$(ks_karch "$kver")" = arm64 ] && append="$append ks.slack=60000"
	[ -n "$collect" ] && append="$append ks.collect=1"
	qemu_cmd "$kver"
	exec {stagefd}>&-

	if [ $interactive = 1 ]; then
		echo "# $kver: interactive shell on the console; Ctrl-A x quits QEMU"
		"${QEMU[@]}" -append "$append ks.interactive=1 $APPEND_EXTRA"
		exec {lockfd}>&-
		continue
	fi

	log=$dir/console.log
	echo "# $kver: booting (initramfs $(du -k "$dir/initramfs.cpio.gz" | cut -f1) KiB in $(elapsed "$t0" "$t1")s, scenarios: $scen_list)"
	# timeout(1) runs QEMU in its own process group, out of reach of a
	# Ctrl-C on the terminal: pass INT/TERM on ourselves.
	timeout -k 10 "$HOST_TIMEOUT" "${QEMU[@]}" \
		-append "$append ks.scenarios=$scen_list $APPEND_EXTRA" \
		</dev/null >"$log" 2>"$dir/qemu.err" &
	qpid=$!
	trap 'kill -TERM $qpid 2>/dev/null; exit 130' INT TERM
	wait $qpid
	rc=$?
	trap - INT TERM
	t2=$(now)
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		echo "# $kver: QEMU killed after ${HOST_TIMEOUT}s"
	elif [ $rc -ne 0 ]; then
		echo "# $kver: QEMU exited with status $rc: $(head -c 500 "$dir/qemu.err")"
	fi
	echo "# $kver: boot and run took $(elapsed "$t1" "$t2")s; $(grep -a 'KSTATS-VM-BEGIN' "$log" | tr -d '\r' | sed 's/.*uptime=/guest uptime at start /')"
	boot_failed=$tap_failed
	report "$kver" "$log"
	collect_files "$kver" "$log"
	tally "$kver" "$log"
	exec {lockfd}>&-
done

[ $interactive = 1 ] && exit 0
tap_end
